//! Issue 42, sections 1 and 4: one contact request holds money once,
//! whatever is pressed in any number of tabs (one open checkout per request;
//! a payment authorised after another one for the same request is released
//! at once and the return page says so; a stray hold left by a crash is
//! released by the sweeper; approval captures one, denial releases all);
//! and admins put money right (a refund with a reason, audited, once under
//! eight presses, through the sandbox and Stripe, the contestant's and the
//! partner's share taken back by the ledgers, a partner's clawback listed
//! on /admin/payouts and netted by the next payout).

use std::collections::BTreeSet;

use prettyscore_server::billing::entity::payment;
use prettyscore_server::billing::holds;
use prettyscore_server::billing::sandbox::deliver_events;
use prettyscore_server::db::entities::audit_log_entries;
use reqwest::{Method, StatusCode};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use uuid::Uuid;
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::contact::{contestant, created, path as request_path};
use crate::harness::{
    Backend, Caller, TestApp, admin, buy_premium, call, count, count_where, deliver, event, get,
    now, on_both_databases, pay_in_sandbox, payments_of, post, sandbox_app, sign_up, sql,
    stripe_app, stripe_double,
};
use crate::partners::{app_without_hold, buy, partner, portal, sign_up_referred};
use crate::payouts::{age_captures, connect, earnings, run_job};

on_both_databases!(
    eight_parallel_checkouts_and_pays_on_one_request_hold_once,
    a_stale_checkout_paid_after_the_hold_is_released_at_once_and_the_page_says_so,
    who_may_ask_what_became_of_a_checkout,
    a_stray_hold_left_by_a_crash_is_released_by_the_sweeper,
    denial_releases_every_hold_and_approval_captures_one,
    who_may_list_and_refund_payments,
    eight_parallel_refund_presses_refund_premium_once,
    an_admin_refund_of_a_contact_fee_reverses_the_contestants_paid_share,
    an_admin_refund_goes_through_stripe_once,
    a_partner_owing_money_back_is_listed_and_the_next_payout_nets_it,
);

const CHECKOUT: &str = "/functions/v1/create-checkout";
const PAYMENTS: &str = "/api/v1/admin/payments";

fn refund_path(payment: Uuid) -> String {
    format!("{PAYMENTS}/{payment}/refund")
}

fn outcome_path(session: &str) -> String {
    format!("/api/v1/billing/checkouts/{session}")
}

fn contact_checkout(requester: &Caller, request: &Value) -> Value {
    json!({"userId": requester.id, "type": "contact_request",
           "metadata": {"contact_request_id": request["id"]}})
}

