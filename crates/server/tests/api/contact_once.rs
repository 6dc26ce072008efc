//! Issue 23 for contact requests: no second request (and no second fee)
//! while one with the same contestant is waiting or its chat is open, the
//! Contact button told which; the contestant mailed when the hold is
//! confirmed and reminded once 24 hours before it expires (two instances
//! included), and the requester mailed on approval. Mail goes through the
//! durable outbox.

use crate::harness::{
    Backend, Caller, Reply, State, TestApp, call, count, get, insert_photo, on_both_databases,
    pay_in_sandbox, post, sandbox_app, sign_up, sign_up_named_caller, spawn_app_with, sql,
};
use chrono::{Duration, Utc};
use prettyscore_server::contact::mail::remind_expiring;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

on_both_databases!(
    a_second_request_while_one_waits_or_chats_is_refused_and_contact_says_which,
    a_page_of_entries_says_for_each_whether_contact_opens_a_chat,
    the_contestant_is_mailed_once_when_paid_and_the_requester_on_approval,
    the_contestant_is_reminded_once_a_day_before_the_hold_expires_across_instances
);

const REQUESTS: &str = "/api/v1/contact-requests";
const MESSAGE: &str = "Hello! I love your photo, let's talk.";

pub(crate) async fn entry(app: &TestApp, owner: Uuid) -> Uuid {
    insert_photo(
        app,
        owner,
        8.5,
        Utc::now() - Duration::hours(1),
        State::Listed,
    )
    .await
}

/// A request from `requester` to the entry, paid in the sandbox (the hold is
/// confirmed); the request as the requester sees it.
pub(crate) async fn paid_request(app: &TestApp, requester: &Caller, photo: Uuid) -> Value {
    let Reply {
        status,
        body: request,
        ..
    } = post(
        app,
        REQUESTS,
        requester,
        json!({"photoId": photo, "message": MESSAGE}),
    )
    .await;
    assert!(status.is_success(), "{status} {request}");
    let opened = post(
        app,
        "/functions/v1/create-checkout",
        requester,
        json!({"userId": requester.id, "type": "contact_request",
               "metadata": {"contact_request_id": request["id"]}}),
    )
    .await
    .ok();
    let session = opened["sessionId"].as_str().unwrap();
    pay_in_sandbox(app, requester, session).await;
    request
}

fn with(photo: Uuid) -> String {
    format!("{REQUESTS}/with/{photo}")
}

fn with_entries(photos: &[Uuid]) -> String {
    let ids: Vec<String> = photos.iter().map(Uuid::to_string).collect();
    format!("{REQUESTS}/with?photoIds={}", ids.join(","))
}

/// Each entry's state from `GET /contact-requests/with?photoIds=`, in order.
async fn states(app: &TestApp, caller: &Caller, photos: &[Uuid]) -> Vec<(String, Value)> {
    let body = get(app, &with_entries(photos), caller).await.ok();
    body.as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["photoId"].as_str().unwrap().to_owned(),
                entry["state"].clone(),
            )
        })
        .collect()
}

/// The outbox rows of `kind`: (to, subject, body).
pub(crate) async fn mails(app: &TestApp, kind: &str) -> Vec<(String, String, String)> {
    use prettyscore_server::mail::outbox;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    outbox::Entity::find()
        .filter(outbox::Column::Kind.eq(kind))
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.to_address, row.subject, row.body_text))
        .collect()
}

async fn a_second_request_while_one_waits_or_chats_is_refused_and_contact_says_which(
    backend: Backend,
) {
    let app = sandbox_app(backend).await;
    let star = sign_up(&app, "star@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = sign_up_named_caller(&app, "admin@example.com", "Boss").await;
    prettyscore_server::admin::roles::grant_admin(&app.db, "admin@example.com")
        .await
        .unwrap();
    let photo = entry(&app, star.id).await;

    // Anonymous: 401; an unknown entry: 404.
    let anonymous = call(&app, Method::GET, &with(photo), None, None).await;
    anonymous.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let unknown = get(&app, &with(Uuid::new_v4()), &fan).await;
    unknown.assert_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(get(&app, &with(photo), &fan).await.ok()["state"], "none");

    let request = paid_request(&app, &fan, photo).await;
    let id = request["id"].as_str().unwrap();
    let waiting = get(&app, &with(photo), &fan).await.ok();
    assert_eq!(waiting["state"], "waiting");
    assert_eq!(waiting["requestId"], id);
    assert!(waiting["expiresAt"].is_string(), "{waiting}");
    let again = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": MESSAGE}),
    )
    .await;
    again.assert_error(StatusCode::CONFLICT, "request_open");

    // Each caller sees only their own request: the owner of the entry,
    // another user and an admin have none with it.
    for caller in [&star, &other, &admin] {
        let theirs = get(&app, &with(photo), caller).await.ok();
        assert_eq!(theirs["state"], "none", "{theirs}");
        assert_eq!(theirs["requestId"], Value::Null);
    }

    post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
        .await
        .ok();
    let chatting = get(&app, &with(photo), &fan).await.ok();
    assert_eq!(chatting["state"], "chatting");
    assert_eq!(chatting["requestId"], id);
    // While the chat is open: no new request, so no second $1000 hold.
    let again = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": MESSAGE}),
    )
    .await;
    again.assert_error(StatusCode::CONFLICT, "request_open");
    assert!(
        again.body["message"]
            .as_str()
            .unwrap()
            .contains("already chatting"),
        "{}",
        again.body
    );
    assert_eq!(count(&app, "contact_requests").await, 1);
    assert_eq!(count(&app, "payments").await, 1);

    // Once the conversation is closed, a new request may be sent.
    sql(
        &app,
        "UPDATE contact_requests SET closed_at = $1 WHERE id = $2",
        vec![Utc::now().into(), Uuid::parse_str(id).unwrap().into()],
    )
    .await;
    assert_eq!(get(&app, &with(photo), &fan).await.ok()["state"], "none");
    let Reply { status, .. } = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": MESSAGE}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
}

