//! Periodic jobs on several instances (issue 25, item 4): two instances on
//! one database run each job at the same moment, as after a simultaneous
//! restart, and each unit of work is done once.
//!
//! - the sandbox's clock: a due subscription renews once (one renewal
//!   payment, its period moved one month, its invoice fulfilled once);
//! - hold expiry: an unanswered contact request is released once (the hold
//!   cancelled once at the provider, the requester mailed once);
//! - the refund worker: a refund owed is claimed and done once;
//! - the orphan sweep: of the claims of one hour, one wins.
//!
//! Covered elsewhere: the temporary-edit sweep
//! (`edits::sweep::two_instances_sweeping_at_once_remove_each_object_once`),
//! the expiry reminder
//! (`contact_once::the_contestant_is_reminded_once_a_day_before_the_hold_expires_across_instances`)
//! and the mail worker, whose several workers send a due message once
//! (`auth::smtp::a_mail_left_sending_by_a_stopped_worker_is_sent_once_more_with_the_same_message_id`).
//! Payouts are marked paid by an admin; no periodic job makes them.

use chrono::{DateTime, Duration, Months, Utc};
use prettyscore_server::billing::entity::{payment, refund};
use prettyscore_server::providers::payments::sandbox::{Sandbox, events, objects};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::json;
use uuid::Uuid;

use crate::contact_once::{entry, mails, paid_request};
use crate::harness::{
    Backend, TestApp, buy_premium, checkout, eventually, in_one_window, on_both_databases,
    payments_of, post, sandbox_app, sign_up, spawn_app, sql, subscription_of,
};

on_both_databases!(
    a_due_subscription_renews_once_when_two_instances_run_the_clock_at_once,
    an_unanswered_contact_hold_is_released_once_across_instances,
    a_refund_owed_is_settled_once_across_instances,
    of_two_instances_claiming_the_orphan_sweep_at_once_one_wins_the_hour
);

/// How many times each job is run at once, alternating between instances.
const RUNS: usize = 8;

/// The first instance for even `i`, the second for odd.
fn either<'a>(i: usize, a: &'a TestApp, b: &'a TestApp) -> &'a TestApp {
    if i.is_multiple_of(2) { a } else { b }
}

async fn sandbox_events_of(app: &TestApp, kind: &str) -> u64 {
    events::Entity::find()
        .filter(events::Column::EventType.eq(kind))
        .count(&app.db)
        .await
        .unwrap()
}

