//! Mail delivery by SMTP, against a local SMTP sink that speaks the protocol.

use std::sync::{Arc, Mutex};

use prettyscore_server::config::{SmtpConfig, SmtpSecurity};
use prettyscore_server::mail::{Mailer, outbox};
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use super::*;

on_both_databases!(
    mail_is_retried_for_three_days_with_a_backoff_of_at_most_an_hour,
    waiting_mail_goes_out_soon_after_the_smtp_server_is_back,
    a_mail_left_sending_by_a_stopped_worker_is_sent_once_more_with_the_same_message_id,
    a_send_in_flight_holds_a_short_lease_that_its_worker_renews
);

/// A minimal SMTP server that accepts every message and keeps its data.
async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    (port, smtp_sink_on(listener))
}

/// [`smtp_sink`] on `listener`.
fn smtp_sink_on(listener: TcpListener) -> Arc<Mutex<Vec<String>>> {
    smtp_sink_holding(listener, None)
}

/// [`smtp_sink_on`] that, given `hold`, answers a message's data only once
/// `hold` is notified (a send in flight for as long as a test likes).
fn smtp_sink_holding(
    listener: TcpListener,
    hold: Option<Arc<tokio::sync::Notify>>,
) -> Arc<Mutex<Vec<String>>> {
    let received = Arc::new(Mutex::new(Vec::new()));
    let store = Arc::clone(&received);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let store = Arc::clone(&store);
            let hold = hold.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let command = line.to_ascii_uppercase();
                    if command.starts_with("EHLO") || command.starts_with("HELO") {
                        write
                            .write_all(b"250-sink\r\n250 8BITMIME\r\n")
                            .await
                            .unwrap();
                    } else if command.starts_with("DATA") {
                        write.write_all(b"354 go ahead\r\n").await.unwrap();
                        let mut data = String::new();
                        while let Ok(Some(line)) = lines.next_line().await {
                            if line == "." {
                                break;
                            }
                            data.push_str(&line);
                            data.push('\n');
                        }
                        if let Some(hold) = &hold {
                            hold.notified().await;
                        }
                        store.lock().unwrap().push(data);
                        write.write_all(b"250 queued\r\n").await.unwrap();
                    } else if command.starts_with("QUIT") {
                        write.write_all(b"221 bye\r\n").await.unwrap();
                        break;
                    } else {
                        write.write_all(b"250 ok\r\n").await.unwrap();
                    }
                }
            });
        }
    });
    received
}

/// A port nobody listens on (for now).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

fn smtp(port: u16) -> SmtpConfig {
    SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        username: None,
        password: None,
        security: SmtpSecurity::None,
        from: "PrettyScore <no-reply@prettyscore.test>".into(),
    }
}

async fn only_mail(app: &TestApp) -> outbox::Model {
    outbox::Entity::find()
        .one(&app.db)
        .await
        .unwrap()
        .expect("one mail in the outbox")
}

on_both_databases!(
    with_smtp_configured_mail_is_delivered_and_marked_sent,
    an_unreachable_smtp_server_leaves_the_mail_pending_for_a_retry,
);

