//! Paid contact requests: fees by the rank now (a client's fee ignored, a
//! rank change honoured), who may see and answer what, the hold captured on
//! approval and released on denial, the 7-day release of exactly the expired
//! holds, one open request per pair, and blocks.

use chrono::{Duration, Utc};
use prettyscore_server::billing::entity::payment;
use reqwest::{Method, StatusCode};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::{
    Backend, Caller, Reply, State, TestApp, admin, call, count, count_where, deliver, event, get,
    insert_photo, insert_user, now, on_both_databases, pay_in_sandbox, post, sandbox_app, sign_up,
    sign_up_unnamed, sql,
};

const REQUESTS: &str = "/api/v1/contact-requests";
const MESSAGE: &str = "Hello! I love your photo, let's talk.";

/// A listed entry of `owner` with `score`, made `age_secs` ago.
async fn entry(app: &TestApp, owner: Uuid, score: f64) -> Uuid {
    insert_photo(
        app,
        owner,
        score,
        Utc::now() - Duration::hours(1),
        State::Listed,
    )
    .await
}

async fn request(app: &TestApp, requester: &Caller, photo: Uuid) -> Reply {
    post(
        app,
        REQUESTS,
        requester,
        json!({"photoId": photo, "message": MESSAGE}),
    )
    .await
}

pub(crate) async fn created(app: &TestApp, requester: &Caller, photo: Uuid) -> Value {
    let Reply { status, body, .. } = request(app, requester, photo).await;
    assert!(
        status == StatusCode::CREATED || status == StatusCode::OK,
        "{status} {body}"
    );
    body
}

/// Pays for `request` in the sandbox: the hold is placed and confirmed.
pub(crate) async fn pay(app: &TestApp, requester: &Caller, request: &Value) -> Value {
    let opened = post(
        app,
        "/functions/v1/create-checkout",
        requester,
        json!({"userId": requester.id, "type": "contact_request",
               "metadata": {"contact_request_id": request["id"], "fee_amount": 1, "rank": 99}}),
    )
    .await
    .ok();
    let session = opened["sessionId"].as_str().unwrap();
    pay_in_sandbox(app, requester, session).await;
    opened
}

pub(crate) async fn payment_of(app: &TestApp, request: &Value) -> payment::Model {
    let id: Uuid = request["id"].as_str().unwrap().parse().unwrap();
    payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(id))
        .one(&app.db)
        .await
        .unwrap()
        .expect("a payment for the request")
}

pub(crate) fn path(request: &Value, action: &str) -> String {
    format!("{REQUESTS}/{}/{action}", request["id"].as_str().unwrap())
}

/// A contestant (signed in) with one listed entry.
pub(crate) async fn contestant(app: &TestApp, email: &str, score: f64) -> (Caller, Uuid) {
    let caller = sign_up(app, email).await;
    let photo = entry(app, caller.id, score).await;
    (caller, photo)
}

on_both_databases!(
    fees_follow_the_rank_now_and_nobody_contacts_themself,
    who_may_see_and_answer_a_request,
    approval_captures_and_denial_releases_each_once,
    the_expiry_job_releases_exactly_the_expired_holds,
    one_open_request_per_pair_and_a_block_ends_it_all,
    through_stripe_approval_captures_and_denial_cancels_the_intent,
    a_report_blocks_the_requester_and_reaches_the_admins,
    a_requester_needs_a_display_name_and_both_parties_see_it
);

