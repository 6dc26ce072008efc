//! Holds: a payment authorised now, and captured or released later (a
//! contact fee while the contestant decides). The domain that sold the thing
//! asks for an outcome by its reference (the contact request's id); billing
//! finds the hold, asks the provider and delivers the sandbox's events, so a
//! payment changes only through fulfilment, as every payment does.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use uuid::Uuid;

use super::deliver_sandbox_events;
use super::entity::payment;
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
        .filter(payment::Column::ContactRequestId.is_not_null());
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

/// The provider's id of the hold placed for `reference`, if one is held.
async fn held_intent(db: &impl ConnectionTrait, reference: Uuid) -> Result<Option<String>, DbErr> {
    Ok(payment::Entity::find()
        .filter(payment::Column::ContactRequestId.eq(reference))
        .filter(payment::Column::Status.eq(HELD))
        .one(db)
        .await?
        .and_then(|payment| payment.provider_payment_intent_id))
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

/// Releases the hold placed for `reference`: the buyer keeps their money.
/// False when there is none to release.
pub async fn release(state: &AppState, reference: Uuid) -> Result<bool, PaymentError> {
    let Some(intent) = held_intent(&state.db, reference).await? else {
        return Ok(false);
    };
    let released = state.payments.provider.release(&intent).await;
    // Events the provider emitted before failing still count.
    deliver_sandbox_events(state).await;
    released.map(|_| true)
}
