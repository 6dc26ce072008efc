//! Roles as extractors: a handler that takes an [`AdminUser`] (or an
//! [`AdminAction`]) is never reached by anyone else.

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter};
use uuid::Uuid;

use super::{AuthUser, ClientInfo};
use crate::db::entities::user_roles;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorCode};

/// The role of administrators in `user_roles`.
pub const ADMIN_ROLE: &str = "admin";

/// A signed-in administrator: a `user_roles` row with role `admin`. Anyone
/// else signed in is refused with 403 `admin_only`; a caller who is not
/// signed in with 401 `not_signed_in`.
#[derive(Debug, Clone)]
pub struct AdminUser(pub AuthUser);

pub fn admin_only() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::AdminOnly,
        "Access denied: Admin only",
    )
}

/// Whether the user has the admin role.
pub async fn is_admin(db: &impl ConnectionTrait, user_id: Uuid) -> Result<bool, DbErr> {
    let rows = user_roles::Entity::find()
        .filter(user_roles::Column::UserId.eq(user_id))
        .filter(user_roles::Column::Role.eq(ADMIN_ROLE))
        .count(db)
        .await?;
    Ok(rows > 0)
}

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if !is_admin(&state.db, user.user_id).await? {
            return Err(admin_only());
        }
        Ok(Self(user))
    }
}

/// An administrator deciding something on an admin page: who, and from
/// where, so that each decision leaves its entry in the audit log
/// (`/admin/audit`) with one call.
#[derive(Debug, Clone)]
pub struct AdminAction {
    admin: AuthUser,
    ip: String,
}

impl AdminAction {
    pub fn user_id(&self) -> Uuid {
        self.admin.user_id
    }

    /// Records `action` (e.g. `partner_tier_changed`) with `traits`: what it
    /// was applied to, with the state before and after.
    pub async fn record(&self, db: &impl ConnectionTrait, action: &str, traits: serde_json::Value) {
        crate::db::audit::record_admin(
            db,
            action,
            self.admin.user_id,
            self.admin.email.as_deref(),
            &self.ip,
            traits,
        )
        .await;
    }
}

impl FromRequestParts<AppState> for AdminAction {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let AdminUser(admin) = AdminUser::from_request_parts(parts, state).await?;
        let Ok(client) = ClientInfo::from_request_parts(parts, state).await;
        Ok(Self {
            admin,
            ip: client.ip,
        })
    }
}
