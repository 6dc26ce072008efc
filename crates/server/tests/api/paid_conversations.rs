//! Issue 42, sections 2 and 3: a contestant is paid for a conversation, not
//! for a click, and everyone is told where their money went.
//!
//! - The share is payable only once the contestant has written in the
//!   conversation and the refund window has passed; an approval left
//!   unanswered for `payments.reply_window_days` is refunded to the
//!   requester in full, once (8 runs at once on two instances, and after a
//!   crash between the claim and the provider's refund), and both are mailed
//!   why; `/earnings` says the same reason.
//! - Receipts for every charge (Premium each month, the analysis, a contact
//!   fee when captured), refund and reversal mails, and "you've been paid":
//!   each once, however often the provider's events are replayed.
//!
//! Time moves by handing the jobs a later `now` (as `contact::expiry`'s
//! tests do) and by moving stored times back.

use chrono::{DateTime, Duration, Utc};
use prettyscore_server::billing::fulfil;
use prettyscore_server::billing::payouts::unanswered::{claim_unanswered, refund_unanswered};
use prettyscore_server::providers::payments::Event;
use prettyscore_server::providers::payments::sandbox::{Sandbox, events};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::contact::{contestant, created, path, pay, payment_of};
use crate::contact_once::mails;
use crate::harness::{
    Backend, Caller, TestApp, buy_premium, checkout, count, deliver_sandbox_events,
    on_both_databases, pay_in_sandbox, post, sign_up, spawn_app_with,
};
use crate::payouts::{age_captures, connect, earnings, reply, run_job};

on_both_databases!(
    an_approval_nobody_answers_is_refunded_once_and_both_are_told_why,
    a_reply_keeps_the_share_and_a_crash_between_claim_and_refund_refunds_once,
    every_charge_gets_one_receipt_however_often_its_events_are_replayed,
    the_contestant_is_told_when_paid_and_when_a_dispute_takes_it_back,
);

/// The sandbox app whose own payout worker (which also refunds unanswered
/// approvals) stays out of the way after its first tick: the tests run the
/// jobs themselves, at the time they choose.
async fn app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| {
        config.payments.payout_interval_secs = 24 * 3600;
        config.payments.sandbox_renewal_interval_secs = 24 * 3600;
    })
    .await
}

/// A request from `fan` to `star`'s entry, paid (held) and approved
/// (captured).
async fn approved(app: &TestApp, fan: &Caller, star: &Caller, photo: uuid::Uuid) -> Value {
    let request = created(app, fan, photo).await;
    pay(app, fan, &request).await;
    post(app, &path(&request, "approve"), star, json!({}))
        .await
        .ok();
    request
}

/// Every event the sandbox has emitted, delivered again as a provider
/// redelivers them: each one is a duplicate.
async fn replay_sandbox_events(app: &TestApp) {
    let all = events::Entity::find().all(&app.db).await.unwrap();
    assert!(!all.is_empty());
    for row in all {
        let event: Event = serde_json::from_value(row.payload).unwrap();
        let outcome = fulfil(&app.db, &app.state.hooks, "sandbox", &event)
            .await
            .unwrap();
        assert_eq!(outcome, fulfil::Outcome::Duplicate, "{}", row.event_type);
    }
}

/// The same `charge.refunded` again under a new event id (a provider may
/// send two events that say the same): fulfilled, and still mails no one
/// twice.
async fn same_refund_as_a_new_event(app: &TestApp, request: &Value) {
    let intent = payment_of(app, request)
        .await
        .provider_payment_intent_id
        .unwrap();
    let fee = request["feeCents"].as_i64().unwrap();
    let event: Event = serde_json::from_value(json!({
        "id": format!("evt_again_{}", uuid::Uuid::now_v7().simple()),
        "type": "charge.refunded",
        "created": Utc::now().timestamp(),
        "data": {"object": {"id": format!("ch_{intent}"), "object": "charge",
                            "payment_intent": intent, "amount": fee,
                            "amount_refunded": fee, "refunded": true, "currency": "usd"}}
    }))
    .unwrap();
    let outcome = fulfil(&app.db, &app.state.hooks, "sandbox", &event)
        .await
        .unwrap();
    assert_eq!(outcome, fulfil::Outcome::Applied);
}