async fn fees_follow_the_rank_now_and_nobody_contacts_themself(backend: Backend) {
    let app = sandbox_app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    // 50 entries of 50 owners, scores 9.9 down to 5.0.
    let mut photos = Vec::new();
    for n in 0..50 {
        let owner = insert_user(&app).await;
        photos.push(entry(&app, owner, 9.9 - f64::from(n) * 0.1).await);
    }
    for (rank, fee) in [
        (1, 100_000),
        (2, 95_000),
        (18, 15_000),
        (19, 10_000),
        (50, 10_000),
    ] {
        let Reply { status, body, .. } = post(
            &app,
            REQUESTS,
            &fan,
            // A fee sent by the client is not read.
            json!({"photoId": photos[rank - 1], "message": MESSAGE, "feeAmount": 1, "fee_amount": 1}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["rankAtRequest"], rank, "{body}");
        assert_eq!(body["feeCents"], fee, "rank {rank}");
        assert_eq!(body["contestantShareCents"], fee * 3 / 4);
        assert_eq!(body["platformShareCents"], fee / 4);
        assert_eq!(body["status"], "pending");
        assert_eq!(body["paymentStatus"], "pending_payment");
        assert_eq!(body["paid"], false);
    }
    // The rank changed before checkout: asking again charges the new fee.
    let second = photos[1];
    entry(&app, insert_user(&app).await, 9.95).await;
    let again = created(&app, &fan, second).await;
    assert_eq!(again["rankAtRequest"], 3);
    assert_eq!(again["feeCents"], 90_000);
    let opened = pay(&app, &fan, &again).await;
    assert_eq!(
        opened["amountCents"], 90_000,
        "the checkout charges the new fee"
    );
    // Nobody contacts their own entry, or one that is not listed.
    let (me, mine) = contestant(&app, "me@example.com", 7.0).await;
    request(&app, &me, mine)
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "cannot_contact_self");
    let hidden = insert_photo(
        &app,
        insert_user(&app).await,
        9.0,
        Utc::now(),
        State::Pending,
    )
    .await;
    request(&app, &fan, hidden)
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    request(&app, &fan, Uuid::now_v7())
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    // The message's limits, in the spec's words.
    let short = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photos[3], "message": "too short"}),
    )
    .await;
    short.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(
        short.body["message"],
        "Message must be at least 10 characters"
    );
    let long = post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photos[3], "message": "a".repeat(1001)}),
    )
    .await;
    assert_eq!(
        long.body["message"],
        "Message must be less than 1000 characters"
    );
}

async fn who_may_see_and_answer_a_request(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = admin(&app).await;
    let sent = created(&app, &fan, photo).await;
    let one = format!("{REQUESTS}/{}", sent["id"].as_str().unwrap());
    let actions = [
        path(&sent, "approve"),
        path(&sent, "deny"),
        path(&sent, "block"),
    ];

    // Anonymous: nothing.
    call(
        &app,
        Method::POST,
        REQUESTS,
        None,
        Some(json!({"photoId": photo, "message": MESSAGE})),
    )
    .await
    .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    for path in [
        REQUESTS.to_owned() + "/received",
        REQUESTS.to_owned() + "/sent",
        one.clone(),
    ] {
        call(&app, Method::GET, &path, None, None)
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    }
    for action in &actions {
        call(&app, Method::POST, action, None, None)
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    }
    // Before the hold is confirmed the contestant does not see it.
    assert_eq!(
        get(&app, &format!("{REQUESTS}/received"), &star).await.ok(),
        json!([])
    );
    get(&app, &one, &star)
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    post(&app, &actions[0], &star, json!({}))
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    pay(&app, &fan, &sent).await;
    let inbox = get(&app, &format!("{REQUESTS}/received"), &star).await.ok();
    assert_eq!(inbox[0]["id"], sent["id"]);
    assert_eq!(inbox[0]["paid"], true);
    assert_eq!(inbox[0]["role"], "contestant");
    // The contestant sees a name, never the requester's address.
    assert!(!inbox.to_string().contains("fan@example.com"), "{inbox}");
    assert!(inbox[0]["expiresAt"].is_string());
    // The requester sees their own; another user and an admin see nothing.
    assert_eq!(get(&app, &one, &fan).await.ok()["role"], "requester");
    assert_eq!(
        get(&app, &format!("{REQUESTS}/sent"), &fan).await.ok()[0]["id"],
        sent["id"]
    );
    for stranger in [&other, &admin] {
        get(&app, &one, stranger)
            .await
            .assert_error(StatusCode::NOT_FOUND, "not_found");
        for action in &actions {
            post(&app, action, stranger, json!({}))
                .await
                .assert_error(StatusCode::NOT_FOUND, "not_found");
        }
    }
    // The requester cannot answer their own request (blocking is for
    // either party: issue 41, tested in reports.rs).
    for action in &actions[..2] {
        post(&app, action, &fan, json!({}))
            .await
            .assert_error(StatusCode::NOT_FOUND, "not_found");
    }
    assert_eq!(get(&app, &one, &star).await.ok()["status"], "pending");
}