/// Opens a checkout for `request`; the session id.
async fn open(app: &TestApp, requester: &Caller, request: &Value) -> String {
    post(
        app,
        CHECKOUT,
        requester,
        contact_checkout(requester, request),
    )
    .await
    .ok()["sessionId"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The checkout of `session` is no longer offered (another tab asked for
/// another fee since): the provider's page stays payable.
async fn no_longer_offered(app: &TestApp, session: &str) {
    sql(
        app,
        "UPDATE checkout_sessions SET status = 'expired' WHERE provider_session_id = $1",
        vec![session.into()],
    )
    .await;
}

fn request_id(request: &Value) -> Uuid {
    request["id"].as_str().unwrap().parse().unwrap()
}

/// The request's payments, oldest first.
async fn payments_for(app: &TestApp, request: &Value) -> Vec<payment::Model> {
    payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(request_id(request)))
        .order_by_asc(payment::Column::CreatedAt)
        .all(&app.db)
        .await
        .unwrap()
}

/// The statuses of the request's payments, sorted.
async fn statuses(app: &TestApp, request: &Value) -> Vec<String> {
    let mut all: Vec<String> = payments_for(app, request)
        .await
        .into_iter()
        .map(|row| row.status)
        .collect();
    all.sort();
    all
}

/// The sandbox's PaymentIntents in `status`.
async fn intents(app: &TestApp, status: &str) -> usize {
    use prettyscore_server::providers::payments::sandbox::objects;
    objects::Entity::find()
        .filter(objects::Column::Kind.eq("payment_intent"))
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .filter(|row| row.data["status"] == status)
        .count()
}

async fn request_as(app: &TestApp, caller: &Caller, request: &Value) -> Value {
    get(
        app,
        &format!(
            "/api/v1/contact-requests/{}",
            request["id"].as_str().unwrap()
        ),
        caller,
    )
    .await
    .ok()
}

async fn eight_parallel_checkouts_and_pays_on_one_request_hold_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;

    // Eight tabs press "Send and pay" at once: one checkout.
    let replies = futures::future::join_all((0..8).map(|i| {
        let mut body = contact_checkout(&fan, &request);
        body["idempotencyKey"] = json!(format!("tab-{i}"));
        let (app, fan) = (&app, &fan);
        async move { post(app, CHECKOUT, fan, body).await }
    }))
    .await;
    let mut sessions = BTreeSet::new();
    for reply in replies {
        if reply.status == StatusCode::OK {
            sessions.insert(reply.body["sessionId"].as_str().unwrap().to_owned());
        } else {
            reply.assert_error(StatusCode::CONFLICT, "checkout_in_progress");
        }
    }
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_eq!(count(&app, "checkout_sessions").await, 1);
    // Another tab later gets the same checkout.
    let session = sessions.into_iter().next().unwrap();
    assert_eq!(open(&app, &fan, &request).await, session);

    // Eight presses on Pay: one hold.
    let pay_path = format!("/api/v1/billing/sandbox/{session}/pay");
    let pays =
        futures::future::join_all((0..8).map(|_| post(&app, &pay_path, &fan, json!({})))).await;
    let paid = pays
        .iter()
        .filter(|reply| reply.status == StatusCode::OK)
        .count();
    assert_eq!(paid, 1);
    for reply in pays
        .into_iter()
        .filter(|reply| reply.status != StatusCode::OK)
    {
        reply.assert_error(StatusCode::CONFLICT, "checkout_closed");
    }
    assert_eq!(statuses(&app, &request).await, ["held"]);
    let mine = payments_of(&app, &fan).await;
    assert_eq!(mine.len(), 1, "My Account lists one hold: {mine:?}");
    assert_eq!(mine[0]["status"], "held");
    assert_eq!(
        earnings(&app, &star).await["lines"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Paid: no more checkouts for it, whatever is pressed.
    let again = futures::future::join_all(
        (0..8).map(|_| post(&app, CHECKOUT, &fan, contact_checkout(&fan, &request))),
    )
    .await;
    for reply in again {
        reply.assert_error(StatusCode::CONFLICT, "already_paid");
    }

    // Approval captures the one hold; the contestant has one line.
    post(&app, &request_path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    assert_eq!(statuses(&app, &request).await, ["succeeded"]);
    let lines = earnings(&app, &star).await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 1, "{lines}");
    assert_eq!(lines["lines"][0]["state"], "captured");
}

async fn a_stale_checkout_paid_after_the_hold_is_released_at_once_and_the_page_says_so(
    backend: Backend,
) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;
    // Two checkouts that are no longer offered but stay payable at the
    // provider (another tab asked for another fee each time), and the one
    // offered now.
    let stale = open(&app, &fan, &request).await;
    no_longer_offered(&app, &stale).await;
    let late = open(&app, &fan, &request).await;
    no_longer_offered(&app, &late).await;
    let current = open(&app, &fan, &request).await;
    assert_eq!(
        [&stale, &late, &current]
            .into_iter()
            .collect::<BTreeSet<_>>()
            .len(),
        3
    );

    let paid = pay_in_sandbox(&app, &fan, &current).await;
    assert_eq!(
        paid["redirectUrl"],
        format!("/leaderboard?contact=success&checkout={current}")
    );
    // The stale one is paid after: its hold is released at once.
    pay_in_sandbox(&app, &fan, &stale).await;
    assert_eq!(statuses(&app, &request).await, ["canceled", "held"]);
    assert_eq!(intents(&app, "requires_capture").await, 1);
    assert_eq!(intents(&app, "canceled").await, 1);
    let seen = request_as(&app, &fan, &request).await;
    assert_eq!(seen["paid"], true, "{seen}");
    assert_eq!(seen["paymentStatus"], "paid");
    // The page the buyer returns to says so; the first one's says nothing.
    let returned = get(&app, &outcome_path(&stale), &fan).await.ok();
    assert_eq!(returned["givenBack"], true, "{returned}");
    assert!(
        returned["message"]
            .as_str()
            .unwrap()
            .contains("released at once"),
        "{returned}"
    );
    let first = get(&app, &outcome_path(&current), &fan).await.ok();
    assert_eq!(first["givenBack"], false, "{first}");
    assert_eq!(first["paymentStatus"], "held");
    assert_eq!(first["message"], Value::Null);
    // The contestant sees one request and one line.
    let lines = earnings(&app, &star).await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 1, "{lines}");

    // Approval captures exactly the request's payment.
    post(&app, &request_path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    assert_eq!(statuses(&app, &request).await, ["canceled", "succeeded"]);
    // A stale checkout paid after the approval holds nothing either.
    pay_in_sandbox(&app, &fan, &late).await;
    assert_eq!(
        statuses(&app, &request).await,
        ["canceled", "canceled", "succeeded"]
    );
    assert_eq!(intents(&app, "requires_capture").await, 0);
    assert_eq!(
        get(&app, &outcome_path(&late), &fan).await.ok()["givenBack"],
        true
    );
    let seen = request_as(&app, &fan, &request).await;
    assert_eq!(seen["status"], "approved");
    assert_eq!(seen["paymentStatus"], "paid");
    let lines = earnings(&app, &star).await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 1, "{lines}");
    assert_eq!(lines["lines"][0]["state"], "captured");
    // Nothing is left owed: each release was done once.
    assert_eq!(
        count_where(&app, "billing_refunds", "done_at IS NULL").await,
        0
    );
    assert_eq!(count(&app, "billing_refunds").await, 2);
}

async fn who_may_ask_what_became_of_a_checkout(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let admin = admin(&app).await;
    let request = created(&app, &fan, photo).await;
    let session = open(&app, &fan, &request).await;
    call(&app, Method::GET, &outcome_path(&session), None, None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    for other in [&star, &admin] {
        get(&app, &outcome_path(&session), other)
            .await
            .assert_error(StatusCode::NOT_FOUND, "not_found");
    }
    let open_now = get(&app, &outcome_path(&session), &fan).await.ok();
    assert_eq!(open_now["status"], "open");
    assert_eq!(open_now["paymentStatus"], Value::Null);
    assert_eq!(open_now["givenBack"], false);
    get(&app, &outcome_path("cs_sandbox_unknown"), &fan)
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
}

/// Pays `session` at the sandbox and records its events, as a delivery
/// that stopped before anything else (no refund settled); then undoes what
/// marked the payment a duplicate, leaving a stray hold as a crash between
/// two steps (or the days before one hold per request) would.
async fn leave_stray_hold(app: &TestApp, session: &str) {
    let sandbox = app.state.payments.sandbox.as_ref().unwrap();
    sandbox.pay(session).await.unwrap();
    deliver_events(&app.db, &app.state.hooks, sandbox)
        .await
        .unwrap();
    assert_eq!(
        sql(
            app,
            "UPDATE payments SET duplicate_of = NULL WHERE duplicate_of IS NOT NULL AND status = 'held'",
            vec![]
        )
        .await,
        1,
        "the second hold was marked a duplicate"
    );
    sql(
        app,
        "DELETE FROM billing_refunds WHERE done_at IS NULL",
        vec![],
    )
    .await;
}

async fn a_stray_hold_left_by_a_crash_is_released_by_the_sweeper(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;
    let stray = open(&app, &fan, &request).await;
    no_longer_offered(&app, &stray).await;
    let later = open(&app, &fan, &request).await;
    no_longer_offered(&app, &later).await;
    let current = open(&app, &fan, &request).await;
    pay_in_sandbox(&app, &fan, &current).await;

    leave_stray_hold(&app, &stray).await;
    assert_eq!(statuses(&app, &request).await, ["held", "held"]);
    assert_eq!(intents(&app, "requires_capture").await, 2);
    // The sweeper finds it, and only it; a second run finds nothing.
    assert_eq!(holds::release_strays(&app.state).await.unwrap(), 1);
    assert_eq!(holds::release_strays(&app.state).await.unwrap(), 0);
    assert_eq!(statuses(&app, &request).await, ["canceled", "held"]);
    let rows = payments_for(&app, &request).await;
    let live = rows.iter().find(|row| row.status == "held").unwrap();
    assert!(live.checkout_session_id.is_some());
    assert_eq!(intents(&app, "requires_capture").await, 1);
    assert_eq!(request_as(&app, &fan, &request).await["paid"], true);

    // After an approval, a stray hold is released and the capture kept.
    post(&app, &request_path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    leave_stray_hold(&app, &later).await;
    assert_eq!(
        statuses(&app, &request).await,
        ["canceled", "held", "succeeded"]
    );
    assert_eq!(holds::release_strays(&app.state).await.unwrap(), 1);
    assert_eq!(
        statuses(&app, &request).await,
        ["canceled", "canceled", "succeeded"]
    );
    let seen = request_as(&app, &star, &request).await;
    assert_eq!(seen["status"], "approved");
    assert_eq!(seen["paymentStatus"], "paid");
    let lines = earnings(&app, &star).await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 1, "{lines}");
    assert_eq!(lines["lines"][0]["state"], "captured");
}

async fn denial_releases_every_hold_and_approval_captures_one(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let (other_star, other_photo) = contestant(&app, "other-star@example.com", 8.0).await;
    let fan = sign_up(&app, "fan@example.com").await;

    // Two holds on one request (one a stray): denial releases both.
    let request = created(&app, &fan, photo).await;
    let stray = open(&app, &fan, &request).await;
    no_longer_offered(&app, &stray).await;
    let current = open(&app, &fan, &request).await;
    pay_in_sandbox(&app, &fan, &current).await;
    leave_stray_hold(&app, &stray).await;
    post(&app, &request_path(&request, "deny"), &star, json!({}))
        .await
        .ok();
    assert_eq!(statuses(&app, &request).await, ["canceled", "canceled"]);

    // Two holds on another: approval captures exactly one.
    let request = created(&app, &fan, other_photo).await;
    let stray = open(&app, &fan, &request).await;
    no_longer_offered(&app, &stray).await;
    let current = open(&app, &fan, &request).await;
    pay_in_sandbox(&app, &fan, &current).await;
    leave_stray_hold(&app, &stray).await;
    let approve = request_path(&request, "approve");
    let approvals =
        futures::future::join_all((0..8).map(|_| post(&app, &approve, &other_star, json!({}))))
            .await;
    assert_eq!(
        approvals
            .iter()
            .filter(|reply| reply.status == StatusCode::OK)
            .count(),
        1
    );
    assert_eq!(statuses(&app, &request).await, ["held", "succeeded"]);
    assert_eq!(intents(&app, "succeeded").await, 1);
    holds::release_strays(&app.state).await.unwrap();
    assert_eq!(statuses(&app, &request).await, ["canceled", "succeeded"]);
}

/// The audit entries of `action`.
async fn audited(app: &TestApp, action: &str) -> Vec<Value> {
    audit_log_entries::Entity::find()
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.payload)
        .filter(|payload| payload["action"] == action)
        .collect()
}

/// `n` admins press Refund at once; the replies' statuses, sorted.
async fn parallel_refunds(app: &TestApp, admin: &Caller, payment: Uuid, n: usize) -> Vec<u16> {
    let route = refund_path(payment);
    let replies = futures::future::join_all((0..n).map(|i| {
        post(
            app,
            &route,
            admin,
            json!({"reason": format!("Asked by the member (press {i})")}),
        )
    }))
    .await;
    let mut codes = Vec::new();
    for reply in replies {
        if reply.status != StatusCode::OK {
            reply.assert_error(StatusCode::CONFLICT, "already_refunded");
        }
        codes.push(reply.status.as_u16());
    }
    codes.sort_unstable();
    codes
}

async fn only_payment(app: &TestApp, buyer: &Caller) -> Uuid {
    let mine = payments_of(app, buyer).await;
    assert_eq!(mine.len(), 1, "{mine:?}");
    mine[0]["id"].as_str().unwrap().parse().unwrap()
}

async fn who_may_list_and_refund_payments(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    buy_premium(&app, &buyer).await;
    let payment = only_payment(&app, &buyer).await;
    let reason = json!({"reason": "Charged by mistake"});

    for (route, body) in [
        (PAYMENTS.to_owned(), None),
        (refund_path(payment), Some(reason.clone())),
    ] {
        let verb = if body.is_some() {
            Method::POST
        } else {
            Method::GET
        };
        call(&app, verb.clone(), &route, None, body.clone())
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
        for caller in [&buyer, &other] {
            call(
                &app,
                verb.clone(),
                &route,
                Some(&caller.token),
                body.clone(),
            )
            .await
            .assert_error(StatusCode::FORBIDDEN, "admin_only");
        }
    }
    let listed = get(&app, PAYMENTS, &admin).await.ok();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["email"], "buyer@example.com");
    assert_eq!(listed[0]["refundable"], true);
    let mine = get(&app, &format!("{PAYMENTS}?email=BUYER@example.com"), &admin)
        .await
        .ok();
    assert_eq!(mine.as_array().unwrap().len(), 1);
    let none = get(&app, &format!("{PAYMENTS}?email=other@example.com"), &admin)
        .await
        .ok();
    assert_eq!(none.as_array().unwrap().len(), 0);

    // A reason is needed; an unknown payment is 404.
    for reason in ["", "   "] {
        post(
            &app,
            &refund_path(payment),
            &admin,
            json!({"reason": reason}),
        )
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    }
    post(
        &app,
        &refund_path(payment),
        &admin,
        json!({"reason": "x".repeat(501)}),
    )
    .await
    .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    post(&app, &refund_path(Uuid::new_v4()), &admin, reason.clone())
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    assert!(audited(&app, "payment_refunded").await.is_empty());
    assert_eq!(count(&app, "billing_refunds").await, 0);

    let refunded = post(&app, &refund_path(payment), &admin, reason.clone())
        .await
        .ok();
    assert_eq!(refunded["status"], "refunded", "{refunded}");
    assert_eq!(refunded["refundable"], false);
    assert_eq!(refunded["refund"]["reason"], "Charged by mistake");
    post(&app, &refund_path(payment), &admin, reason)
        .await
        .assert_error(StatusCode::CONFLICT, "already_refunded");
}

