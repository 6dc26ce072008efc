//! Messages of approved contact requests: who may read, send and stream;
//! idempotent sends; a reconnect replays exactly the missed messages; a
//! message posted on one instance reaches a stream on another; read marks
//! and unread counts; a block closes the conversation.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::{
    Backend, Caller, Reply, State, TestApp, admin, call, get, insert_photo, on_both_databases,
    pay_in_sandbox, post, sandbox_app, sign_up,
};

const REQUESTS: &str = "/api/v1/contact-requests";

/// A contestant, a requester, and the id of the requester's paid request
/// (approved when `approve`).
async fn conversation(app: &TestApp, approve: bool) -> (Caller, Caller, String) {
    let star = sign_up(app, "star@example.com").await;
    let fan = sign_up(app, "fan@example.com").await;
    let photo = insert_photo(app, star.id, 9.0, chrono::Utc::now(), State::Listed).await;
    let Reply {
        status,
        body: request,
        ..
    } = post(
        app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": "Hello, I would love to talk!"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{request}");
    let opened = post(
        app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request["id"]}}),
    )
    .await.ok();
    let session = opened["sessionId"].as_str().unwrap();
    pay_in_sandbox(app, &fan, session).await;
    let id = request["id"].as_str().unwrap().to_owned();
    if approve {
        post(app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
            .await
            .ok();
    }
    (star, fan, id)
}

async fn send(app: &TestApp, caller: &Caller, id: &str, client_id: Uuid, content: &str) -> Reply {
    post(
        app,
        &format!("{REQUESTS}/{id}/messages"),
        caller,
        json!({"id": client_id, "content": content}),
    )
    .await
}

async fn say(app: &TestApp, caller: &Caller, id: &str, content: &str) -> Value {
    let Reply { status, body, .. } = send(app, caller, id, Uuid::new_v4(), content).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

/// One server-sent event: its name, id and JSON data.
struct StreamEvent {
    name: Option<String>,
    id: Option<i64>,
    data: Option<Value>,
}

/// Said by a stream reader once its stream's first event has arrived.
type Opened = tokio::sync::oneshot::Sender<()>;

/// Runs `reader` in a task of its own, handing it the [`Opened`] to say
/// when its stream's first event (the read mark every stream opens with)
/// has arrived, and returns once it has: what the test does next reaches
/// the open stream live, with no time guessed for it to open.
async fn open_stream<T, Fut>(reader: impl FnOnce(Opened) -> Fut) -> tokio::task::JoinHandle<T>
where
    Fut: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let (opened, is_open) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(reader(opened));
    is_open.await.expect("the stream opens");
    task
}

/// Opens the stream at `base` (after `last_event_id`), says `opened` at its
/// first event, and hands each event to `take` until it answers true; fails
/// after 15 s.
async fn watch_stream(
    base: &str,
    token: &str,
    id: &str,
    last_event_id: Option<i64>,
    mut opened: Option<Opened>,
    mut take: impl FnMut(StreamEvent) -> bool,
) {
    let mut request = reqwest::Client::new()
        .get(format!("{base}{REQUESTS}/{id}/messages/stream"))
        .bearer_auth(token);
    if let Some(last) = last_event_id {
        request = request.header("Last-Event-ID", last.to_string());
    }
    let mut response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut buffer = String::new();
    tokio::time::timeout(Duration::from_secs(15), async {
        loop {
            let chunk = response
                .chunk()
                .await
                .unwrap()
                .expect("the stream stays open");
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                if let Some(opened) = opened.take() {
                    let _ = opened.send(());
                }
                let mut event = StreamEvent {
                    name: None,
                    id: None,
                    data: None,
                };
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("event:") {
                        event.name = Some(value.trim().to_owned());
                    } else if let Some(value) = line.strip_prefix("id:") {
                        event.id = value.trim().parse().ok();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        event.data = serde_json::from_str(value.trim()).ok();
                    }
                }
                if take(event) {
                    return;
                }
            }
        }
    })
    .await
    .expect("the events arrive");
}

