//! The caller's subscription and payments: `check-subscription`, and My
//! Account's view, cancel at period end and resume.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::entity::{self as subscriptions, payment};
use super::fulfil::apply_state;
use super::{PREMIUM_EDITING, deliver_sandbox_events, provider_error};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, Json};

/// The caller's Premium subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct SubscriptionStatus {
    /// An active `premium_editing` subscription that has not expired.
    pub subscribed: bool,
    /// `premium_editing`, or `null` without a subscription.
    #[schema(required = true)]
    pub plan: Option<String>,
    /// The provider's status (`active`, `past_due`, `canceled`, …), or `null`.
    #[schema(required = true)]
    pub status: Option<String>,
    /// The end of the paid period: the renewal date, or the end date when
    /// `cancel_at_period_end`.
    #[schema(required = true)]
    pub expires_at: Option<DateTime<Utc>>,
    /// Ends at `expires_at` instead of renewing.
    pub cancel_at_period_end: bool,
}

/// One of the caller's payments.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentItem {
    pub id: Uuid,
    /// `subscription`, `personality_detailed` or `contact_request`.
    pub purpose: String,
    pub description: String,
    pub amount_cents: i64,
    pub refunded_cents: i64,
    pub currency: String,
    /// `pending`, `held`, `succeeded`, `failed`, `canceled`, `refunded` or
    /// `partially_refunded`.
    pub status: String,
    pub created_at: DateTime<Utc>,
}

/// The user's current premium subscription row: the live one if any, else
/// the most recent.
pub async fn current(
    state: &AppState,
    user_id: Uuid,
) -> Result<Option<subscriptions::Model>, ApiError> {
    let rows = subscriptions::Entity::find()
        .filter(subscriptions::Column::UserId.eq(user_id))
        .filter(subscriptions::Column::PlanType.eq(PREMIUM_EDITING))
        .order_by_desc(subscriptions::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let now = Utc::now();
    let live = rows.iter().find(|row| is_live(row, now)).cloned();
    Ok(live.or_else(|| rows.into_iter().next()))
}

fn is_live(row: &subscriptions::Model, now: DateTime<Utc>) -> bool {
    row.is_active() && row.expires_at.is_none_or(|end| end > now)
}

fn status_of(row: Option<subscriptions::Model>) -> SubscriptionStatus {
    let now = Utc::now();
    match row {
        Some(row) => SubscriptionStatus {
            subscribed: is_live(&row, now),
            plan: Some(row.plan_type),
            status: Some(row.status),
            expires_at: row.expires_at,
            cancel_at_period_end: row.cancel_at_period_end,
        },
        None => SubscriptionStatus {
            subscribed: false,
            plan: None,
            status: None,
            expires_at: None,
            cancel_at_period_end: false,
        },
    }
}

/// Whether the caller has Premium (the spec's `check-subscription`; no body
/// needed).
#[utoipa::path(post, path = "/check-subscription", tag = "billing",
    responses(
        (status = 200, description = "The caller's subscription", body = SubscriptionStatus),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn check_subscription(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<SubscriptionStatus>, ApiError> {
    Ok(Json(status_of(current(&state, user.user_id).await?)))
}

/// The caller's subscription, for My Account.
#[utoipa::path(get, path = "/billing/subscription", tag = "billing",
    responses(
        (status = 200, description = "The caller's subscription", body = SubscriptionStatus),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn my_subscription(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<SubscriptionStatus>, ApiError> {
    Ok(Json(status_of(current(&state, user.user_id).await?)))
}

/// The caller's payments, newest first.
#[utoipa::path(get, path = "/billing/payments", tag = "billing",
    responses(
        (status = 200, description = "The caller's payments", body = [PaymentItem]),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn my_payments(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<Vec<PaymentItem>>, ApiError> {
    let rows = payment::Entity::find()
        .filter(payment::Column::UserId.eq(user.user_id))
        .order_by_desc(payment::Column::CreatedAt)
        .all(&state.db)
        .await?;
    Ok(Json(rows.into_iter().map(payment_item).collect()))
}

pub(super) fn payment_item(row: payment::Model) -> PaymentItem {
    PaymentItem {
        id: row.id,
        purpose: row.purpose,
        description: row.description,
        amount_cents: row.amount_cents,
        refunded_cents: row.refunded_cents,
        currency: row.currency,
        status: row.status,
        created_at: row.created_at,
    }
}

/// Cancels the caller's Premium at the end of the paid period: it stays
/// Premium until `expires_at`, then ends.
#[utoipa::path(post, path = "/billing/subscription/cancel", tag = "billing",
    responses(
        (status = 200, description = "The subscription, now ending at its period end", body = SubscriptionStatus),
        SignedInErrors,
        (status = 404, description = "`no_subscription`", body = ErrorBody),
        (status = 502, description = "`payment_provider_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn cancel_subscription(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<SubscriptionStatus>, ApiError> {
    set_cancel(&state, user.user_id, true).await
}

/// Takes back a cancellation at period end: the subscription renews again.
#[utoipa::path(post, path = "/billing/subscription/resume", tag = "billing",
    responses(
        (status = 200, description = "The subscription, renewing again", body = SubscriptionStatus),
        SignedInErrors,
        (status = 404, description = "`no_subscription`", body = ErrorBody),
        (status = 502, description = "`payment_provider_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn resume_subscription(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<SubscriptionStatus>, ApiError> {
    set_cancel(&state, user.user_id, false).await
}

async fn set_cancel(
    state: &AppState,
    user_id: Uuid,
    cancel: bool,
) -> Result<Json<SubscriptionStatus>, ApiError> {
    let no_subscription = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NoSubscription,
            "You have no active Premium subscription.",
        )
    };
    let row = current(state, user_id)
        .await?
        .filter(|row| is_live(row, Utc::now()))
        .ok_or_else(no_subscription)?;
    let provider = state.payments.provider.clone();
    let (Some(provider_id), true) = (
        row.provider_subscription_id.clone(),
        row.provider == provider.name(),
    ) else {
        return Err(ApiError::conflict(
            ErrorCode::Conflict,
            "This subscription is managed by another payment provider.",
        ));
    };
    if row.cancel_at_period_end == cancel {
        return Ok(Json(status_of(Some(row))));
    }
    let message = if cancel {
        "Failed to cancel the subscription. Please try again."
    } else {
        "Failed to resume the subscription. Please try again."
    };
    let provider_state = provider
        .set_cancel_at_period_end(&provider_id, cancel)
        .await
        .map_err(|err| provider_error(err, message))?;
    // The provider confirmed the change: show it now. Its event, delivered
    // too, says the same.
    let period_end = provider_state
        .current_period_end
        .and_then(|secs| DateTime::from_timestamp(secs, 0));
    apply_state(&state.db, row, &provider_state, period_end, None).await?;
    deliver_sandbox_events(state).await;
    Ok(Json(status_of(current(state, user_id).await?)))
}
