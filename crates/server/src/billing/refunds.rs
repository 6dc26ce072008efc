//! Refunds billing owes because a thing was paid for twice: a second
//! Premium subscription (two tabs, a late provider event), a second
//! detailed analysis of one personality result, or a second hold on one
//! contact request (released, as it was never charged); and the refunds an
//! admin gives ([`crate::billing::admin`]).
//!
//! Fulfilment finds the second purchase inside the event's transaction and
//! writes what is owed into `billing_refunds` ([`owe`], once per provider
//! object). [`settle`] then does it at the provider: a subscription is ended
//! now (no renewal) and its payments refunded in full; a payment is
//! refunded in full. Each row is claimed by one conditional UPDATE, so one
//! instance works on it at a time; the provider calls carry idempotency keys,
//! and the provider's own events (`customer.subscription.deleted`,
//! `charge.refunded`) update the subscription and the payment the user sees
//! on My Account. A failure leaves the row to be tried again by the next
//! settle (after each delivery of events, and every minute).

use std::time::Duration;

use chrono::Utc;
use sea_orm::ExprTrait;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};
use uuid::Uuid;

use super::entity::payment::Status;
use super::entity::{payment, refund};
use crate::http::AppState;
use crate::providers::payments::{PaymentError, PaymentProvider};

pub const SUBSCRIPTION: &str = "subscription";
pub const PAYMENT: &str = "payment";

/// A claim older than this is taken to be of an instance that stopped.
const CLAIM_TIMEOUT: chrono::Duration = chrono::Duration::minutes(2);
/// How often the refund worker looks for work.
const EVERY: Duration = Duration::from_secs(60);
/// Rows looked at per settle.
const BATCH: u64 = 20;

/// Records that `target` (a provider subscription id, or our payment id)
/// is owed a refund; a second call for the same target changes nothing.
pub async fn owe(
    db: &impl ConnectionTrait,
    user_id: Option<Uuid>,
    provider: &str,
    kind: &'static str,
    target: &str,
    reason: &str,
) -> Result<(), DbErr> {
    owe_new(db, user_id, provider, kind, target, reason).await?;
    Ok(())
}

/// [`owe`], saying whether this call recorded it (false: it was owed
/// before, whatever the reason).
pub async fn owe_new(
    db: &impl ConnectionTrait,
    user_id: Option<Uuid>,
    provider: &str,
    kind: &'static str,
    target: &str,
    reason: &str,
) -> Result<bool, DbErr> {
    let inserted = refund::Entity::insert(refund::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user_id),
        provider: Set(provider.to_owned()),
        kind: Set(kind.to_owned()),
        target: Set(target.to_owned()),
        reason: Set(reason.to_owned()),
        attempts: Set(0),
        last_error: Set(None),
        ended_at: Set(None),
        claimed_at: Set(None),
        done_at: Set(None),
        created_at: Set(Utc::now()),
    })
    .on_conflict(
        OnConflict::columns([
            refund::Column::Provider,
            refund::Column::Kind,
            refund::Column::Target,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(inserted == 1)
}

/// Starts the worker that settles owed refunds on this instance.
pub fn spawn_refund_worker(state: AppState) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(EVERY);
        loop {
            ticks.tick().await;
            if let Err(err) = settle(&state).await {
                tracing::error!(error = %err, "could not settle the refunds owed");
            }
        }
    });
}

/// Does the refunds owed with the configured provider; how many were done.
pub async fn settle(state: &AppState) -> Result<usize, DbErr> {
    Ok(settle_round(state).await?.0)
}

