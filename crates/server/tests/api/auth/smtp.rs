//! Mail delivery by SMTP, against a local SMTP sink that speaks the protocol.

use std::sync::{Arc, Mutex};

use prettyscore_server::config::{SmtpConfig, SmtpSecurity};
use prettyscore_server::mail::outbox;
use sea_orm::EntityTrait;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use super::*;
use crate::helpers::eventually;

/// A minimal SMTP server that accepts every message and keeps its data.
async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let received = Arc::new(Mutex::new(Vec::new()));
    let store = Arc::clone(&received);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let store = Arc::clone(&store);
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
    (port, received)
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

#[tokio::test]
async fn with_smtp_configured_mail_is_delivered_and_marked_sent() {
    let (port, received) = smtp_sink().await;
    let app = spawn_with(crate::helpers::Backend::Sqlite, |c| {
        c.auth.smtp = Some(smtp(port))
    })
    .await;
    app.sign_up("ada@example.com").await;
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

#[tokio::test]
async fn an_unreachable_smtp_server_leaves_the_mail_pending_for_a_retry() {
    // A port nobody listens on.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let app = spawn_with(crate::helpers::Backend::Sqlite, |c| {
        c.auth.smtp = Some(smtp(port))
    })
    .await;
    app.sign_up("ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    eventually("a delivery attempt", || async {
        only_mail(&app).await.attempts > 0
    })
    .await;
    let row = only_mail(&app).await;
    assert_eq!(row.attempts, 1);
    assert_eq!(row.status, "pending");
    assert!(row.last_error.is_some());
    assert!(row.next_attempt_at > chrono::Utc::now());
}
