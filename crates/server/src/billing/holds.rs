//! Holds: a payment authorised now, and captured or released later (a
//! contact fee while the contestant decides). The domain that sold the thing
//! asks for an outcome by its reference (the contact request's id); billing
//! finds the hold, asks the provider and delivers the sandbox's events, so a
//! payment changes only through fulfilment, as every payment does.
//!
//! One reference holds money once. Its payment is the first one authorised
//! (fulfilment orders them under the buyer's row lock); any later one is
//! marked `duplicate_of` it and given back at once through the refunds
//! queue. [`release_strays`] (run by the contact expiry job) finds a hold
//! that is not its reference's payment but was never marked, as after a
//! crash or before this rule, and gives it back the same way. A capture
//! takes the reference's payment only; a release lets every hold go.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, TransactionTrait,
};
use uuid::Uuid;

use super::entity::payment;
use super::{deliver_sandbox_events, refunds};
use crate::db::entities::users;
use crate::http::AppState;
use crate::providers::payments::PaymentError;

/// A hold waiting for an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// What it was placed for.
    pub reference: Uuid,
    /// When it was placed (confirmed by the provider's event).
    pub placed_at: DateTime<Utc>,
}

/// Every hold still held, optionally only those placed by `placed_before`.
pub async fn held(
    db: &impl ConnectionTrait,
    placed_before: Option<DateTime<Utc>>,
) -> Result<Vec<Held>, DbErr> {
    let mut query = payment::Entity::find()
        .filter(payment::Column::Status.eq(HELD))
        .filter(payment::Column::ContactRequestId.is_not_null())
        .filter(payment::Column::DuplicateOf.is_null());
    if let Some(at) = placed_before {
        query = query.filter(payment::Column::CreatedAt.lte(at));
    }
    Ok(query
        .all(db)
        .await?
        .into_iter()
        .filter_map(|row| {
            Some(Held {
                reference: row.contact_request_id?,
                placed_at: row.created_at,
            })
        })
        .collect())
}

const HELD: &str = payment::Status::Held.as_str();

/// The reason a duplicate hold is given back, in the refunds queue.
pub const PAID_TWICE: &str =
    "This contact request was paid for already: the second payment is given back";

/// States of a payment that holds or took money for its reference (and
/// may have given it back since). A canceled payment is not one: it may
/// never have been authorised (a checkout that expired at Stripe cancels its
/// PaymentIntent), and a hold placed after a released one is the expiry
/// job's to release (the request is denied).
const HELD_MONEY: [payment::Status; 4] = [
    payment::Status::Held,
    payment::Status::Succeeded,
    payment::Status::PartiallyRefunded,
    payment::Status::Refunded,
];

/// The payments for `reference` that count (not duplicates), in the states
/// of [`HELD_MONEY`]: captured ones first, then by when they were recorded.
async fn counted(db: &impl ConnectionTrait, reference: Uuid) -> Result<Vec<payment::Model>, DbErr> {
    let mut rows = payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(reference))
        .filter(payment::Column::DuplicateOf.is_null())
        .filter(payment::Column::Status.is_in(payment::Status::stored(&HELD_MONEY)))
        .order_by_asc(payment::Column::CreatedAt)
        .order_by_asc(payment::Column::Id)
        .all(db)
        .await?;
    rows.sort_by_key(|row| row.state() == payment::Status::Held);
    Ok(rows)
}

/// Another payment for `reference` than `except` that holds or captured
/// its money (refunded since, maybe): the reference's payment, if any.
pub async fn other_live_payment(
    db: &impl ConnectionTrait,
    reference: Uuid,
    except: Uuid,
) -> Result<Option<Uuid>, DbErr> {
    Ok(counted(db, reference)
        .await?
        .into_iter()
        .map(|row| row.id)
        .find(|id| *id != except))
}

/// Marks `payment_id` a duplicate of `live` (once): it no longer counts.
pub async fn mark_duplicate(
    db: &impl ConnectionTrait,
    payment_id: Uuid,
    live: Uuid,
) -> Result<bool, DbErr> {
    let marked = payment::Entity::update_many()
        .col_expr(payment::Column::DuplicateOf, Expr::value(live))
        .col_expr(payment::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(payment::Column::Id.eq(payment_id))
        .filter(payment::Column::DuplicateOf.is_null())
        .exec(db)
        .await?;
    Ok(marked.rows_affected == 1)
}

/// The provider's id of the hold that is `reference`'s payment, if it is
/// held (never a duplicate's).
async fn held_intent(db: &impl ConnectionTrait, reference: Uuid) -> Result<Option<String>, DbErr> {
    Ok(counted(db, reference)
        .await?
        .into_iter()
        .next()
        .filter(|payment| payment.state() == payment::Status::Held)
        .and_then(|payment| payment.provider_payment_intent_id))
}

/// Every hold placed for `reference`: the provider's ids.
async fn held_intents(db: &impl ConnectionTrait, reference: Uuid) -> Result<Vec<String>, DbErr> {
    Ok(payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(reference))
        .filter(payment::Column::Status.eq(HELD))
        .all(db)
        .await?
        .into_iter()
        .filter_map(|payment| payment.provider_payment_intent_id)
        .collect())
}