/// The first `n` message events (`(seq, data)`) after `last_event_id`;
/// says `opened` at the stream's first event.
async fn read_events(
    base: &str,
    token: &str,
    id: &str,
    last_event_id: Option<i64>,
    n: usize,
    opened: Option<Opened>,
) -> Vec<(i64, Value)> {
    let mut events = Vec::new();
    watch_stream(base, token, id, last_event_id, opened, |event| {
        if event.name.as_deref() == Some("message") {
            events.push((
                event.id.expect("a message has an id"),
                event.data.expect("data"),
            ));
        }
        events.len() >= n
    })
    .await;
    events
}

on_both_databases!(
    only_the_parties_of_an_approved_request_talk,
    a_resent_message_is_stored_once,
    a_reconnect_replays_exactly_the_missed_messages,
    a_message_posted_on_one_instance_reaches_a_stream_on_another,
    concurrent_senders_on_two_instances_reach_every_stream_without_a_gap,
    a_stream_ends_when_its_session_signs_out,
    a_password_change_ends_the_streams_of_the_other_sessions,
    the_users_event_stream_carries_their_own_events_only,
    the_users_event_stream_resumes_after_the_last_event_id,
    a_users_eleventh_stream_closes_their_oldest,
    read_marks_clear_the_unread_count,
    the_stream_says_when_the_other_party_has_read,
    a_block_closes_the_conversation_for_both
);

async fn only_the_parties_of_an_approved_request_talk(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, false).await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = admin(&app).await;
    let list = format!("{REQUESTS}/{id}/messages");
    let stream = format!("{list}/stream");
    let read = format!("{list}/read");
    let body = json!({"id": Uuid::new_v4(), "content": "hi", "seq": 0});
    for (method, path) in [
        (Method::GET, &list),
        (Method::POST, &list),
        (Method::GET, &stream),
        (Method::POST, &read),
    ] {
        call(&app, method.clone(), path, None, Some(body.clone()))
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
        for stranger in [&other, &admin] {
            let reply = call(
                &app,
                method.clone(),
                path,
                Some(&stranger.token),
                Some(body.clone()),
            )
            .await;
            reply.assert_error(StatusCode::NOT_FOUND, "not_found");
            assert_eq!(reply.body["message"], "Contact request not found");
        }
        // Paid but not approved yet: the parties are told so.
        for party in [&star, &fan] {
            let reply = call(
                &app,
                method.clone(),
                path,
                Some(&party.token),
                Some(json!({"id": Uuid::new_v4(), "content": "hi", "seq": 0})),
            )
            .await;
            reply.assert_error(StatusCode::FORBIDDEN, "not_approved");
            assert_eq!(
                reply.body["message"],
                "This contact request is not approved"
            );
        }
    }
    call(&app, Method::GET, &format!("{REQUESTS}/unread"), None, None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
        .await
        .ok();
    say(&app, &fan, &id, "Hello star!").await;
    say(&app, &star, &id, "Hi fan!").await;
    let page = get(&app, &list, &fan).await.ok();
    let mine: Vec<bool> = page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mine"].as_bool().unwrap())
        .collect();
    assert_eq!(mine, [true, false]);
    // The limits, in the spec's words.
    let empty = send(&app, &fan, &id, Uuid::new_v4(), "   ").await;
    empty.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(empty.body["message"], "Message cannot be empty");
    let long = send(&app, &fan, &id, Uuid::new_v4(), &"a".repeat(5001)).await;
    assert_eq!(
        long.body["message"],
        "Message must be less than 5000 characters"
    );
    assert_eq!(
        send(&app, &fan, &id, Uuid::new_v4(), &"a".repeat(5000))
            .await
            .status,
        StatusCode::CREATED
    );
    get(
        &app,
        &format!("{REQUESTS}/{}/messages", Uuid::now_v7()),
        &fan,
    )
    .await
    .assert_error(StatusCode::NOT_FOUND, "not_found");
    // A cursor out of range is a JSON error like any other.
    for path in [&list, &stream] {
        let reply = get(&app, &format!("{path}?after=9223372036854775808"), &fan).await;
        reply.assert_error(StatusCode::BAD_REQUEST, "invalid_query");
    }
}

