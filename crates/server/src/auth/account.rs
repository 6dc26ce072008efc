//! The user's own account: download everything we hold about them
//! (`GET /api/v1/account/export`) and delete it (`DELETE /api/v1/account`).
//!
//! Both loop over the app's registry of user data (`http::user_data`), where
//! every domain that keeps a user's data registers its export section and its
//! delete step; this domain's own share is [`Account`]: the user, profile,
//! factors and sessions.

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::db::entities::{mfa_factors, profiles, sessions, users, webauthn_credentials};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{AuthUser, ClientInfo};
use crate::http::user_data::UserData;

/// The document `GET /api/v1/account/export` answers.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct AccountExport {
    /// Layout version of this document.
    pub format: u32,
    pub exported_at: chrono::DateTime<Utc>,
    pub user_id: Uuid,
    /// One entry per domain that keeps the user's data: `account` (user,
    /// profile, factors, sessions), `photos`, …
    #[schema(value_type = Object)]
    pub sections: Map<String, Value>,
}

/// Version of the export document's layout.
pub const EXPORT_FORMAT: u32 = 1;

/// The auth domain's share of a user's data: the `account` section (user,
/// profile, factors, sessions). Its rows go with the user's row.
pub struct Account;

#[async_trait::async_trait]
impl UserData for Account {
    fn name(&self) -> &'static str {
        "account"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        account_section(state, user_id).await.map(Some)
    }
}

async fn account_section(state: &AppState, user_id: Uuid) -> anyhow::Result<Value> {
    let user = users::Entity::find_by_id(user_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| anyhow::anyhow!("user {user_id} is gone"))?;
    let profile = profiles::Entity::find_by_id(user_id).one(&state.db).await?;
    let factors = mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(user_id))
        .all(&state.db)
        .await?;
    let passkeys = webauthn_credentials::Entity::find()
        .filter(webauthn_credentials::Column::UserId.eq(user_id))
        .order_by_asc(webauthn_credentials::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let sessions = sessions::Entity::find()
        .filter(sessions::Column::UserId.eq(user_id))
        .order_by_desc(sessions::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let user_json = super::users::user_json(&state.db, &user)
        .await
        .map_err(|err| anyhow::anyhow!("{err}"))?;
    let community = super::community::export_section(&state.db, user_id).await?;
    Ok(json!({
        "user": user_json,
        "profile": profile.map(|p| json!({
            "id": p.id,
            "email": p.email,
            "is_verified": p.is_verified,
            "created_at": p.created_at,
            "updated_at": p.updated_at,
        })),
        // Factor secrets are never exported: they are credentials, not data.
        "factors": factors.iter().map(super::users::factor_json).collect::<Vec<_>>(),
        // Likewise passkeys: their names and dates, not their keys.
        "passkeys": passkeys.iter().map(|p| json!({
            "id": p.id,
            "friendly_name": p.friendly_name,
            "created_at": p.created_at,
            "last_used_at": p.last_used_at,
        })).collect::<Vec<_>>(),
        // The date of birth on file and every acceptance of the terms.
        "date_of_birth": community["date_of_birth"],
        "terms_acceptances": community["terms_acceptances"],
        "sessions": sessions.iter().map(|s| json!({
            "id": s.id,
            "aal": s.aal,
            "user_agent": s.user_agent,
            "ip": s.ip,
            "created_at": s.created_at,
            "refreshed_at": s.refreshed_at,
        })).collect::<Vec<_>>(),
    }))
}

/// Everything we hold about the signed-in user, as one JSON download.
/// Needs `Authorization: Bearer <access token>`.
#[utoipa::path(
    get,
    path = "/account/export",
    tag = "account",
    responses(
        (status = 200, description = "The user's data", body = AccountExport),
        (status = 401, description = "Not signed in", body = ErrorBody),
    )
)]
pub async fn export(State(state): State<AppState>, user: AuthUser) -> Result<Response, ApiError> {
    let sections = state
        .user_data
        .export(&state, user.user_id)
        .await
        .map_err(ApiError::internal)?;
    let document = AccountExport {
        format: EXPORT_FORMAT,
        exported_at: Utc::now(),
        user_id: user.user_id,
        sections,
    };
    let mut response = axum::Json(document).into_response();
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"prettyscore-my-data.json\""),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The optional body of `DELETE /api/v1/account`.
#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
pub struct DeleteAccountBody {
    /// The code mailed by `GET /auth/v1/reauthenticate`; needed when the
    /// sign-in is more than 5 minutes old.
    #[serde(default)]
    pub nonce: Option<String>,
}

fn reauthentication_needed() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::ReauthenticationNeeded,
        "For your security, sign in again or enter the code we emailed you to delete your account.",
    )
}

/// Deletes the signed-in user's account and everything that is theirs.
/// Needs `Authorization: Bearer <access token>` of a session that signed in
/// at most 5 minutes ago, or else the reauthentication code
/// (`GET /auth/v1/reauthenticate` mails it) as `{"nonce": "123456"}`.
#[utoipa::path(
    delete,
    path = "/account",
    tag = "account",
    request_body(content = Option<DeleteAccountBody>, content_type = "application/json"),
    responses(
        (status = 204, description = "The account is gone"),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 403, description = "`reauthentication_needed`: the sign-in is older than 5 minutes and no valid code was sent; `insufficient_aal`: the second factor is missing", body = ErrorBody),
    )
)]
pub async fn delete_account(
    State(state): State<AppState>,
    user: AuthUser,
    client: ClientInfo,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let body: DeleteAccountBody = if body.iter().all(u8::is_ascii_whitespace) {
        DeleteAccountBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|err| {
            ApiError::invalid("The request body has a missing or invalid field.").with_cause(err)
        })?
    };
    if !user.signed_in_recently() {
        let nonce = body
            .nonce
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .ok_or_else(reauthentication_needed)?;
        let email = users::Entity::find_by_id(user.user_id)
            .one(&state.db)
            .await?
            .and_then(|u| u.email)
            .ok_or_else(reauthentication_needed)?;
        let ttl = state.config.auth.otp_expiry_secs;
        super::otp::take_code(
            &state.db,
            ttl,
            &email,
            nonce,
            &[super::otp::REAUTHENTICATION],
        )
        .await
        .map_err(|err| reauthentication_needed().with_cause(anyhow::anyhow!("{err}")))?;
    }
    remove_user(&state, user.user_id, &client)
        .await
        .map_err(ApiError::internal)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Deletes a user: every registered domain's delete step first (stored
/// objects such as images), then the user row, which cascades to every table
/// keyed by the user (identities, sessions, factors, the profile, photos…).
/// Then the address it had is told (`client` did it).
pub async fn remove_user(
    state: &AppState,
    user_id: Uuid,
    client: &ClientInfo,
) -> anyhow::Result<()> {
    let user = users::Entity::find_by_id(user_id).one(&state.db).await?;
    state.user_data.delete(state, user_id).await?;
    users::Entity::delete_by_id(user_id).exec(&state.db).await?;
    crate::db::audit::record(
        &state.db,
        "user_deleted",
        Some(user_id),
        None,
        "",
        json!({}),
    )
    .await;
    tracing::info!(user = %user_id, "account deleted");
    if let Some(user) = user {
        super::notices::notify(
            state,
            &user,
            super::notices::Change::AccountDeleted,
            None,
            client,
        )
        .await;
    }
    Ok(())
}