async fn approval_captures_and_denial_releases_each_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let sent = created(&app, &fan, photo).await;
    pay(&app, &fan, &sent).await;
    assert_eq!(payment_of(&app, &sent).await.status, "held");
    let approved = post(&app, &path(&sent, "approve"), &star, json!({}))
        .await
        .ok();
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["paymentStatus"], "paid");
    assert_eq!(
        payment_of(&app, &sent).await.status,
        "succeeded",
        "captured"
    );
    post(&app, &path(&sent, "approve"), &star, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "already_decided");
    post(&app, &path(&sent, "deny"), &star, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "already_decided");
    // The contestant's 75 % is on their dashboard.
    let dashboard = get(&app, "/api/v1/dashboard", &star).await.ok();
    assert_eq!(dashboard["contactEarningsCents"], 75_000);

    // A second contestant denies: released, and the requester is told.
    let (other_star, other_photo) = contestant(&app, "other@example.com", 8.0).await;
    let denied = created(&app, &fan, other_photo).await;
    pay(&app, &fan, &denied).await;
    let answer = post(&app, &path(&denied, "deny"), &other_star, json!({}))
        .await
        .ok();
    assert_eq!(answer["status"], "denied");
    assert_eq!(answer["paymentStatus"], "refunded");
    assert_eq!(
        payment_of(&app, &denied).await.status,
        "canceled",
        "released"
    );
    post(&app, &path(&denied, "deny"), &other_star, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "already_decided");
    assert_eq!(
        get(&app, &format!("{REQUESTS}/sent"), &fan).await.ok()[0]["status"],
        "denied"
    );
    let mails = count_where(&app, "mail_outbox", "kind = 'contact_request_denied'").await;
    assert_eq!(mails, 1);
    let dashboard = get(&app, "/api/v1/dashboard", &other_star).await.ok();
    assert_eq!(dashboard["contactEarningsCents"], 0);
    // A denied request leaves the inbox; the approved one stays.
    assert_eq!(
        get(&app, &format!("{REQUESTS}/received"), &other_star)
            .await
            .ok(),
        json!([])
    );
    assert_eq!(
        get(&app, &format!("{REQUESTS}/received"), &star).await.ok()[0]["status"],
        "approved"
    );
}

async fn the_expiry_job_releases_exactly_the_expired_holds(backend: Backend) {
    let app = sandbox_app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let (old_star, old_photo) = contestant(&app, "old@example.com", 9.0).await;
    let (new_star, new_photo) = contestant(&app, "new@example.com", 8.0).await;
    let old = created(&app, &fan, old_photo).await;
    let new = created(&app, &fan, new_photo).await;
    pay(&app, &fan, &old).await;
    pay(&app, &fan, &new).await;
    // The first hold was placed eight days ago.
    sql(
        &app,
        "UPDATE payments SET created_at = $1 WHERE id = $2",
        vec![
            (Utc::now() - Duration::days(8)).into(),
            payment_of(&app, &old).await.id.into(),
        ],
    )
    .await;
    let released = prettyscore_server::contact::expiry::release_expired(&app.state, Utc::now())
        .await
        .unwrap();
    assert_eq!(released, 1);
    assert_eq!(payment_of(&app, &old).await.status, "canceled");
    assert_eq!(payment_of(&app, &new).await.status, "held");
    assert_eq!(
        get(
            &app,
            &format!("{REQUESTS}/{}", old["id"].as_str().unwrap()),
            &fan
        )
        .await
        .ok()["status"],
        "denied"
    );
    assert_eq!(
        get(&app, &format!("{REQUESTS}/received"), &new_star)
            .await
            .ok()[0]["status"],
        "pending"
    );
    assert_eq!(
        get(&app, &format!("{REQUESTS}/received"), &old_star)
            .await
            .ok(),
        json!([])
    );
    // Again: nothing more; and a week later the other one goes too.
    assert_eq!(
        prettyscore_server::contact::expiry::release_expired(&app.state, Utc::now())
            .await
            .unwrap(),
        0
    );
    let later = Utc::now() + Duration::days(8);
    assert_eq!(
        prettyscore_server::contact::expiry::release_expired(&app.state, later)
            .await
            .unwrap(),
        1
    );
    assert_eq!(payment_of(&app, &new).await.status, "canceled");
}