async fn with_smtp_configured_mail_is_delivered_and_marked_sent(backend: Backend) {
    let (port, received) = smtp_sink().await;
    let app = spawn_app_with(backend, |c| c.auth.smtp = Some(smtp(port))).await;
    // A confirmed account: with SMTP a sign-up would mail its own link first.
    insert_user_at(&app, "ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();

    eventually("the sink to receive the mail", || async {
        !received.lock().unwrap().is_empty()
    })
    .await;
    let data = received.lock().unwrap()[0].clone();
    assert!(data.contains("To: ada@example.com"), "{data}");
    assert!(data.contains("Reset your PrettyScore password"), "{data}");
    assert!(data.contains("/auth/v1/verify?token="), "{data}");

    eventually("the outbox row to be marked sent", || async {
        only_mail(&app).await.status == "sent"
    })
    .await;
    let row = only_mail(&app).await;
    assert_eq!(row.status, "sent");
    assert!(row.sent_at.is_some());
}

async fn an_unreachable_smtp_server_leaves_the_mail_pending_for_a_retry(backend: Backend) {
    let port = free_port();
    let app = spawn_app_with(backend, |c| c.auth.smtp = Some(smtp(port))).await;
    // A confirmed account: with SMTP a sign-up would mail its own link first.
    insert_user_at(&app, "ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    // The attempt counts from its claim (`sending`); it is over once the row
    // is `pending` again.
    eventually("a delivery attempt", || async {
        let row = only_mail(&app).await;
        row.attempts > 0 && row.status != "sending"
    })
    .await;
    let row = only_mail(&app).await;
    assert_eq!(row.attempts, 1);
    assert_eq!(row.status, "pending");
    assert!(row.last_error.is_some());
    assert!(row.next_attempt_at > chrono::Utc::now());
}

/// Moves the only outbox row, as a long outage or a crash would have left it.
async fn set_mail(app: &TestApp, change: impl FnOnce(&mut outbox::ActiveModel)) {
    let mut row: outbox::ActiveModel = only_mail(app).await.into();
    change(&mut row);
    row.update(&app.db).await.unwrap();
}

/// Issue 25, item 8: mail was dropped for good after 8 failed attempts
/// (about 2 hours of outage). Now it is retried for 3 days, at most an hour
/// apart.
async fn mail_is_retried_for_three_days_with_a_backoff_of_at_most_an_hour(backend: Backend) {
    let app = spawn_app_with(backend, |c| c.auth.smtp = Some(smtp(free_port()))).await;
    // A confirmed account: with SMTP a sign-up would mail its own link first.
    insert_user_at(&app, "ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    // An attempt counts from its claim (`sending`); it is over once the row
    // is `pending` again.
    eventually("a first attempt", || async {
        let row = only_mail(&app).await;
        row.attempts == 1 && row.status == "pending"
    })
    .await;
    let hour = chrono::Duration::hours(1);
    // Two hours of outage, eight attempts: one more, and still pending.
    // Then two days and 40 attempts (the doubling would be years by now).
    for (age, attempts) in [
        (chrono::Duration::hours(2), 8),
        (chrono::Duration::days(2), 40),
    ] {
        let now = chrono::Utc::now();
        set_mail(&app, |row| {
            row.attempts = Set(attempts);
            row.created_at = Set(now - age);
            row.next_attempt_at = Set(now);
        })
        .await;
        app.state.mailer.deliver_due().await.unwrap();
        eventually("the next attempt", || async {
            let row = only_mail(&app).await;
            row.attempts == attempts + 1 && row.status != "sending"
        })
        .await;
        let row = only_mail(&app).await;
        assert_eq!(row.status, "pending", "{attempts} attempts over {age}");
        assert!(row.next_attempt_at > now, "{row:?}");
        assert!(row.next_attempt_at <= chrono::Utc::now() + hour, "{row:?}");
    }
    // Three days old: given up.
    let now = chrono::Utc::now();
    set_mail(&app, |row| {
        row.created_at = Set(now - chrono::Duration::days(3) - chrono::Duration::minutes(1));
        row.next_attempt_at = Set(now);
    })
    .await;
    app.state.mailer.deliver_due().await.unwrap();
    eventually("the mail to be given up", || async {
        only_mail(&app).await.status == "failed"
    })
    .await;
}

/// Mail that failed while the server was down used to wait for its next
/// slot (up to hours) after the server came back; now it goes within
/// seconds.
async fn waiting_mail_goes_out_soon_after_the_smtp_server_is_back(backend: Backend) {
    let port = free_port();
    let app = spawn_app_with(backend, |c| c.auth.smtp = Some(smtp(port))).await;
    // A confirmed account: with SMTP a sign-up would mail its own link first.
    insert_user_at(&app, "ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    // The attempt is counted when a worker claims the mail (status
    // `sending`), and the row is back to `pending` once it has failed.
    eventually("a failed attempt", || async {
        let row = only_mail(&app).await;
        row.attempts == 1 && row.status == "pending"
    })
    .await;
    let row = only_mail(&app).await;
    assert!(row.next_attempt_at > chrono::Utc::now() + chrono::Duration::seconds(30));
    // The server comes back on its port.
    let received = smtp_sink_on(TcpListener::bind(("127.0.0.1", port)).await.unwrap());
    eventually("the waiting mail to go out", || async {
        !received.lock().unwrap().is_empty()
    })
    .await;
    eventually("the row to be marked sent", || async {
        only_mail(&app).await.status == "sent"
    })
    .await;
    assert_eq!(received.lock().unwrap().len(), 1);
}

/// A worker that stopped mid-send (a crash) leaves its row `sending`. Once
/// its lease is over the mail is sent again, by one worker however many
/// look at once, and with the Message-ID of the first try, so the copy is
/// recognisable. A row whose lease still runs is left to its worker.
async fn a_mail_left_sending_by_a_stopped_worker_is_sent_once_more_with_the_same_message_id(
    backend: Backend,
) {
    let (port, received) = smtp_sink().await;
    let app = spawn_app_with(backend, |c| c.auth.smtp = Some(smtp(port))).await;
    // A confirmed account: with SMTP a sign-up would mail its own link first.
    insert_user_at(&app, "ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    eventually("the row to be marked sent", || async {
        only_mail(&app).await.status == "sent"
    })
    .await;
    let id = only_mail(&app).await.id;
    let message_id = format!("Message-ID: <{id}@prettyscore.test>");
    assert!(received.lock().unwrap()[0].contains(&message_id));

    // Crashed while sending, lease still running: nobody touches it.
    let now = chrono::Utc::now();
    set_mail(&app, |row| {
        row.status = Set("sending".into());
        row.sent_at = Set(None);
        row.locked_until = Set(Some(now + chrono::Duration::seconds(60)));
    })
    .await;
    let workers: Vec<Mailer> = (0..3)
        .map(|_| Mailer::from_config(app.db.clone(), Some(&smtp(port))).unwrap())
        .collect();
    for worker in &workers {
        assert_eq!(worker.deliver_due().await.unwrap(), 0);
    }
    assert_eq!(received.lock().unwrap().len(), 1);

    // The lease is over: three workers at once send it once.
    set_mail(&app, |row| {
        row.locked_until = Set(Some(chrono::Utc::now() - chrono::Duration::seconds(1)));
    })
    .await;
    let (a, b, c) = tokio::join!(
        workers[0].deliver_due(),
        workers[1].deliver_due(),
        workers[2].deliver_due()
    );
    // (The app's own worker may be the one that wins.)
    assert!(a.unwrap() + b.unwrap() + c.unwrap() <= 1);
    eventually("the row to be marked sent again", || async {
        only_mail(&app).await.status == "sent"
    })
    .await;
    let received = received.lock().unwrap();
    assert_eq!(received.len(), 2);
    assert!(received[1].contains(&message_id), "{}", received[1]);
}

/// Issue 43: a mail left `sending` by a crashed worker waited a 120 s lease
/// before another worker tried it. The lease is short now, and the worker
/// renews it while its send is in flight, so nobody else sends it meanwhile.
async fn a_send_in_flight_holds_a_short_lease_that_its_worker_renews(backend: Backend) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hold = Arc::new(tokio::sync::Notify::new());
    let received = smtp_sink_holding(listener, Some(hold.clone()));
    let app = spawn_app_with(backend, |c| c.auth.smtp = Some(smtp(port))).await;
    // A confirmed account: with SMTP a sign-up would mail its own link first.
    insert_user_at(&app, "ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    eventually("the app's worker to be sending the mail", || async {
        only_mail(&app).await.status == "sending"
    })
    .await;
    let claimed = only_mail(&app).await.locked_until.expect("a lease");
    assert!(
        claimed - chrono::Utc::now() <= chrono::Duration::seconds(15),
        "a crashed worker's mail waits at most 15 s, not until {claimed}"
    );
    // Renewed every 5 s: a generous bound for a busy machine.
    crate::harness::eventually_within(
        std::time::Duration::from_secs(30),
        "the lease to be renewed while the send is in flight",
        || async { only_mail(&app).await.locked_until > Some(claimed) },
    )
    .await;
    let other = Mailer::from_config(app.db.clone(), Some(&smtp(port))).unwrap();
    assert_eq!(other.deliver_due().await.unwrap(), 0, "the mail is taken");
    hold.notify_one();
    eventually("the mail to be marked sent", || async {
        only_mail(&app).await.status == "sent"
    })
    .await;
    assert_eq!(received.lock().unwrap().len(), 1);
}
