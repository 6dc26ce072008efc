//! Billing: subscriptions and what they entitle a user to. So far the premium
//! entitlement, as an extractor: a handler that takes a [`MaybePremium`]
//! knows whether the caller has premium editing without an `if` of its own.
//! Checkout, the payment providers and the subscription's life arrive with
//! payments.

pub mod entity;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use chrono::Utc;
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter,
};
use uuid::Uuid;

use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::{AuthUser, MaybeAuthUser};

/// The plan that makes AI edits unlimited.
pub const PREMIUM_EDITING: &str = "premium_editing";

/// Whether the user has an active premium editing subscription: status
/// `active` and not past its `expires_at`, if it has one.
pub async fn has_premium_editing(db: &impl ConnectionTrait, user_id: Uuid) -> Result<bool, DbErr> {
    let active = entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .filter(entity::Column::PlanType.eq(PREMIUM_EDITING))
        .filter(entity::Column::Status.eq("active"))
        .filter(
            Condition::any()
                .add(entity::Column::ExpiresAt.is_null())
                .add(entity::Column::ExpiresAt.gt(Utc::now())),
        )
        .count(db)
        .await?;
    Ok(active > 0)
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