async fn eight_parallel_refund_presses_refund_premium_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    buy_premium(&app, &buyer).await;
    let payment = only_payment(&app, &buyer).await;

    let codes = parallel_refunds(&app, &admin, payment, 8).await;
    assert_eq!(codes, [200, 409, 409, 409, 409, 409, 409, 409]);
    let mine = payments_of(&app, &buyer).await;
    assert_eq!(mine[0]["status"], "refunded", "{mine:?}");
    assert_eq!(mine[0]["refunded_cents"], mine[0]["amount_cents"]);
    assert_eq!(
        count_where(&app, "sandbox_events", "event_type = 'charge.refunded'").await,
        1,
        "one refund at the provider"
    );
    let entries = audited(&app, "payment_refunded").await;
    assert_eq!(entries.len(), 1, "audited once: {entries:?}");
    let traits = &entries[0]["traits"];
    assert_eq!(traits["payment_id"], payment.to_string());
    assert!(
        traits["reason"]
            .as_str()
            .unwrap()
            .starts_with("Asked by the member"),
        "{traits}"
    );
    assert_eq!(traits["before"]["status"], "succeeded");
    assert_eq!(entries[0]["actor_id"], admin.id.to_string());
}

async fn an_admin_refund_of_a_contact_fee_reverses_the_contestants_paid_share(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.0).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;
    let session = open(&app, &fan, &request).await;
    pay_in_sandbox(&app, &fan, &session).await;
    post(&app, &request_path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    // A share is payable only once the contestant has written (issue 42 §2).
    crate::payouts::reply(&app, &star, &request).await;
    connect(&app, &star).await;
    age_captures(&app, 30).await;
    assert_eq!(run_job(&app, 1).await.transferred, 1);
    assert_eq!(
        earnings(&app, &star).await["lines"][0]["state"],
        "transferred"
    );

    let payment = only_payment(&app, &fan).await;
    let codes = parallel_refunds(&app, &admin, payment, 8).await;
    assert_eq!(codes.iter().filter(|code| **code == 200).count(), 1);
    assert_eq!(statuses(&app, &request).await, ["refunded"]);
    // The ledger takes the sent share back, once.
    let run = run_job(&app, 3).await;
    assert_eq!(run.reversed, 1, "{run:?}");
    let lines = earnings(&app, &star).await;
    assert_eq!(lines["lines"][0]["state"], "reversed", "{lines}");
    assert_eq!(lines["totals"]["paidCents"], 0);
    let listed = get(&app, PAYMENTS, &admin).await.ok();
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["id"] == payment.to_string())
        .unwrap();
    assert_eq!(row["share"], "reversed", "{row}");
    assert_eq!(row["status"], "refunded");
    let seen = request_as(&app, &fan, &request).await;
    assert_eq!(seen["paymentStatus"], "refunded");
}