async fn the_contestant_is_mailed_once_when_paid_and_the_requester_on_approval(backend: Backend) {
    let app = sandbox_app(backend).await;
    let star = sign_up(&app, "star@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let photo = entry(&app, star.id).await;
    // Unpaid: nobody is mailed.
    let Reply { status, .. } = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": MESSAGE}),
    )
    .await;
    assert!(status.is_success());
    assert!(mails(&app, "contact_request_received").await.is_empty());

    let request = paid_request(&app, &fan, photo).await;
    // Delivering the events again (a redelivery, another instance) mails no one again.
    crate::harness::deliver_sandbox_events(&app).await;
    let received = mails(&app, "contact_request_received").await;
    assert_eq!(received.len(), 1, "{received:?}");
    let (to, subject, body) = &received[0];
    assert_eq!(to, "star@example.com");
    // The card is only held: the subject says a paid request, the body why.
    assert_eq!(subject, "fan sent you a paid request on PrettyScore");
    assert!(body.contains("held on their card, not charged"), "{body}");
    // Who asked (their chosen name, never their address), the fee, the
    // 75 % share, the deadline and a link.
    assert!(!body.contains("fan@example.com"), "{body}");
    assert!(body.contains(MESSAGE), "{body}");
    assert!(body.contains("Fee: $1000.00"), "{body}");
    assert!(
        body.contains("Your share if you approve (75 %): $750.00"),
        "{body}"
    );
    let deadline = (Utc::now() + Duration::days(7))
        .format("%B %-d, %Y")
        .to_string();
    assert!(body.contains(&deadline), "{deadline} in {body}");
    assert!(body.contains("/contestant-requests"), "{body}");

    let id = request["id"].as_str().unwrap();
    post(&app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
        .await
        .ok();
    let approved = mails(&app, "contact_request_approved").await;
    assert_eq!(approved.len(), 1, "{approved:?}");
    assert_eq!(approved[0].0, "fan@example.com");
    assert!(
        approved[0].2.contains(&format!("/messages/{id}")),
        "{}",
        approved[0].2
    );
    assert_eq!(mails(&app, "contact_request_received").await.len(), 1);
}

async fn the_contestant_is_reminded_once_a_day_before_the_hold_expires_across_instances(
    backend: Backend,
) {
    let app = sandbox_app(backend).await;
    let star = sign_up(&app, "star@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let photo = entry(&app, star.id).await;
    let request = paid_request(&app, &fan, photo).await;
    let id = Uuid::parse_str(request["id"].as_str().unwrap()).unwrap();
    // A second instance on the same database.
    let url = app.config.database_url.clone();
    let other = spawn_app_with(backend, move |config| config.database_url = url).await;

    // Six days to go: no reminder yet.
    assert_eq!(remind_expiring(&app.state, Utc::now()).await.unwrap(), 0);
    // The hold was placed 6 days and 1 hour ago: it expires in 23 hours.
    sql(
        &app,
        "UPDATE payments SET created_at = $1 WHERE contact_request_id = $2",
        vec![
            (Utc::now() - Duration::days(6) - Duration::hours(1)).into(),
            id.into(),
        ],
    )
    .await;
    let now = Utc::now();
    let runs = futures::future::join_all((0..8).map(|i| {
        let state = if i % 2 == 0 { &app.state } else { &other.state };
        remind_expiring(state, now)
    }))
    .await;
    let reminded: usize = runs.into_iter().map(Result::unwrap).sum();
    // An instance's own expiry job may have come due meanwhile on a busy
    // machine and reminded first: one mail in all is what counts. Its claim
    // and its mail commit together, and a claim above waits for that commit,
    // so the mail is there by now.
    assert!(reminded <= 1, "reminded {reminded} times");
    let reminders = mails(&app, "contact_request_reminder").await;
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert_eq!(reminders[0].0, "star@example.com");
    assert!(
        reminders[0].1.contains("expires in 24 hours"),
        "{}",
        reminders[0].1
    );
    // The next run (the next tick) reminds no one again.
    assert_eq!(remind_expiring(&other.state, Utc::now()).await.unwrap(), 0);
}

/// Issue 44: the leaderboard's Contact reads "Open chat" on the entries of a
/// contestant the caller is chatting with, so a page asks about its entries
/// at once; only the caller's own requests count.
async fn a_page_of_entries_says_for_each_whether_contact_opens_a_chat(backend: Backend) {
    let app = sandbox_app(backend).await;
    let star = sign_up(&app, "star@example.com").await;
    let idol = sign_up(&app, "idol@example.com").await;
    let muse = sign_up(&app, "muse@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = sign_up_named_caller(&app, "admin@example.com", "Boss").await;
    prettyscore_server::admin::roles::grant_admin(&app.db, "admin@example.com")
        .await
        .unwrap();
    // The star has two entries: a chat is with a person, so both open it.
    let star_first = entry(&app, star.id).await;
    let star_second = entry(&app, star.id).await;
    let idol_entry = entry(&app, idol.id).await;
    let muse_entry = entry(&app, muse.id).await;
    let page = [star_first, idol_entry, star_second, muse_entry];

    // Anonymous: 401. No ids, a malformed one or more than 100: 400.
    let anonymous = call(&app, Method::GET, &with_entries(&page), None, None).await;
    anonymous.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    for bad in [
        format!("{REQUESTS}/with?photoIds="),
        format!("{REQUESTS}/with?photoIds={star_first},nope"),
        format!("{REQUESTS}/with"),
        with_entries(&vec![star_first; 101]),
    ] {
        get(&app, &bad, &fan)
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_query");
    }

    // The fan chats with the star and waits on the idol; the muse's entry
    // has only an unpaid request, which a new one replaces: `none`.
    let chat = paid_request(&app, &fan, star_first).await;
    let chat_id = chat["id"].as_str().unwrap();
    post(
        &app,
        &format!("{REQUESTS}/{chat_id}/approve"),
        &star,
        json!({}),
    )
    .await
    .ok();
    let waiting = paid_request(&app, &fan, idol_entry).await;
    let unpaid = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": muse_entry, "message": MESSAGE}),
    )
    .await;
    assert!(unpaid.status.is_success(), "{}", unpaid.body);

    let unknown = Uuid::new_v4();
    let mut asked = page.to_vec();
    asked.insert(1, unknown);
    let body = get(&app, &with_entries(&asked), &fan).await.ok();
    let entries = body.as_array().unwrap();
    // In the order asked, the unknown id left out.
    let ids: Vec<&str> = entries
        .iter()
        .map(|e| e["photoId"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = page.iter().map(Uuid::to_string).collect();
    assert_eq!(ids, expected, "{body}");
    assert_eq!(entries[0]["state"], "chatting");
    assert_eq!(entries[0]["requestId"], chat_id);
    assert_eq!(entries[0]["expiresAt"], Value::Null);
    assert_eq!(entries[1]["state"], "waiting");
    assert_eq!(entries[1]["requestId"], waiting["id"]);
    assert!(entries[1]["expiresAt"].is_string(), "{body}");
    assert_eq!(entries[2]["state"], "chatting", "the star's second entry");
    assert_eq!(entries[2]["requestId"], chat_id);
    assert_eq!(entries[3]["state"], "none");
    assert_eq!(entries[3]["requestId"], Value::Null);
    // One entry at a time says the same.
    for (photo, entry) in page.iter().zip(entries) {
        let one = get(&app, &with(*photo), &fan).await.ok();
        assert_eq!(one["state"], entry["state"], "{photo}");
        assert_eq!(one["requestId"], entry["requestId"], "{photo}");
    }

    // The contestant, another user and an admin have no request with any of them.
    for caller in [&star, &other, &admin] {
        for (photo, state) in states(&app, caller, &page).await {
            assert_eq!(state, "none", "{photo} for {}", caller.id);
        }
    }

    // A closed chat no longer opens.
    sql(
        &app,
        "UPDATE contact_requests SET closed_at = $1 WHERE id = $2",
        vec![Utc::now().into(), Uuid::parse_str(chat_id).unwrap().into()],
    )
    .await;
    let after = states(&app, &fan, &[star_first, star_second]).await;
    assert!(after.iter().all(|(_, state)| state == "none"), "{after:?}");
}