async fn a_resent_message_is_stored_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let client_id = Uuid::new_v4();
    let first = send(&app, &fan, &id, client_id, "Are you there?").await;
    assert_eq!(first.status, StatusCode::CREATED);
    let again = send(&app, &fan, &id, client_id, "Are you there?").await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.body["seq"], first.body["seq"]);
    let page = get(&app, &format!("{REQUESTS}/{id}/messages"), &star)
        .await
        .ok();
    assert_eq!(page["messages"].as_array().unwrap().len(), 1);
    // Another sender cannot reuse the id.
    send(&app, &star, &id, client_id, "mine now")
        .await
        .assert_error(StatusCode::CONFLICT, "conflict");
}

async fn a_reconnect_replays_exactly_the_missed_messages(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let mut seqs = Vec::new();
    for n in 1..=4 {
        seqs.push(
            say(&app, &fan, &id, &format!("message {n}")).await["seq"]
                .as_i64()
                .unwrap(),
        );
    }
    // Seen up to the second: the third and fourth, in order, once.
    let events = read_events(&app.address, &star.token, &id, Some(seqs[1]), 2, None).await;
    let got: Vec<i64> = events.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(got, seqs[2..]);
    assert_eq!(events[0].1["content"], "message 3");
    assert_eq!(events[0].1["mine"], false);
    // From the start, and then a new one as it is stored (once the stream
    // is open).
    let reader = {
        let address = app.address.clone();
        let token = star.token.clone();
        let id = id.clone();
        open_stream(move |opened| async move {
            read_events(&address, &token, &id, None, 5, Some(opened)).await
        })
        .await
    };
    let fifth = say(&app, &fan, &id, "message 5").await["seq"]
        .as_i64()
        .unwrap();
    let all: Vec<i64> = reader.await.unwrap().iter().map(|(seq, _)| *seq).collect();
    let mut expected = seqs.clone();
    expected.push(fifth);
    assert_eq!(all, expected, "every message once, in order");
}

async fn a_message_posted_on_one_instance_reaches_a_stream_on_another(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    // A second instance on the same database.
    let second = app.second_instance().await;
    let mut wakes = second.state.notifier.subscribe();

    let reader = {
        let address = second.address.clone();
        let token = star.token.clone();
        let id = id.clone();
        open_stream(move |opened| async move {
            read_events(&address, &token, &id, None, 1, Some(opened)).await
        })
        .await
    };
    let sent = say(&app, &fan, &id, "across instances").await;
    let events = reader.await.unwrap();
    assert_eq!(events[0].0, sent["seq"].as_i64().unwrap());
    assert_eq!(events[0].1["content"], "across instances");
    if backend == Backend::Postgres {
        // The wake-up itself crossed over (NOTIFY), not only the catch-up read.
        let wake = tokio::time::timeout(Duration::from_secs(10), wakes.recv())
            .await
            .expect("a wake-up from the other instance")
            .unwrap();
        assert_eq!(wake.topic.to_string(), id);
        assert_eq!(wake.seq, sent["seq"].as_i64().unwrap());
    }
}

async fn read_marks_clear_the_unread_count(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, false).await;
    let unread = format!("{REQUESTS}/unread");
    assert_eq!(
        get(&app, &unread, &star).await.ok(),
        json!({"awaitingAnswer": 1, "unreadMessages": 0})
    );
    post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
        .await
        .ok();
    say(&app, &fan, &id, "one").await;
    let last = say(&app, &fan, &id, "two").await["seq"].as_i64().unwrap();
    assert_eq!(
        get(&app, &unread, &star).await.ok(),
        json!({"awaitingAnswer": 0, "unreadMessages": 2})
    );
    assert_eq!(get(&app, &unread, &fan).await.ok()["unreadMessages"], 0);
    let read = format!("{REQUESTS}/{id}/messages/read");
    assert_eq!(
        post(&app, &read, &star, json!({"seq": last})).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(get(&app, &unread, &star).await.ok()["unreadMessages"], 0);
    // Never backwards, never past the newest.
    post(&app, &read, &star, json!({"seq": 0})).await;
    post(&app, &read, &star, json!({"seq": last + 1000})).await;
    let page = get(&app, &format!("{REQUESTS}/{id}/messages"), &fan)
        .await
        .ok();
    assert_eq!(page["otherLastReadSeq"], last, "the sender sees 'Seen'");
    assert_eq!(page["myLastReadSeq"], 0);
}