fn days_from_now(days: i64) -> DateTime<Utc> {
    Utc::now() + Duration::days(days)
}

async fn refunds_of(app: &TestApp, request: &Value) -> i64 {
    let intent = payment_of(app, request)
        .await
        .provider_payment_intent_id
        .unwrap();
    count(
        app,
        &format!(
            "sandbox_events WHERE event_type = 'charge.refunded' AND CAST(payload AS TEXT) LIKE '%{intent}%'"
        ),
    )
    .await
}

async fn an_approval_nobody_answers_is_refunded_once_and_both_are_told_why(backend: Backend) {
    let app = app(backend).await;
    let other = app.second_instance().await;
    let (star, photo) = contestant(&app, "star@example.com", 9.5).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;
    pay(&app, &fan, &request).await;

    // The contestant's mail says a paid request, not a payment, and explains
    // the hold and the rule.
    let received = mails(&app, "contact_request_received").await;
    assert_eq!(received.len(), 1, "{received:?}");
    assert_eq!(received[0].1, "fan sent you a paid request on PrettyScore");
    assert!(
        received[0].2.contains("held on their card, not charged"),
        "{}",
        received[0].2
    );
    assert!(
        received[0].2.contains(
            "If you send them nothing within 7 days of approving, they are refunded in full"
        ),
        "{}",
        received[0].2
    );
    assert!(
        mails(&app, "payment_receipt").await.is_empty(),
        "a hold is not a charge"
    );

    post(&app, &path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    let approval = mails(&app, "contact_request_approved").await;
    assert!(
        approval[0]
            .2
            .contains("within 7 days, you are refunded in full"),
        "{}",
        approval[0].2
    );
    let line = &earnings(&app, &star).await["lines"][0];
    assert_eq!(line["state"], "captured");
    assert_eq!(line["replied"], false);
    let reply_by: DateTime<Utc> = line["replyBy"].as_str().unwrap().parse().unwrap();
    assert!(
        (reply_by - days_from_now(7)).num_minutes().abs() < 5,
        "{reply_by}"
    );

    // Six days on: nothing is due.
    assert_eq!(
        claim_unanswered(&app.state, days_from_now(6))
            .await
            .unwrap(),
        0
    );
    // Eight days on, eight runs at once on two instances: one refund.
    let later = days_from_now(8);
    let runs = futures::future::join_all((0..8).map(|i| {
        let state = if i % 2 == 0 { &app.state } else { &other.state };
        refund_unanswered(state, later)
    }))
    .await;
    let claimed: usize = runs.into_iter().map(Result::unwrap).sum();
    assert_eq!(claimed, 1);
    deliver_sandbox_events(&app).await;
    assert_eq!(payment_of(&app, &request).await.status, "refunded");
    assert_eq!(
        refunds_of(&app, &request).await,
        1,
        "one refund at the provider"
    );
    assert_eq!(count(&app, "billing_refunds").await, 1);

    // The line says why, and a late reply changes nothing.
    reply(&app, &star, &request).await;
    let seen = earnings(&app, &star).await;
    assert_eq!(seen["lines"][0]["state"], "canceled", "{seen}");
    assert_eq!(seen["lines"][0]["reason"], "no_reply");
    assert_eq!(seen["replyWindowDays"], 7);
    assert_eq!(
        seen["totals"],
        json!({"pendingCents": 0, "availableCents": 0, "paidCents": 0})
    );
    // The requester sees the request refunded.
    let sent = crate::harness::get(&app, "/api/v1/contact-requests/sent", &fan)
        .await
        .ok();
    assert_eq!(sent[0]["paymentStatus"], "refunded");

    // Both are mailed once, with the reason; replays mail no one again.
    replay_sandbox_events(&app).await;
    same_refund_as_a_new_event(&app, &request).await;
    refund_unanswered(&app.state, days_from_now(30))
        .await
        .unwrap();
    let refunded = mails(&app, "payment_refund").await;
    assert_eq!(refunded.len(), 1, "{refunded:?}");
    assert_eq!(refunded[0].0, "fan@example.com");
    assert_eq!(refunded[0].1, "Your PrettyScore refund: $1000.00");
    assert!(
        refunded[0].2.contains("did not write to you within 7 days"),
        "{}",
        refunded[0].2
    );
    assert!(refunded[0].2.contains("Test payment"), "{}", refunded[0].2);
    let reversed = mails(&app, "earning_reversed").await;
    assert_eq!(reversed.len(), 1, "{reversed:?}");
    assert_eq!(reversed[0].0, "star@example.com");
    assert!(
        reversed[0].1.contains("you did not reply in time"),
        "{}",
        reversed[0].1
    );
    assert!(
        reversed[0]
            .2
            .contains("did not write to the requester within 7 days"),
        "{}",
        reversed[0].2
    );
    // The capture's receipt went out once too.
    assert_eq!(mails(&app, "payment_receipt").await.len(), 1);
}

async fn a_reply_keeps_the_share_and_a_crash_between_claim_and_refund_refunds_once(
    backend: Backend,
) {
    let app = app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let (talker, talker_photo) = contestant(&app, "talker@example.com", 9.5).await;
    let (silent, silent_photo) = contestant(&app, "silent@example.com", 9.0).await;
    let talked = approved(&app, &fan, &talker, talker_photo).await;
    let unanswered = approved(&app, &fan, &silent, silent_photo).await;
    reply(&app, &talker, &talked).await;

    // The claim commits, then the server stops before asking the provider:
    // the refund is owed, nothing is refunded yet.
    assert_eq!(
        claim_unanswered(&app.state, days_from_now(8))
            .await
            .unwrap(),
        1
    );
    assert_eq!(payment_of(&app, &unanswered).await.status, "succeeded");
    assert_eq!(
        count(&app, "billing_refunds WHERE done_at IS NULL").await,
        1
    );
    // The next runs (eight at once) refund it once, and never the other.
    let later = days_from_now(8);
    let runs =
        futures::future::join_all((0..8).map(|_| refund_unanswered(&app.state, later))).await;
    assert_eq!(
        runs.into_iter().map(Result::unwrap).sum::<usize>(),
        0,
        "claimed before"
    );
    deliver_sandbox_events(&app).await;
    assert_eq!(payment_of(&app, &unanswered).await.status, "refunded");
    assert_eq!(refunds_of(&app, &unanswered).await, 1);
    assert_eq!(payment_of(&app, &talked).await.status, "succeeded");
    assert_eq!(
        count(&app, "billing_refunds WHERE done_at IS NULL").await,
        0
    );

    // The one who replied is paid once the refund window has passed.
    assert_eq!(
        earnings(&app, &talker).await["lines"][0]["state"],
        "captured"
    );
    age_captures(&app, 8).await;
    assert_eq!(
        earnings(&app, &talker).await["lines"][0]["state"],
        "payable"
    );
    assert_eq!(
        earnings(&app, &silent).await["lines"][0]["state"],
        "canceled"
    );
    connect(&app, &talker).await;
    connect(&app, &silent).await;
    assert_eq!(run_job(&app, 4).await.transferred, 1);
}

async fn every_charge_gets_one_receipt_however_often_its_events_are_replayed(backend: Backend) {
    let app = app(backend).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    let subscription = buy_premium(&app, &buyer).await;
    let analysis = checkout(&app, &buyer, "personality_detailed").await;
    pay_in_sandbox(&app, &buyer, analysis["sessionId"].as_str().unwrap()).await;
    // Eight deliveries at once, and every event again.
    futures::future::join_all((0..8).map(|_| deliver_sandbox_events(&app))).await;
    replay_sandbox_events(&app).await;

    let mut receipts = mails(&app, "payment_receipt").await;
    receipts.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    let (premium, analysis) = (&receipts[1], &receipts[0]);
    assert_eq!(premium.0, "buyer@example.com");
    assert_eq!(premium.1, "Your PrettyScore receipt: $9.99");
    assert_eq!(analysis.1, "Your PrettyScore receipt: $4.99");
    for (_, _, body) in &receipts {
        assert!(body.contains("Amount: $"), "{body}");
        assert!(
            body.contains(&format!("Date: {}", Utc::now().format("%B %-d, %Y"))),
            "{body}"
        );
        assert!(body.contains("Paid with: Test payment (sandbox)"), "{body}");
        assert!(
            body.contains("Questions about this payment? Write to"),
            "{body}"
        );
    }
    assert!(
        premium
            .2
            .contains("What you bought: Premium Editing, one month"),
        "{}",
        premium.2
    );
    assert!(
        analysis
            .2
            .contains("What you bought: Detailed personality analysis"),
        "{}",
        analysis.2
    );

    // The month is over: the renewal's invoice gets its own receipt, once.
    let end = DateTime::from_timestamp((Utc::now() - Duration::seconds(1)).timestamp(), 0).unwrap();
    Sandbox::new(app.db.clone())
        .set_period_end(&subscription, end)
        .await
        .unwrap();
    prettyscore_server::billing::sandbox::run_sandbox_clock(&app.state).await;
    replay_sandbox_events(&app).await;
    let receipts = mails(&app, "payment_receipt").await;
    assert_eq!(receipts.len(), 3, "{receipts:?}");
    assert_eq!(
        receipts.iter().filter(|r| r.1.ends_with("$9.99")).count(),
        2,
        "one receipt per month"
    );
}

async fn the_contestant_is_told_when_paid_and_when_a_dispute_takes_it_back(backend: Backend) {
    let app = app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let (star, photo) = contestant(&app, "star@example.com", 9.5).await;
    let (disputed, disputed_photo) = contestant(&app, "disputed@example.com", 9.0).await;
    let request = approved(&app, &fan, &star, photo).await;
    let other = approved(&app, &fan, &disputed, disputed_photo).await;
    reply(&app, &star, &request).await;
    reply(&app, &disputed, &other).await;
    connect(&app, &star).await;
    age_captures(&app, 8).await;
    assert_eq!(run_job(&app, 8).await.transferred, 1);
    assert_eq!(run_job(&app, 8).await.transferred, 0);
    let paid = mails(&app, "earning_paid").await;
    assert_eq!(paid.len(), 1, "{paid:?}");
    assert_eq!(paid[0].0, "star@example.com");
    assert_eq!(paid[0].1, "You've been paid $750.00 on PrettyScore");
    assert!(paid[0].2.contains("test transfer"), "{}", paid[0].2);

    // A dispute (delivered twice) takes the other share back, said once.
    let intent = payment_of(&app, &other)
        .await
        .provider_payment_intent_id
        .unwrap();
    let event: Event = serde_json::from_value(json!({
        "id": format!("evt_dispute_{intent}"),
        "type": "charge.dispute.created",
        "created": Utc::now().timestamp(),
        "data": {"object": {"id": format!("dp_{intent}"), "object": "dispute",
                            "payment_intent": intent, "charge": format!("ch_{intent}"),
                            "amount": other["feeCents"], "status": "needs_response",
                            "reason": "fraudulent"}}
    }))
    .unwrap();
    for _ in 0..2 {
        fulfil(&app.db, &app.state.hooks, "sandbox", &event)
            .await
            .unwrap();
    }
    let seen = earnings(&app, &disputed).await;
    assert_eq!(seen["lines"][0]["state"], "canceled", "{seen}");
    assert_eq!(seen["lines"][0]["reason"], "dispute");
    let reversed = mails(&app, "earning_reversed").await;
    assert_eq!(reversed.len(), 1, "{reversed:?}");
    assert_eq!(reversed[0].0, "disputed@example.com");
    assert!(
        reversed[0].2.contains("disputed the charge"),
        "{}",
        reversed[0].2
    );
}
