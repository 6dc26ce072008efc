//! The user's own account: download everything we hold about them
//! (`GET /api/v1/account/export`) and delete it (`DELETE /api/v1/account`).
//!
//! Other domains join in at two named places: [`export_sections`] (each adds
//! its section to the download) and [`delete_user_media`] (each deletes the
//! stored objects a cascade cannot reach, such as photo images).

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::db::entities::{mfa_factors, profiles, sessions, users};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AuthUser;

/// The document `GET /api/v1/account/export` answers.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct AccountExport {
    /// Layout version of this document.
    pub format: u32,
    pub exported_at: chrono::DateTime<Utc>,
    pub user_id: Uuid,
    /// One entry per domain: `account` (user, profile, factors, sessions),
    /// later `photos` and others.
    #[schema(value_type = Object)]
    pub sections: Map<String, Value>,
}

/// Version of the export document's layout.
pub const EXPORT_FORMAT: u32 = 1;

/// Every section of a user's data export, keyed by name. A domain that keeps
/// user data adds one line here (e.g. `photos`).
pub async fn export_sections(
    state: &AppState,
    user_id: Uuid,
) -> anyhow::Result<Map<String, Value>> {
    let mut sections = Map::new();
    sections.insert("account".into(), account_section(state, user_id).await?);
    sections.insert(
        "photos".into(),
        crate::photos::export(state, user_id).await?,
    );
    Ok(sections)
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
    let sessions = sessions::Entity::find()
        .filter(sessions::Column::UserId.eq(user_id))
        .order_by_desc(sessions::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let user_json = super::users::user_json(&state.db, &user)
        .await
        .map_err(|err| anyhow::anyhow!("{err}"))?;
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
    let sections = export_sections(&state, user.user_id)
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

/// Deletes the signed-in user's account and everything that is theirs.
/// Needs `Authorization: Bearer <access token>`.
#[utoipa::path(
    delete,
    path = "/account",
    tag = "account",
    responses(
        (status = 204, description = "The account is gone"),
        (status = 401, description = "Not signed in", body = ErrorBody),
    )
)]
pub async fn delete_account(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Response, ApiError> {
    remove_user(&state, user.user_id)
        .await
        .map_err(ApiError::internal)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Deletes stored objects (images) of the user that the database cascade
/// cannot delete. Runs before the user's rows go. The photos domain adds the
/// deletion of the user's images from storage here.
pub async fn delete_user_media(state: &AppState, user_id: Uuid) -> anyhow::Result<()> {
    crate::photos::delete_user_images(state, user_id).await?;
    crate::edits::temp::delete_user_objects(state, user_id).await?;
    Ok(())
}

/// Deletes a user: their media first, then the user row, which cascades to
/// identities, sessions, refresh tokens, factors, codes and the profile.
pub async fn remove_user(state: &AppState, user_id: Uuid) -> anyhow::Result<()> {
    delete_user_media(state, user_id).await?;
    users::Entity::delete_by_id(user_id).exec(&state.db).await?;
    super::audit::record(
        &state.db,
        "user_deleted",
        Some(user_id),
        None,
        "",
        json!({}),
    )
    .await;
    tracing::info!(user = %user_id, "account deleted");
    Ok(())
}