async fn one_open_request_per_pair_and_a_block_ends_it_all(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let second_photo = entry(&app, star.id, 8.5).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let first = created(&app, &fan, photo).await;
    // Two sent at once open one request between them.
    let racer = sign_up(&app, "racer@example.com").await;
    let (one, two) = tokio::join!(
        request(&app, &racer, photo),
        request(&app, &racer, second_photo)
    );
    let mut statuses = [one.status.as_u16(), two.status.as_u16()];
    statuses.sort_unstable();
    assert!(
        statuses == [200, 201] || statuses == [201, 409],
        "{statuses:?} {} {}",
        one.body,
        two.body
    );
    assert_eq!(
        get(&app, &format!("{REQUESTS}/sent"), &racer)
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Unpaid: asking again answers the same request.
    let same = created(&app, &fan, second_photo).await;
    assert_eq!(same["id"], first["id"]);
    pay(&app, &fan, &first).await;
    request(&app, &fan, photo)
        .await
        .assert_error(StatusCode::CONFLICT, "request_open");
    post(&app, &path(&first, "approve"), &star, json!({}))
        .await
        .ok();
    // Approved, its chat open: still no second request (nor a second fee).
    request(&app, &fan, photo)
        .await
        .assert_error(StatusCode::CONFLICT, "request_open");
    let Reply { status, .. } = post(&app, &path(&first, "block"), &star, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        payment_of(&app, &first).await.status,
        "succeeded",
        "the captured fee stays captured"
    );
    let conversation = get(
        &app,
        &format!("{REQUESTS}/{}", first["id"].as_str().unwrap()),
        &fan,
    )
    .await
    .ok();
    assert_eq!(conversation["closed"], true);
    assert_eq!(
        conversation["status"], "approved",
        "the captured request stays approved"
    );
    request(&app, &fan, photo)
        .await
        .assert_error(StatusCode::FORBIDDEN, "blocked");
    // Blocking twice is fine.
    assert_eq!(
        post(&app, &path(&first, "block"), &star, json!({}))
            .await
            .status,
        StatusCode::NO_CONTENT
    );
}

/// Confirms a hold through a Stripe event, as Stripe sends it.
pub(crate) async fn hold_through_stripe(
    app: &TestApp,
    requester: &Caller,
    request: &Value,
    intent: &str,
) {
    let amount = request["feeCents"].as_i64().unwrap();
    deliver(
        app,
        &event(
            &format!("evt_{intent}"),
            "payment_intent.amount_capturable_updated",
            now(),
            json!({"id": intent, "object": "payment_intent", "status": "requires_capture",
                   "amount": amount, "amount_capturable": amount, "currency": "usd",
                   "metadata": {"user_id": requester.id, "purpose": "contact_request",
                                "contact_request_id": request["id"]}}),
        ),
    )
    .await;
}

async fn through_stripe_approval_captures_and_denial_cancels_the_intent(backend: Backend) {
    use wiremock::matchers::{method, path as at};
    use wiremock::{Mock, ResponseTemplate};
    let stripe = crate::harness::stripe_double().await;
    // pi_no is cancelled on denial and once more by the job: Stripe's
    // event never came back to say it was.
    for (intent, action, status, times) in [
        ("pi_yes", "capture", "succeeded", 1),
        ("pi_no", "cancel", "canceled", 2),
        ("pi_late", "cancel", "canceled", 1),
    ] {
        Mock::given(method("POST"))
            .and(at(format!("/v1/payment_intents/{intent}/{action}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(
                json!({"id": intent, "object": "payment_intent", "status": status, "amount": 100_000}),
            ))
            .expect(times)
            .mount(&stripe)
            .await;
    }
    let app = crate::harness::stripe_app(backend, &stripe.uri()).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let (other_star, other_photo) = contestant(&app, "other@example.com", 8.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let (_, late_photo) = contestant(&app, "late@example.com", 7.0).await;
    let yes = created(&app, &fan, photo).await;
    let no = created(&app, &fan, other_photo).await;
    let late = created(&app, &fan, late_photo).await;
    for request in [&yes, &no, &late] {
        post(
            &app,
            "/functions/v1/create-checkout",
            &fan,
            json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request["id"]}}),
        )
        .await.ok();
    }
    // Not confirmed by Stripe yet: nothing to answer.
    post(&app, &path(&yes, "approve"), &star, json!({}))
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    hold_through_stripe(&app, &fan, &yes, "pi_yes").await;
    hold_through_stripe(&app, &fan, &no, "pi_no").await;
    assert_eq!(
        post(&app, &path(&yes, "approve"), &star, json!({}))
            .await
            .ok()["status"],
        "approved"
    );
    assert_eq!(
        post(&app, &path(&no, "deny"), &other_star, json!({}))
            .await
            .ok()["status"],
        "denied"
    );
    // Unanswered for 8 days: the job cancels the intent.
    hold_through_stripe(&app, &fan, &late, "pi_late").await;
    sql(
        &app,
        "UPDATE payments SET created_at = $1 WHERE provider_payment_intent_id = 'pi_late'",
        vec![(Utc::now() - Duration::days(8)).into()],
    )
    .await;
    let released = prettyscore_server::contact::expiry::release_expired(&app.state, Utc::now())
        .await
        .unwrap();
    assert_eq!(
        released, 1,
        "the late one; the denied one's event may still come"
    );
    sql(
        &app,
        "UPDATE contact_requests SET updated_at = $1 WHERE id = $2",
        vec![
            (Utc::now() - Duration::hours(2)).into(),
            no["id"].as_str().unwrap().parse::<Uuid>().unwrap().into(),
        ],
    )
    .await;
    let released = prettyscore_server::contact::expiry::release_expired(&app.state, Utc::now())
        .await
        .unwrap();
    assert_eq!(
        released, 1,
        "the one denied two hours ago is released again; the late one waits its hour"
    );
    // The double checks each intent was captured or cancelled exactly once
    // (`expect(1)`), here and when it drops.
    stripe.verify().await;
}