async fn an_admin_refund_goes_through_stripe_once(backend: Backend) {
    let stripe = stripe_double().await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .and(body_string_contains("payment_intent=pi_admin"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "re_admin", "object": "refund", "status": "succeeded", "amount": 499,
            "payment_intent": "pi_admin",
        })))
        .expect(1)
        .mount(&stripe)
        .await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let admin = admin(&app).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    deliver(
        &app,
        &event(
            "evt_paid",
            "payment_intent.succeeded",
            now(),
            json!({"id": "pi_admin", "object": "payment_intent", "status": "succeeded",
                   "amount": 499, "amount_received": 499, "currency": "usd",
                   "metadata": {"user_id": buyer.id, "purpose": "personality_detailed"}}),
        ),
    )
    .await;
    let payment = only_payment(&app, &buyer).await;

    let codes = parallel_refunds(&app, &admin, payment, 8).await;
    assert_eq!(codes.iter().filter(|code| **code == 200).count(), 1);
    assert_eq!(
        count_where(&app, "billing_refunds", "done_at IS NOT NULL").await,
        1
    );
    let requests = stripe.received_requests().await.unwrap();
    let refunds: Vec<_> = requests
        .iter()
        .filter(|r| r.url.path() == "/v1/refunds")
        .collect();
    assert_eq!(refunds.len(), 1);
    assert_eq!(
        refunds[0].headers.get("idempotency-key").unwrap(),
        "refund-pi_admin-full"
    );
    // Stripe's event moves the payment.
    deliver(
        &app,
        &event(
            "evt_refunded",
            "charge.refunded",
            now(),
            json!({"id": "ch_admin", "payment_intent": "pi_admin", "amount": 499,
                   "amount_refunded": 499, "refunded": true}),
        ),
    )
    .await;
    assert_eq!(payments_of(&app, &buyer).await[0]["status"], "refunded");
    assert_eq!(audited(&app, "payment_refunded").await.len(), 1);
}