/// When the first payment for `reference` was recorded (its hold placed).
pub async fn placed_at(
    db: &impl ConnectionTrait,
    reference: Uuid,
) -> Result<Option<DateTime<Utc>>, DbErr> {
    Ok(payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(reference))
        .order_by_asc(payment::Column::CreatedAt)
        .one(db)
        .await?
        .map(|payment| payment.created_at))
}

/// Whether a hold for `reference` is confirmed and waiting.
pub async fn is_held(db: &impl ConnectionTrait, reference: Uuid) -> Result<bool, DbErr> {
    Ok(held_intent(db, reference).await?.is_some())
}

/// Captures the hold placed for `reference`: the buyer is charged. False
/// when there is none to capture.
pub async fn capture(state: &AppState, reference: Uuid) -> Result<bool, PaymentError> {
    let Some(intent) = held_intent(&state.db, reference).await? else {
        return Ok(false);
    };
    state.payments.provider.capture(&intent).await?;
    deliver_sandbox_events(state).await;
    Ok(true)
}

/// Releases every hold placed for `reference`: the buyer keeps their
/// money. False when there is none to release.
pub async fn release(state: &AppState, reference: Uuid) -> Result<bool, PaymentError> {
    let intents = held_intents(&state.db, reference).await?;
    if intents.is_empty() {
        return Ok(false);
    }
    let mut released = Ok(true);
    for intent in intents {
        if let Err(err) = state.payments.provider.release(&intent).await {
            released = Err(err);
        }
    }
    // Events the provider emitted before failing still count.
    deliver_sandbox_events(state).await;
    released
}

/// Gives back every hold that is not its reference's payment and was never
/// marked so (left by a crash between two steps, or from before one hold
/// per reference): marked a duplicate and owed back through the refunds
/// queue, which releases it at the provider. How many were found.
pub async fn release_strays(state: &AppState) -> Result<usize, DbErr> {
    let held = payment::Entity::find()
        .filter(payment::Column::Status.eq(HELD))
        .filter(payment::Column::ContactRequestId.is_not_null())
        .filter(payment::Column::DuplicateOf.is_null())
        .all(&state.db)
        .await?;
    let mut found = 0;
    for stray in held {
        let Some(reference) = stray.contact_request_id else {
            continue;
        };
        let txn = state.db.begin().await?;
        // The order of the buyer's payments, as fulfilment keeps it.
        if let Some(user_id) = stray.user_id {
            lock_user(&txn, user_id).await?;
        }
        // Still a hold nobody marked, now that this instance holds the lock.
        let unmarked = payment::Entity::find_by_id(stray.id)
            .one(&txn)
            .await?
            .is_some_and(|row| row.status == HELD && row.duplicate_of.is_none());
        let live = counted(&txn, reference)
            .await?
            .into_iter()
            .next()
            .filter(|live| unmarked && live.id != stray.id);
        if let Some(live) = live
            && mark_duplicate(&txn, stray.id, live.id).await?
        {
            tracing::warn!(payment = %stray.id, live = %live.id, "a stray contact hold: it is released");
            refunds::owe(
                &txn,
                stray.user_id,
                &stray.provider,
                refunds::PAYMENT,
                &stray.id.to_string(),
                PAID_TWICE,
            )
            .await?;
            found += 1;
        }
        txn.commit().await?;
    }
    if found > 0 {
        // The sandbox's releases are delivered (and the refunds settled) now.
        deliver_sandbox_events(state).await;
        if state.payments.sandbox.is_none() {
            refunds::settle(state).await?;
        }
    }
    Ok(found)
}

/// Takes the user's row lock (PostgreSQL; SQLite has one writer), as
/// fulfilment does before it orders one buyer's payments.
async fn lock_user(db: &impl ConnectionTrait, user_id: Uuid) -> Result<(), DbErr> {
    users::Entity::update_many()
        .col_expr(
            users::Column::UpdatedAt,
            Expr::col(users::Column::UpdatedAt),
        )
        .filter(users::Column::Id.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}