async fn a_block_closes_the_conversation_for_both(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    say(&app, &fan, &id, "before the block").await;
    let Reply { status, .. } =
        post(&app, &format!("{REQUESTS}/{id}/block"), &star, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    for party in [&star, &fan] {
        send(&app, party, &id, Uuid::new_v4(), "after")
            .await
            .assert_error(StatusCode::CONFLICT, "conversation_closed");
        get(&app, &format!("{REQUESTS}/{id}/messages/stream"), party)
            .await
            .assert_error(StatusCode::CONFLICT, "conversation_closed");
        // The history stays readable.
        assert_eq!(
            get(&app, &format!("{REQUESTS}/{id}/messages"), party)
                .await
                .ok()["messages"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }
}

/// Opens the stream, says `opened` at its first event, and waits (15 s at
/// most) for `event: read` with `seq`.
async fn wait_for_read_mark(base: &str, token: &str, id: &str, seq: i64, opened: Opened) {
    watch_stream(base, token, id, None, Some(opened), |event| {
        if event.name.as_deref() != Some("read") {
            return false;
        }
        assert_eq!(event.id, None, "a read mark moves no cursor");
        event.data.and_then(|data| data["seq"].as_i64()) == Some(seq)
    })
    .await;
}

async fn the_stream_says_when_the_other_party_has_read(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let seq = say(&app, &fan, &id, "Did you see this?").await["seq"]
        .as_i64()
        .unwrap();
    let watcher = {
        let address = app.address.clone();
        let token = fan.token.clone();
        let id = id.clone();
        open_stream(move |opened| async move {
            wait_for_read_mark(&address, &token, &id, seq, opened).await
        })
        .await
    };
    let read = format!("{REQUESTS}/{id}/messages/read");
    assert_eq!(
        post(&app, &read, &star, json!({"seq": seq})).await.status,
        StatusCode::NO_CONTENT
    );
    watcher.await.unwrap();
}

/// Opens the stream at `base` from the start, says `ready` once its first
/// event (the read mark every stream opens with) has arrived, and collects
/// the first `n` messages as `(seq, id)`. The 120 s bound only stops a
/// stream that would never deliver them from hanging the test.
async fn collect_messages(
    base: String,
    token: String,
    id: String,
    n: usize,
    ready: tokio::sync::oneshot::Sender<()>,
) -> Vec<(i64, String)> {
    let mut response = reqwest::Client::new()
        .get(format!("{base}{REQUESTS}/{id}/messages/stream"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut ready = Some(ready);
    let mut buffer = String::new();
    let mut messages = Vec::new();
    tokio::time::timeout(Duration::from_secs(120), async {
        while messages.len() < n {
            let chunk = response
                .chunk()
                .await
                .unwrap()
                .expect("the stream stays open");
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                if let Some(ready) = ready.take() {
                    let _ = ready.send(());
                }
                if !block.lines().any(|line| line == "event: message") {
                    continue;
                }
                let data = block
                    .lines()
                    .find_map(|line| line.strip_prefix("data:"))
                    .expect("a message has data");
                let data: Value = serde_json::from_str(data.trim()).unwrap();
                messages.push((
                    data["seq"].as_i64().unwrap(),
                    data["id"].as_str().unwrap().to_owned(),
                ));
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the stream delivered {} of {n} messages", messages.len()));
    messages
}

/// Issue 25: 8 senders x 40 messages into one conversation through two
/// instances; each of four streams (two per instance) open before the
/// first send receives all 320, in order, each once. Without the
/// conversation lock a stream moved past a `seq` still to commit and lost
/// 48-55 of them on PostgreSQL.
async fn concurrent_senders_on_two_instances_reach_every_stream_without_a_gap(backend: Backend) {
    const SENDERS: usize = 8;
    const EACH: usize = 40;
    const TOTAL: usize = SENDERS * EACH;
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let second = app.second_instance().await;
    let instances = [app.address.clone(), second.address.clone()];

    let mut streams = Vec::new();
    let mut opened = Vec::new();
    for (n, base) in instances.iter().chain(instances.iter()).enumerate() {
        let token = if n % 2 == 0 { &star } else { &fan }.token.clone();
        let (ready, is_ready) = tokio::sync::oneshot::channel();
        streams.push(tokio::spawn(collect_messages(
            base.clone(),
            token,
            id.clone(),
            TOTAL,
            ready,
        )));
        opened.push(is_ready);
    }
    for is_ready in opened {
        is_ready.await.expect("every stream opens");
    }

    let client = reqwest::Client::new();
    let senders: Vec<_> = (0..SENDERS)
        .map(|n| {
            let url = format!("{}{REQUESTS}/{id}/messages", instances[n % 2]);
            let token = if n % 4 < 2 { &star } else { &fan }.token.clone();
            let client = client.clone();
            tokio::spawn(async move {
                let mut sent = Vec::new();
                for k in 0..EACH {
                    let client_id = Uuid::new_v4();
                    let reply = client
                        .post(&url)
                        .bearer_auth(&token)
                        .json(&json!({"id": client_id, "content": format!("sender {n}, message {k}")}))
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(reply.status(), StatusCode::CREATED);
                    sent.push(client_id.to_string());
                }
                sent
            })
        })
        .collect();
    let mut sent = std::collections::BTreeSet::new();
    for sender in senders {
        sent.extend(sender.await.unwrap());
    }
    assert_eq!(sent.len(), TOTAL, "every send acknowledged");

    for (n, stream) in streams.into_iter().enumerate() {
        let got = stream.await.unwrap();
        assert!(
            got.windows(2).all(|pair| pair[0].0 < pair[1].0),
            "stream {n} delivers in order, each once"
        );
        let ids: std::collections::BTreeSet<String> = got.into_iter().map(|(_, id)| id).collect();
        assert_eq!(ids, sent, "stream {n} delivers every acknowledged message");
    }
}

/// Opens the stream with `token`, says `ready` at its first event, and
/// reads until the server ends it; the message events it delivered.
async fn read_until_the_end(
    base: String,
    token: String,
    id: String,
    ready: tokio::sync::oneshot::Sender<()>,
) -> Vec<String> {
    let mut response = reqwest::Client::new()
        .get(format!("{base}{REQUESTS}/{id}/messages/stream"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut ready = Some(ready);
    let mut text = String::new();
    // Only a guard against a stream that never ends.
    tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(chunk) = response.chunk().await.unwrap() {
            text.push_str(std::str::from_utf8(&chunk).unwrap());
            if text.contains("\n\n")
                && let Some(ready) = ready.take()
            {
                let _ = ready.send(());
            }
        }
    })
    .await
    .expect("the stream ends");
    text.split("\n\n")
        .filter(|block| block.lines().any(|line| line == "event: message"))
        .map(str::to_owned)
        .collect()
}

/// A stream of `session` (a token of the star's) open on the conversation
/// `id`; `end` ends that session; then the fan sends a message. The
/// stream must end without delivering it, while the star's stream on
/// `keeper` (a session that lives on) does deliver it.
async fn assert_the_stream_ends_with_its_session<F, Fut>(
    app: &TestApp,
    fan: &Caller,
    id: &str,
    session: &str,
    keeper: &str,
    end: F,
) where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (ready, is_ready) = tokio::sync::oneshot::channel();
    let ended = tokio::spawn(read_until_the_end(
        app.address.clone(),
        session.to_owned(),
        id.to_owned(),
        ready,
    ));
    let (kept_ready, kept_is_ready) = tokio::sync::oneshot::channel();
    let kept = tokio::spawn(collect_messages(
        app.address.clone(),
        keeper.to_owned(),
        id.to_owned(),
        1,
        kept_ready,
    ));
    is_ready.await.expect("the stream opens");
    kept_is_ready.await.expect("the other stream opens");
    end().await;
    let sent = say(app, fan, id, "private, after the sign-out").await;
    let kept = kept.await.unwrap();
    assert_eq!(
        kept[0].1,
        sent["id"].as_str().unwrap(),
        "a live session's stream goes on"
    );
    let delivered = ended.await.unwrap();
    assert!(
        delivered.is_empty(),
        "a signed-out stream delivered {delivered:?}"
    );
}

/// Issue 25 item 15: after a sign-out an open stream stops delivering.
async fn a_stream_ends_when_its_session_signs_out(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let other_session = app
        .sign_in("star@example.com", crate::harness::PASSWORD)
        .await;
    let other_session = crate::harness::access(&other_session.body).to_owned();
    let session = other_session.clone();
    assert_the_stream_ends_with_its_session(
        &app,
        &fan,
        &id,
        &other_session,
        &star.token,
        || async {
            assert_eq!(
                app.post_as(&session, "/logout?scope=local", json!({}))
                    .await
                    .status,
                StatusCode::NO_CONTENT
            );
        },
    )
    .await;
}

/// Issue 25 item 15: a password change signs out every other session, and
/// their open streams stop delivering.
async fn a_password_change_ends_the_streams_of_the_other_sessions(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let other_session = app
        .sign_in("star@example.com", crate::harness::PASSWORD)
        .await;
    let other_session = crate::harness::access(&other_session.body).to_owned();
    assert_the_stream_ends_with_its_session(
        &app,
        &fan,
        &id,
        &other_session,
        &star.token,
        || async {
            app.put_as(&star.token, "/user", json!({"password": "a-new-password"}))
                .await
                .assert_ok();
        },
    )
    .await;
}

const EVENTS: &str = "/api/v1/events/stream";

/// The caller's own event stream at `base`, read in the background: each
/// event as `(name, id, data)` on the channel, which closes when the
/// server ends the stream.
async fn user_events(
    base: &str,
    token: &str,
    last_event_id: Option<i64>,
) -> tokio::sync::mpsc::UnboundedReceiver<(String, Option<i64>, Value)> {
    let mut request = reqwest::Client::new()
        .get(format!("{base}{EVENTS}"))
        .bearer_auth(token);
    if let Some(last) = last_event_id {
        request = request.header("Last-Event-ID", last.to_string());
    }
    let mut response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let (events, received) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut buffer = String::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let (mut name, mut id, mut data) = (None, None, Value::Null);
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("event:") {
                        name = Some(value.trim().to_owned());
                    } else if let Some(value) = line.strip_prefix("id:") {
                        id = value.trim().parse().ok();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data = serde_json::from_str(value.trim()).unwrap_or(Value::Null);
                    }
                }
                if let Some(name) = name
                    && events.send((name, id, data)).is_err()
                {
                    return;
                }
            }
        }
    });
    received
}

/// The next event named `name` (skipping others); fails if the stream ends
/// first. The 30 s bound only stops a test that would hang.
async fn next_named(
    events: &mut tokio::sync::mpsc::UnboundedReceiver<(String, Option<i64>, Value)>,
    name: &str,
) -> (Option<i64>, Value) {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let (got, id, data) = events.recv().await.expect("the stream stays open");
            if got == name {
                return (id, data);
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no `{name}` event"))
}

/// Reads events until each of `wanted` (a name, and fields its data must
/// carry) has come, in any order, and returns them (id and data) in the
/// order of `wanted`; fails if the stream ends first. The 30 s bound only
/// stops a test that would hang.
async fn next_all(
    events: &mut tokio::sync::mpsc::UnboundedReceiver<(String, Option<i64>, Value)>,
    wanted: &[(&str, Value)],
) -> Vec<(Option<i64>, Value)> {
    let carries = |want: &Value, data: &Value| {
        want.as_object()
            .is_some_and(|fields| fields.iter().all(|(key, value)| &data[key] == value))
    };
    let mut found: Vec<Option<(Option<i64>, Value)>> = vec![None; wanted.len()];
    let waited = tokio::time::timeout(Duration::from_secs(30), async {
        while found.iter().any(Option::is_none) {
            let (name, id, data) = events.recv().await.expect("the stream stays open");
            let slot = wanted
                .iter()
                .zip(&found)
                .position(|((want_name, want), seen)| {
                    seen.is_none() && name == *want_name && carries(want, &data)
                });
            if let Some(slot) = slot {
                found[slot] = Some((id, data));
            }
        }
    })
    .await;
    let missing: Vec<_> = wanted
        .iter()
        .zip(&found)
        .filter(|(_, seen)| seen.is_none())
        .map(|(want, _)| want)
        .collect();
    assert!(waited.is_ok(), "still waiting for {missing:?}");
    found.into_iter().flatten().collect()
}

/// Issue 24 item 5 and issue 23 item 4: a request arriving, its approval,
/// messages and the unread counts reach the parties' own streams at once;
/// a stranger's stream never carries them; anonymous callers get 401.
async fn the_users_event_stream_carries_their_own_events_only(backend: Backend) {
    let app = sandbox_app(backend).await;
    call(&app, Method::GET, EVENTS, None, None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let star = sign_up(&app, "star@example.com").await;
    let stranger = sign_up(&app, "stranger@example.com").await;
    let mut star_events = user_events(&app.address, &star.token, None).await;
    let mut stranger_events = user_events(&app.address, &stranger.token, None).await;
    assert_eq!(
        next_named(&mut star_events, "unread").await.1,
        json!({"awaitingAnswer": 0, "unreadMessages": 0})
    );
    next_named(&mut stranger_events, "unread").await;

    // A paid request arrives for the star: the badge counts it, and the
    // request is announced.
    let fan = sign_up(&app, "fan@example.com").await;
    let mut fan_events = user_events(&app.address, &fan.token, None).await;
    next_named(&mut fan_events, "unread").await;
    let photo = insert_photo(&app, star.id, 9.0, chrono::Utc::now(), State::Listed).await;
    let Reply { body: request, .. } = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": "Hello, I would love to talk!"}),
    )
    .await;
    let id = request["id"].as_str().unwrap().to_owned();
    let opened = post(
        &app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": id}}),
    )
    .await.ok();
    let session = opened["sessionId"].as_str().unwrap();
    post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &fan,
        json!({}),
    )
    .await
    .ok();
    // Two notifications, in either order.
    let seen = next_all(
        &mut star_events,
        &[
            ("request", json!({"id": id, "paid": true})),
            ("unread", json!({"awaitingAnswer": 1, "unreadMessages": 0})),
        ],
    )
    .await;
    assert_eq!(
        seen[0].1,
        json!({"id": id, "role": "contestant", "status": "pending", "paid": true, "closed": false})
    );

    // Approved: both parties hear it, and the star's badge drops (two
    // notifications, which may arrive in either order).
    post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
        .await
        .ok();
    next_all(
        &mut star_events,
        &[
            (
                "request",
                json!({"status": "approved", "role": "contestant"}),
            ),
            ("unread", json!({"awaitingAnswer": 0, "unreadMessages": 0})),
        ],
    )
    .await;
    next_all(
        &mut fan_events,
        &[(
            "request",
            json!({"status": "approved", "role": "requester"}),
        )],
    )
    .await;

    // A message: both parties' streams, with its seq as the event id; the
    // receiver's badge counts it.
    let sent = say(&app, &fan, &id, "Hello star!").await;
    let seq = sent["seq"].as_i64().unwrap();
    // The message and the badge are two notifications, in either order.
    let seen = next_all(
        &mut star_events,
        &[
            ("message", json!({"contactRequestId": id, "mine": false})),
            ("unread", json!({"awaitingAnswer": 0, "unreadMessages": 1})),
        ],
    )
    .await;
    let (event_id, message) = &seen[0];
    assert_eq!(*event_id, Some(seq));
    assert!(message.get("content").is_none(), "ids only: {message}");
    let (_, mine) = next_named(&mut fan_events, "message").await;
    assert_eq!(mine["mine"], true);

    // The stranger's stream carried nothing of it: ended by signing out,
    // everything it delivered was its first badge count.
    assert_eq!(
        app.post_as(&stranger.token, "/logout", json!({}))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(event) = stranger_events.recv().await {
            rest.push(event);
        }
    })
    .await
    .expect("a signed-out stream ends");
    assert!(
        rest.is_empty(),
        "a stranger's stream carries nobody else's events: {rest:?}"
    );
}

/// Issue 24 item 5: after a reconnect with `Last-Event-ID` the stream sends
/// exactly the messages after it, in order; a fresh stream starts from now.
async fn the_users_event_stream_resumes_after_the_last_event_id(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let mut seqs = Vec::new();
    for n in 1..=3 {
        seqs.push(
            say(&app, &fan, &id, &format!("message {n}")).await["seq"]
                .as_i64()
                .unwrap(),
        );
    }
    let mut resumed = user_events(&app.address, &star.token, Some(seqs[0])).await;
    for seq in &seqs[1..] {
        let (event_id, message) = next_named(&mut resumed, "message").await;
        assert_eq!(event_id, Some(*seq));
        assert_eq!(message["seq"], *seq);
    }
    // A fresh stream: no history, the counts, then what comes next.
    let mut fresh = user_events(&app.address, &star.token, None).await;
    assert_eq!(
        next_named(&mut fresh, "unread").await.1["unreadMessages"],
        3
    );
    let fourth = say(&app, &fan, &id, "message 4").await["seq"]
        .as_i64()
        .unwrap();
    assert_eq!(next_named(&mut fresh, "message").await.0, Some(fourth));
    assert_eq!(next_named(&mut resumed, "message").await.0, Some(fourth));
}

/// Issue 25 item 9: one user holds at most 10 streams open (conversation
/// and own-event streams together); the 11th closes their oldest, and the
/// others go on.
async fn a_users_eleventh_stream_closes_their_oldest(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let (ready, is_ready) = tokio::sync::oneshot::channel();
    let oldest = tokio::spawn(read_until_the_end(
        app.address.clone(),
        star.token.clone(),
        id.clone(),
        ready,
    ));
    is_ready.await.expect("the oldest stream opens");
    let mut newer = Vec::new();
    for _ in 0..9 {
        let mut events = user_events(&app.address, &star.token, None).await;
        next_named(&mut events, "unread").await;
        newer.push(events);
    }
    assert_eq!(app.state.notifier.open_streams(star.id), 10);
    // The fan's streams are theirs: not counted against the star.
    let mut fans = user_events(&app.address, &fan.token, None).await;
    next_named(&mut fans, "unread").await;
    let (ready, is_ready) = tokio::sync::oneshot::channel();
    let newest = tokio::spawn(collect_messages(
        app.address.clone(),
        star.token.clone(),
        id.clone(),
        1,
        ready,
    ));
    is_ready.await.expect("the 11th stream opens");
    let delivered = tokio::time::timeout(Duration::from_secs(30), oldest)
        .await
        .expect("the oldest stream was closed")
        .unwrap();
    assert!(delivered.is_empty());
    assert_eq!(app.state.notifier.open_streams(star.id), 10);
    let sent = say(&app, &fan, &id, "still here").await;
    assert_eq!(newest.await.unwrap()[0].1, sent["id"].as_str().unwrap());
    for events in &mut newer {
        assert_eq!(next_named(events, "message").await.0, sent["seq"].as_i64());
    }
    assert_eq!(
        next_named(&mut fans, "message").await.0,
        sent["seq"].as_i64()
    );
}