/// Mark as Paid for the partner at `pay`: 201 and the payout.
async fn paid_out(app: &TestApp, admin: &Caller, pay: &str) -> Value {
    let reply = post(app, pay, admin, json!({})).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body
}

async fn a_partner_owing_money_back_is_listed_and_the_next_payout_nets_it(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let (partner_user, account) = partner(&app, &admin, "p@example.com", "OWED", "pro").await;
    let pay = format!("/api/v1/admin/payouts/{}", account["id"].as_str().unwrap());

    // A sale paid out, then refunded by an admin: the partner owes it back.
    let buyer = sign_up_referred(&app, "buyer@example.com", "OWED").await;
    buy(&app, &buyer, "personality_detailed", None).await; // 499 × 20 % = 100
    let payout = paid_out(&app, &admin, &pay).await;
    assert_eq!(payout["totalAmountCents"], 100);
    let payment = only_payment(&app, &buyer).await;
    post(
        &app,
        &refund_path(payment),
        &admin,
        json!({"reason": "The analysis did not load"}),
    )
    .await
    .ok();
    assert_eq!(
        portal(&app, &partner_user).await["totals"]["payableCents"],
        -100
    );
    let listed = get(&app, "/api/v1/admin/payouts", &admin).await.ok();
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["code"] == "OWED")
        .expect("the partner who owes money back is listed")
        .clone();
    assert_eq!(row["owedBackCents"], 100, "{row}");
    assert_eq!(row["payableCents"], 0);
    post(&app, &pay, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "nothing_payable");

    // The next sale is netted: 200 less the 100 owed.
    let next = sign_up_referred(&app, "next@example.com", "OWED").await;
    buy(&app, &next, "subscription", None).await; // 999 × 20 % = 200
    let listed = get(&app, "/api/v1/admin/payouts", &admin).await.ok();
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["code"] == "OWED")
        .unwrap()
        .clone();
    assert_eq!(row["owedBackCents"], 0, "{row}");
    assert_eq!(row["payableCents"], 100);
    let payout = paid_out(&app, &admin, &pay).await;
    assert_eq!(payout["totalAmountCents"], 100);
    let listed = get(&app, "/api/v1/admin/payouts", &admin).await.ok();
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|row| row["code"] != "OWED"),
        "nothing owed either way: {listed}"
    );
}
