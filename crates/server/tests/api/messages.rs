//! Messages of approved contact requests: who may read, send and stream;
//! idempotent sends; a reconnect replays exactly the missed messages; a
//! message posted on one instance reaches a stream on another; read marks
//! and unread counts; a block closes the conversation.

use std::time::Duration;

use prettyscore_server::app::Application;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::billing::{Caller, assert_error, call, get, ok, post, sandbox_app, sign_up};
use crate::helpers::{Backend, TestApp, on_both_databases};
use crate::leaderboard::{State, insert_photo};
use crate::verification::admin;

const REQUESTS: &str = "/api/v1/contact-requests";

/// A contestant, a requester, and the id of the requester's paid request
/// (approved when `approve`).
async fn conversation(app: &TestApp, approve: bool) -> (Caller, Caller, String) {
    let star = sign_up(app, "star@example.com").await;
    let fan = sign_up(app, "fan@example.com").await;
    let photo = insert_photo(app, star.id, 9.0, chrono::Utc::now(), State::Listed).await;
    let (status, request) = post(
        app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": "Hello, I would love to talk!"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{request}");
    let opened = ok(post(
        app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request["id"]}}),
    )
    .await);
    let session = opened["sessionId"].as_str().unwrap();
    ok(post(
        app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &fan,
        json!({}),
    )
    .await);
    let id = request["id"].as_str().unwrap().to_owned();
    if approve {
        ok(post(app, &format!("{REQUESTS}/{id}/approve"), &star, json!({})).await);
    }
    (star, fan, id)
}

async fn send(
    app: &TestApp,
    caller: &Caller,
    id: &str,
    client_id: Uuid,
    content: &str,
) -> (StatusCode, Value) {
    post(
        app,
        &format!("{REQUESTS}/{id}/messages"),
        caller,
        json!({"id": client_id, "content": content}),
    )
    .await
}