/// Twice renewed would be two invoices: two renewal payments and the period
/// moved two months.
async fn a_due_subscription_renews_once_when_two_instances_run_the_clock_at_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let other = app.second_instance().await;
    let buyer = sign_up(&app, "renews@example.com").await;
    let subscription = buy_premium(&app, &buyer).await;
    assert_eq!(payments_of(&app, &buyer).await.len(), 1);
    let invoices_before = sandbox_events_of(&app, "invoice.paid").await;

    // The month is over.
    let end = DateTime::from_timestamp((Utc::now() - Duration::seconds(1)).timestamp(), 0).unwrap();
    Sandbox::new(app.db.clone())
        .set_period_end(&subscription, end)
        .await
        .unwrap();
    futures::future::join_all((0..RUNS).map(|i| {
        prettyscore_server::billing::sandbox::run_sandbox_clock(&either(i, &app, &other).state)
    }))
    .await;
    // The next tick (on either) delivers whatever a busy moment left and
    // renews nothing more.
    prettyscore_server::billing::sandbox::run_sandbox_clock(&other.state).await;

    let next_end = end.checked_add_months(Months::new(1)).unwrap();
    let object = objects::Entity::find()
        .filter(objects::Column::ObjectId.eq(subscription.as_str()))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        object.data["current_period_end"],
        json!(next_end.timestamp()),
        "the period moved one month: {}",
        object.data
    );
    assert_eq!(
        sandbox_events_of(&app, "invoice.paid").await,
        invoices_before + 1,
        "one renewal invoice"
    );
    let undelivered = events::Entity::find()
        .filter(events::Column::DeliveredAt.is_null())
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(undelivered, 0);
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 2, "one renewal payment: {payments:?}");
    let status = subscription_of(&app, &buyer).await;
    assert_eq!(status["subscribed"], true, "{status}");
    let expires = DateTime::parse_from_rfc3339(status["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(expires.timestamp(), next_end.timestamp(), "{status}");
}

/// Released twice would count two releases, cancel at the provider twice
/// (the second refused) and mail the requester twice.
async fn an_unanswered_contact_hold_is_released_once_across_instances(backend: Backend) {
    use prettyscore_server::contact::entity as contact_request;
    use prettyscore_server::contact::expiry::release_expired;

    let app = sandbox_app(backend).await;
    let other = app.second_instance().await;
    let star = sign_up(&app, "star@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let photo = entry(&app, star.id).await;
    let request = paid_request(&app, &fan, photo).await;
    let id = Uuid::parse_str(request["id"].as_str().unwrap()).unwrap();

    // Not expired yet: nothing to release.
    assert_eq!(release_expired(&other.state, Utc::now()).await.unwrap(), 0);
    // The hold was placed 7 days and a minute ago: nobody answered in time.
    sql(
        &app,
        "UPDATE payments SET created_at = $1 WHERE contact_request_id = $2",
        vec![
            (Utc::now() - Duration::days(7) - Duration::minutes(1)).into(),
            id.into(),
        ],
    )
    .await;
    let now = Utc::now();
    let runs = futures::future::join_all(
        (0..RUNS).map(|i| release_expired(&either(i, &app, &other).state, now)),
    )
    .await;
    let released: usize = runs.into_iter().map(Result::unwrap).sum();
    // An instance's own expiry job may have come due meanwhile on a busy
    // machine and released it first: once in all is what counts (below).
    assert!(released <= 1, "released {released} times");

    let row = contact_request::Entity::find_by_id(id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.status, "denied");
    assert_eq!(
        sandbox_events_of(&app, "payment_intent.canceled").await,
        1,
        "the hold cancelled once at the provider"
    );
    let held = payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(id))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(held.status, "canceled");
    let denied = mails(&app, "contact_request_denied").await;
    assert_eq!(denied.len(), 1, "{denied:?}");
    assert_eq!(denied[0].0, "fan@example.com");
    // The next tick, an hour on (when a lost release is tried again),
    // releases nothing more: the provider's event said it is released.
    let later = Utc::now() + Duration::hours(2);
    assert_eq!(release_expired(&app.state, later).await.unwrap(), 0);
    assert_eq!(release_expired(&other.state, later).await.unwrap(), 0);
    assert_eq!(sandbox_events_of(&app, "payment_intent.canceled").await, 1);
}

/// Settled twice would count two settles and two claims (attempts).
async fn a_refund_owed_is_settled_once_across_instances(backend: Backend) {
    use prettyscore_server::billing::refunds::{PAYMENT, owe, settle};

    // The clocks (which settle after delivering events) stay out of the way.
    let app = crate::harness::spawn_app_with(backend, |config| {
        config.payments.stripe.webhook_secret = Some(prettyscore_server::config::Secret::new(
            crate::harness::WEBHOOK_SECRET,
        ));
        config.payments.sandbox_renewal_interval_secs = 3600;
    })
    .await;
    let other = app.second_instance().await;
    let buyer = sign_up(&app, "refunded@example.com").await;
    let opened = checkout(&app, &buyer, "personality_detailed").await;
    let session = opened["sessionId"].as_str().unwrap();
    post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &buyer,
        json!({}),
    )
    .await
    .ok();
    let paid = payment::Entity::find()
        .filter(payment::Column::UserId.eq(buyer.id))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(paid.status, "succeeded");
    owe(
        &app.db,
        Some(buyer.id),
        "sandbox",
        PAYMENT,
        &paid.id.to_string(),
        "paid twice (test)",
    )
    .await
    .unwrap();

    let runs =
        futures::future::join_all((0..RUNS).map(|i| settle(&either(i, &app, &other).state))).await;
    let settled: usize = runs.into_iter().map(Result::unwrap).sum();
    // Each app's own refund worker may have come due meanwhile on a busy
    // machine and done it: once in all is what counts (the claim below).
    assert!(settled <= 1, "settled {settled} times");
    let owed = refund::Entity::find().all(&app.db).await.unwrap();
    assert_eq!(owed.len(), 1);
    assert!(owed[0].done_at.is_some(), "{:?}", owed[0]);
    assert_eq!(owed[0].attempts, 1, "claimed once: {:?}", owed[0]);
    assert_eq!(owed[0].last_error, None);

    // The provider's refund event makes the payment refunded.
    crate::harness::deliver_sandbox_events(&other).await;
    assert_eq!(sandbox_events_of(&app, "charge.refunded").await, 1);
    let intent = objects::Entity::find()
        .filter(objects::Column::ObjectId.eq(paid.provider_payment_intent_id.clone().unwrap()))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(intent.data["amount_refunded"], json!(paid.amount_cents));
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["status"], "refunded", "{payments:?}");
    // Nothing is left to settle.
    assert_eq!(settle(&app.state).await.unwrap(), 0);
    assert_eq!(settle(&other.state).await.unwrap(), 0);
}

/// Two winners of one hour would sweep twice.
async fn of_two_instances_claiming_the_orphan_sweep_at_once_one_wins_the_hour(backend: Backend) {
    // Claims on both sides of the hour would be two hours' claims: a run
    // that met the end of the hour and failed runs again, on a fresh app.
    in_one_window(ORPHAN_SWEEP_WINDOW, move || {
        the_orphan_sweep_is_won_once_in_one_hour(backend)
    })
    .await;
}

const ORPHAN_SWEEP_WINDOW: i64 = 3600;

async fn the_orphan_sweep_is_won_once_in_one_hour(backend: Backend) {
    use prettyscore_server::rate_limit::{current_count, first_in_window};
    const KEY: &str = "job:orphan-sweep";
    const HOUR: i64 = ORPHAN_SWEEP_WINDOW;

    let app = spawn_app(backend).await;
    let other = app.second_instance().await;
    // Both instances claimed the hour as they started; one of them won.
    eventually("both instances to claim the sweep at start", || async {
        current_count(&app.db, KEY, HOUR).await.unwrap() == 2
    })
    .await;

    // A new hour: the claims of both instances at the same moment.
    sql(
        &app,
        "DELETE FROM rate_limit_buckets WHERE key = $1",
        vec![KEY.into()],
    )
    .await;
    let claims = futures::future::join_all(
        (0..RUNS).map(|i| first_in_window(&either(i, &app, &other).db, KEY, HOUR)),
    )
    .await;
    let won = claims
        .into_iter()
        .map(Result::unwrap)
        .filter(|first| *first)
        .count();
    assert_eq!(won, 1);
    // Later in the same hour, nobody wins it again.
    assert!(!first_in_window(&other.db, KEY, HOUR).await.unwrap());
    assert!(!first_in_window(&app.db, KEY, HOUR).await.unwrap());
}
