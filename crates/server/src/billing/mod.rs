//! Billing: checkout, the payment providers' events, the premium
//! subscription and the user's payments.
//!
//! - `POST /functions/v1/create-checkout` opens a checkout at the configured
//!   provider for what the server prices ([`rules`]); `check-subscription`
//!   says whether the caller is premium.
//! - `POST /api/v1/billing/webhook` takes Stripe's events ([`webhook`]); the
//!   sandbox's events come from its log ([`sandbox`]). Both go through
//!   [`fulfil`], the only code that grants anything.
//! - My Account: `GET /api/v1/billing/subscription`, `…/payments`,
//!   `POST …/subscription/cancel` and `…/resume`; the return page asks
//!   `GET …/checkouts/{sessionId}` what became of its checkout ([`returns`]).
//! - [`holds`]: a contact fee's hold, one per request.
//! - [`admin`]: the admins' payments list and refunds.
//! - [`payouts`]: what the app owes its users (a contestant's 75 %), sent
//!   to their payout account once they replied and after the refund window.
//! - [`mail`]: receipts, refund, reversal and "you've been paid" mails, each
//!   once.
//! - The premium entitlement, as an extractor: a handler that takes a
//!   [`MaybePremium`] knows whether the caller has premium editing without
//!   an `if` of its own.

pub mod account;
pub mod admin;
mod checkout;
pub mod entity;
pub mod fulfil;
pub mod holds;
pub mod mail;
pub mod payouts;
pub mod refunds;
mod returns;
pub mod rules;
pub mod sandbox;
mod subscription;
mod webhook;

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;
use chrono::Utc;
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::http::AppState;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::extract::{AuthUser, MaybeAuthUser};
use crate::providers::payments::PaymentError;

pub use fulfil::{Outcome, fulfil};
pub use sandbox::{deliver_sandbox_events, spawn_sandbox_clock};

/// The plan that makes AI edits unlimited.
pub const PREMIUM_EDITING: &str = "premium_editing";

/// `/api/v1/billing/…`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(webhook::webhook))
        .routes(routes!(subscription::my_subscription))
        .routes(routes!(subscription::my_payments))
        .routes(routes!(subscription::cancel_subscription))
        .routes(routes!(subscription::resume_subscription))
        .routes(routes!(sandbox::sandbox_checkout))
        .routes(routes!(sandbox::sandbox_pay))
        .routes(routes!(sandbox::sandbox_decline))
        .routes(routes!(sandbox::sandbox_cancel))
        .routes(routes!(returns::checkout_outcome))
        .routes(routes!(admin::admin_payments))
        .routes(routes!(admin::refund_payment))
        .merge(payouts::routes())
}

/// `/functions/v1/create-checkout` and `/functions/v1/check-subscription`.
pub fn function_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(checkout::create_checkout))
        .routes(routes!(subscription::check_subscription))
}

/// Whether the user has an active premium editing subscription: status
/// `active` and not past its `expires_at`, if it has one.
pub async fn has_premium_editing(db: &impl ConnectionTrait, user_id: Uuid) -> Result<bool, DbErr> {
    let active = entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .filter(entity::Column::PlanType.eq(PREMIUM_EDITING))
        .filter(entity::Column::Status.eq(entity::Status::Active.as_str()))
        .filter(
            Condition::any()
                .add(entity::Column::ExpiresAt.is_null())
                .add(entity::Column::ExpiresAt.gt(Utc::now())),
        )
        .count(db)
        .await?;
    Ok(active > 0)
}

/// Whether the user has paid for `purpose` once (e.g. the detailed
/// personality analysis): a succeeded payment that was not refunded.
pub async fn has_paid_for(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    purpose: rules::Purchase,
) -> Result<bool, DbErr> {
    let paid = entity::payment::Entity::find()
        .filter(entity::payment::Column::UserId.eq(user_id))
        .filter(entity::payment::Column::Purpose.eq(purpose.as_str()))
        .filter(
            entity::payment::Column::Status.is_in(entity::payment::Status::stored(
                &entity::payment::Status::KEPT,
            )),
        )
        .count(db)
        .await?;
    Ok(paid > 0)
}

/// Whether `reference` (a personality result's id) was bought for
/// `purpose`: a succeeded payment that was not refunded in full.
pub async fn purchased(
    db: &impl ConnectionTrait,
    purpose: rules::Purchase,
    reference: &str,
) -> Result<bool, DbErr> {
    let paid = entity::payment::Entity::find()
        .filter(entity::payment::Column::Purpose.eq(purpose.as_str()))
        .filter(entity::payment::Column::PurchaseRef.eq(reference))
        .filter(
            entity::payment::Column::Status.is_in(entity::payment::Status::stored(
                &entity::payment::Status::KEPT,
            )),
        )
        .count(db)
        .await?;
    Ok(paid > 0)
}

/// The caller, signed in or not, and whether they have premium editing.
/// Anonymous callers have no entitlements; a bad token is refused as by
/// [`MaybeAuthUser`] (401 `not_signed_in`).
#[derive(Debug, Clone)]
pub struct MaybePremium {
    pub user: Option<AuthUser>,
    /// An active `premium_editing` subscription.
    pub premium_editing: bool,
}

impl FromRequestParts<AppState> for MaybePremium {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let MaybeAuthUser(user) = MaybeAuthUser::from_request_parts(parts, state).await?;
        let premium_editing = match &user {
            Some(user) => has_premium_editing(&state.db, user.user_id).await?,
            None => false,
        };
        Ok(Self {
            user,
            premium_editing,
        })
    }
}

/// A provider failure, in the user's words; the cause goes to the log.
pub fn provider_error(err: PaymentError, message: &'static str) -> ApiError {
    match err {
        PaymentError::Declined(_) => ApiError::new(
            StatusCode::PAYMENT_REQUIRED,
            ErrorCode::CardDeclined,
            "Your card was declined. Nothing was charged.",
        )
        .with_cause(err),
        PaymentError::Database(db) => ApiError::from(db),
        other => ApiError::new(
            StatusCode::BAD_GATEWAY,
            ErrorCode::PaymentProviderFailed,
            message,
        )
        .with_cause(other),
    }
}