async fn say(app: &TestApp, caller: &Caller, id: &str, content: &str) -> Value {
    let (status, body) = send(app, caller, id, Uuid::new_v4(), content).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

/// One server-sent event: its name, id and JSON data.
struct StreamEvent {
    name: Option<String>,
    id: Option<i64>,
    data: Option<Value>,
}

/// Opens the stream at `base` (after `last_event_id`) and hands each event
/// to `take` until it answers true; fails after 15 s.
async fn watch_stream(
    base: &str,
    token: &str,
    id: &str,
    last_event_id: Option<i64>,
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

/// The first `n` message events (`(seq, data)`) after `last_event_id`.
async fn read_events(
    base: &str,
    token: &str,
    id: &str,
    last_event_id: Option<i64>,
    n: usize,
) -> Vec<(i64, Value)> {
    let mut events = Vec::new();
    watch_stream(base, token, id, last_event_id, |event| {
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
        assert_error(
            &call(&app, method.clone(), path, None, Some(body.clone())).await,
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
        );
        for stranger in [&other, &admin] {
            let reply = call(
                &app,
                method.clone(),
                path,
                Some(&stranger.token),
                Some(body.clone()),
            )
            .await;
            assert_error(&reply, StatusCode::NOT_FOUND, "not_found");
            assert_eq!(reply.1["message"], "Contact request not found");
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
            assert_error(&reply, StatusCode::FORBIDDEN, "not_approved");
            assert_eq!(reply.1["message"], "This contact request is not approved");
        }
    }
    assert_error(
        &call(&app, Method::GET, &format!("{REQUESTS}/unread"), None, None).await,
        StatusCode::UNAUTHORIZED,
        "not_signed_in",
    );
    ok(post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({})).await);
    say(&app, &fan, &id, "Hello star!").await;
    say(&app, &star, &id, "Hi fan!").await;
    let page = ok(get(&app, &list, &fan).await);
    let mine: Vec<bool> = page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mine"].as_bool().unwrap())
        .collect();
    assert_eq!(mine, [true, false]);
    // The limits, in the spec's words.
    let empty = send(&app, &fan, &id, Uuid::new_v4(), "   ").await;
    assert_error(
        &empty,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    );
    assert_eq!(empty.1["message"], "Message cannot be empty");
    let long = send(&app, &fan, &id, Uuid::new_v4(), &"a".repeat(5001)).await;
    assert_eq!(
        long.1["message"],
        "Message must be less than 5000 characters"
    );
    assert_eq!(
        send(&app, &fan, &id, Uuid::new_v4(), &"a".repeat(5000))
            .await
            .0,
        StatusCode::CREATED
    );
    assert_error(
        &get(
            &app,
            &format!("{REQUESTS}/{}/messages", Uuid::now_v7()),
            &fan,
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    // A cursor out of range is a JSON error like any other.
    for path in [&list, &stream] {
        let reply = get(&app, &format!("{path}?after=9223372036854775808"), &fan).await;
        assert_error(&reply, StatusCode::BAD_REQUEST, "invalid_query");
    }
}

async fn a_resent_message_is_stored_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    let client_id = Uuid::new_v4();
    let first = send(&app, &fan, &id, client_id, "Are you there?").await;
    assert_eq!(first.0, StatusCode::CREATED);
    let again = send(&app, &fan, &id, client_id, "Are you there?").await;
    assert_eq!(again.0, StatusCode::OK);
    assert_eq!(again.1["seq"], first.1["seq"]);
    let page = ok(get(&app, &format!("{REQUESTS}/{id}/messages"), &star).await);
    assert_eq!(page["messages"].as_array().unwrap().len(), 1);
    // Another sender cannot reuse the id.
    assert_error(
        &send(&app, &star, &id, client_id, "mine now").await,
        StatusCode::CONFLICT,
        "conflict",
    );
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
    let events = read_events(&app.address, &star.token, &id, Some(seqs[1]), 2).await;
    let got: Vec<i64> = events.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(got, seqs[2..]);
    assert_eq!(events[0].1["content"], "message 3");
    assert_eq!(events[0].1["mine"], false);
    // From the start, and then a new one as it is stored.
    let reader = {
        let address = app.address.clone();
        let token = star.token.clone();
        let id = id.clone();
        tokio::spawn(async move { read_events(&address, &token, &id, None, 5).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
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
    let mut config = app.config.clone();
    config.data_dir = app._data_dir.path().join("second");
    let second = Application::build(config)
        .await
        .expect("the second instance builds");
    let second_address = second.url();
    let second_state = second.state().clone();
    tokio::spawn(second.run_until_stopped());
    let mut wakes = second_state.notifier.subscribe();

    let reader = {
        let token = star.token.clone();
        let id = id.clone();
        tokio::spawn(async move { read_events(&second_address, &token, &id, None, 1).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
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
        ok(get(&app, &unread, &star).await),
        json!({"awaitingAnswer": 1, "unreadMessages": 0})
    );
    ok(post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({})).await);
    say(&app, &fan, &id, "one").await;
    let last = say(&app, &fan, &id, "two").await["seq"].as_i64().unwrap();
    assert_eq!(
        ok(get(&app, &unread, &star).await),
        json!({"awaitingAnswer": 0, "unreadMessages": 2})
    );
    assert_eq!(ok(get(&app, &unread, &fan).await)["unreadMessages"], 0);
    let read = format!("{REQUESTS}/{id}/messages/read");
    assert_eq!(
        post(&app, &read, &star, json!({"seq": last})).await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(ok(get(&app, &unread, &star).await)["unreadMessages"], 0);
    // Never backwards, never past the newest.
    post(&app, &read, &star, json!({"seq": 0})).await;
    post(&app, &read, &star, json!({"seq": last + 1000})).await;
    let page = ok(get(&app, &format!("{REQUESTS}/{id}/messages"), &fan).await);
    assert_eq!(page["otherLastReadSeq"], last, "the sender sees 'Seen'");
    assert_eq!(page["myLastReadSeq"], 0);
}

async fn a_block_closes_the_conversation_for_both(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app, true).await;
    say(&app, &fan, &id, "before the block").await;
    let (status, _) = post(&app, &format!("{REQUESTS}/{id}/block"), &star, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    for party in [&star, &fan] {
        assert_error(
            &send(&app, party, &id, Uuid::new_v4(), "after").await,
            StatusCode::CONFLICT,
            "conversation_closed",
        );
        assert_error(
            &get(&app, &format!("{REQUESTS}/{id}/messages/stream"), party).await,
            StatusCode::CONFLICT,
            "conversation_closed",
        );
        // The history stays readable.
        assert_eq!(
            ok(get(&app, &format!("{REQUESTS}/{id}/messages"), party).await)["messages"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }
}

/// Opens the stream and waits (15 s at most) for `event: read` with `seq`.
async fn wait_for_read_mark(base: &str, token: &str, id: &str, seq: i64) {
    watch_stream(base, token, id, None, |event| {
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
        tokio::spawn(async move { wait_for_read_mark(&address, &token, &id, seq).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let read = format!("{REQUESTS}/{id}/messages/read");
    assert_eq!(
        post(&app, &read, &star, json!({"seq": seq})).await.0,
        StatusCode::NO_CONTENT
    );
    watcher.await.unwrap();
}