async fn a_report_blocks_the_requester_and_reaches_the_admins(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let admin = admin(&app).await;
    let sent = created(&app, &fan, photo).await;
    pay(&app, &fan, &sent).await;
    let report = path(&sent, "report");
    let reason = json!({"reason": "Rude and pushy"});
    call(&app, Method::POST, &report, None, Some(reason.clone()))
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    for stranger in [&fan, &admin] {
        post(&app, &report, stranger, reason.clone())
            .await
            .assert_error(StatusCode::NOT_FOUND, "not_found");
    }
    post(&app, &report, &star, json!({"reason": " "}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(
        post(&app, &report, &star, reason.clone()).await.status,
        StatusCode::NO_CONTENT
    );
    post(&app, &report, &star, reason.clone())
        .await
        .assert_error(StatusCode::CONFLICT, "conflict");
    // Reporting blocks: the open request is denied and released.
    assert_eq!(payment_of(&app, &sent).await.status, "canceled");
    request(&app, &fan, photo)
        .await
        .assert_error(StatusCode::FORBIDDEN, "blocked");
    // The admins see it in the one queue, with the requester's address;
    // nobody else does.
    let reports = "/api/v1/admin/reports";
    call(&app, Method::GET, reports, None, None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    get(&app, reports, &star)
        .await
        .assert_error(StatusCode::FORBIDDEN, "admin_only");
    let listed = get(&app, reports, &admin).await.ok();
    let listed = &listed["reports"];
    assert_eq!(listed[0]["affected_email"], "fan@example.com");
    assert_eq!(listed[0]["details"], "Rude and pushy");
    assert_eq!(listed[0]["target_kind"], "conversation");
    assert_eq!(listed[0]["target_id"], sent["id"]);
    let decide = format!(
        "/api/v1/admin/reports/{}/decision",
        listed[0]["id"].as_str().unwrap()
    );
    let dismissal = json!({"action": "dismiss", "statement": "Pushy, not abusive."});
    post(&app, &decide, &star, dismissal.clone())
        .await
        .assert_error(StatusCode::FORBIDDEN, "admin_only");
    assert_eq!(
        post(&app, &decide, &admin, dismissal.clone()).await.status,
        StatusCode::CREATED
    );
    post(&app, &decide, &admin, dismissal)
        .await
        .assert_error(StatusCode::CONFLICT, "already_decided");
    assert_eq!(get(&app, reports, &admin).await.ok()["reports"], json!([]));
}

async fn set_display_name(app: &TestApp, caller: &Caller, name: Value) -> Reply {
    call(
        app,
        Method::PUT,
        "/auth/v1/user",
        Some(&caller.token),
        Some(json!({"data": {"display_name": name}})),
    )
    .await
}

/// The contestant decides on a name, never an address: a requester without
/// a display name is refused (before the hourly count is spent) until they
/// set one, and then both parties see the name they chose, as it is now, on
/// the cards and in the chat's heading (`GET /contact-requests/{id}`).
async fn a_requester_needs_a_display_name_and_both_parties_see_it(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up_unnamed(&app, "fan@example.com").await;

    for _ in 0..12 {
        let refused = request(&app, &fan, photo).await;
        refused.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "display_name_required");
        assert_eq!(
            refused.body["message"],
            "Please add a display name before contacting a contestant, so they know who is writing."
        );
    }
    assert_eq!(count(&app, "contact_requests").await, 0);
    // A blank name is no name.
    let blank = set_display_name(&app, &fan, json!(" \u{200B}")).await;
    assert_eq!(
        blank.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        blank.body
    );
    request(&app, &fan, photo)
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "display_name_required");

    set_display_name(&app, &fan, json!("  Fan Fiction "))
        .await
        .ok();
    // Twelve refusals spent none of the ten requests an hour allows.
    let sent = created(&app, &fan, photo).await;
    assert_eq!(sent["requesterName"], "Fan Fiction");
    assert_eq!(sent["contestantName"], "Entry 9");
    pay(&app, &fan, &sent).await;

    // A new name shows at once, to both parties, everywhere they see it.
    set_display_name(&app, &fan, json!("Fanny")).await.ok();
    let one = format!("{REQUESTS}/{}", sent["id"].as_str().unwrap());
    let inbox = get(&app, &format!("{REQUESTS}/received"), &star).await.ok();
    assert_eq!(inbox[0]["requesterName"], "Fanny", "{inbox}");
    let outbox = get(&app, &format!("{REQUESTS}/sent"), &fan).await.ok();
    assert_eq!(outbox[0]["requesterName"], "Fanny", "{outbox}");
    for party in [&star, &fan] {
        let heading = get(&app, &one, party).await.ok();
        assert_eq!(heading["requesterName"], "Fanny");
        assert_eq!(heading["contestantName"], "Entry 9");
    }
    // The address never shows.
    assert!(!inbox.to_string().contains("fan@example.com"));

    // Removing the name later does not unname the request: the fallback.
    set_display_name(&app, &fan, Value::Null).await.ok();
    let heading = get(&app, &one, &star).await.ok();
    assert_eq!(heading["requesterName"], "A PrettyScore member");
}