/// [`settle`], again while a row it found was being worked on elsewhere
/// (another delivery's settle may give it up unfinished, e.g. before the
/// payment it refunds was known): a few short rounds, then the worker's.
pub async fn settle_soon(state: &AppState) -> Result<usize, DbErr> {
    let mut done = 0;
    for _ in 0..20 {
        let (finished, busy) = settle_round(state).await?;
        done += finished;
        if busy == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Ok(done)
}

/// One pass: (done, rows skipped because another settle held them).
async fn settle_round(state: &AppState) -> Result<(usize, usize), DbErr> {
    let provider = state.payments.provider.clone();
    let now = Utc::now();
    let due = refund::Entity::find()
        .filter(refund::Column::DoneAt.is_null())
        .filter(refund::Column::Provider.eq(provider.name()))
        .order_by_asc(refund::Column::CreatedAt)
        .limit(BATCH)
        .all(&state.db)
        .await?;
    let mut done = 0;
    let mut busy = 0;
    for row in due {
        if row.claimed_at.is_some_and(|at| at >= now - CLAIM_TIMEOUT) {
            // Being worked on by another settle.
            busy += 1;
            continue;
        }
        // The claim: one instance wins the row.
        let claimed = refund::Entity::update_many()
            .col_expr(refund::Column::ClaimedAt, Expr::value(Utc::now()))
            .col_expr(
                refund::Column::Attempts,
                Expr::col(refund::Column::Attempts).add(1),
            )
            .filter(refund::Column::Id.eq(row.id))
            .filter(refund::Column::DoneAt.is_null())
            .filter(match row.claimed_at {
                Some(at) => refund::Column::ClaimedAt.eq(at),
                None => refund::Column::ClaimedAt.is_null(),
            })
            .exec(&state.db)
            .await?;
        if claimed.rows_affected != 1 {
            busy += 1;
            continue;
        }
        let outcome = match row.kind.as_str() {
            SUBSCRIPTION => end_subscription(&state.db, provider.as_ref(), &row).await,
            _ => refund_payment(&state.db, provider.as_ref(), &row.target).await,
        };
        let (done_at, error) = match outcome {
            Ok(true) => (Some(Utc::now()), None),
            Ok(false) => (None, Some("the payment is not known yet".to_owned())),
            Err(err) => {
                tracing::warn!(refund = %row.id, error = %err, "a refund owed failed; it will be tried again");
                (None, Some(err.to_string().chars().take(500).collect()))
            }
        };
        refund::Entity::update_many()
            .col_expr(refund::Column::DoneAt, Expr::value(done_at))
            .col_expr(refund::Column::LastError, Expr::value(error))
            .col_expr(
                refund::Column::ClaimedAt,
                Expr::value(Option::<chrono::DateTime<Utc>>::None),
            )
            .filter(refund::Column::Id.eq(row.id))
            .exec(&state.db)
            .await?;
        if done_at.is_some() {
            done += 1;
        }
    }
    Ok((done, busy))
}

/// A refused call the provider answers for something already done (a
/// subscription canceled before, a payment refunded before).
fn done_before(result: Result<(), PaymentError>) -> Result<(), PaymentError> {
    match result {
        Err(PaymentError::Refused(message))
            if message.contains("canceled") || message.contains("refund") =>
        {
            Ok(())
        }
        other => other,
    }
}

/// Ends the subscription now (once) and refunds its payments; false while
/// none of its payments is known with the PaymentIntent to refund.
async fn end_subscription(
    db: &impl ConnectionTrait,
    provider: &dyn PaymentProvider,
    row: &refund::Model,
) -> Result<bool, PaymentError> {
    let subscription = row.target.as_str();
    if row.ended_at.is_none() {
        done_before(provider.cancel_now(subscription).await.map(|_| ()))?;
        refund::Entity::update_many()
            .col_expr(refund::Column::EndedAt, Expr::value(Utc::now()))
            .filter(refund::Column::Id.eq(row.id))
            .exec(db)
            .await?;
    }
    let payments = payment::Entity::find()
        .filter(payment::Column::Provider.eq(provider.name()))
        .filter(payment::Column::ProviderSubscriptionId.eq(subscription))
        .all(db)
        .await?;
    let mut refunded = false;
    for paid in payments {
        match (paid.state(), &paid.provider_payment_intent_id) {
            (Status::Refunded, _) => refunded = true,
            (Status::Succeeded | Status::PartiallyRefunded, Some(intent)) => {
                done_before(provider.refund(intent, None).await.map(|_| ()))?;
                refunded = true;
            }
            _ => {}
        }
    }
    Ok(refunded)
}

/// Refunds our payment `id` in full.
async fn refund_payment(
    db: &impl ConnectionTrait,
    provider: &dyn PaymentProvider,
    id: &str,
) -> Result<bool, PaymentError> {
    let Some(paid) = Uuid::parse_str(id)
        .ok()
        .map(|id| payment::Entity::find_by_id(id).one(db))
    else {
        return Ok(true);
    };
    let Some(paid) = paid.await? else {
        return Ok(true);
    };
    match (paid.state(), &paid.provider_payment_intent_id) {
        (Status::Refunded | Status::Canceled, _) => Ok(true),
        (Status::Succeeded | Status::PartiallyRefunded, Some(intent)) => {
            done_before(provider.refund(intent, None).await.map(|_| ()))?;
            Ok(true)
        }
        // Only held, never charged: letting the hold go gives it back.
        (Status::Held, Some(intent)) => {
            done_before(provider.release(intent).await.map(|_| ()))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}
