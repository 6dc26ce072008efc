//! Verification badges (docs/spec-rules.md, `/request-verification` and
//! `/admin/verification`): a user asks once (the unique key refuses a second
//! request, even after a rejection); an admin approves, which also sets
//! `profiles.is_verified`, or rejects, with notes either way. Each decision is
//! one conditional UPDATE on a pending request, so it applies once, and goes
//! to the audit log.

pub mod entity;
pub mod rules;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionTrait,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::db::entities::profiles;
use crate::http::AppState;
use crate::http::error::{
    AdminErrors, ApiError, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{AdminAction, AdminUser, AuthUser, Json, Path};
use crate::http::user_data::UserData;
use rules::{VerificationForm, VerificationRequestForm, parse_notes};

pub use entity::Status;

const CONSTRAINTS: &[ConstraintError] = &[ConstraintError::conflict(
    "verification_requests_user_id_key",
    ErrorCode::AlreadyRequested,
    "You have already requested verification",
)];

/// The most requests the admin page lists.
const ADMIN_PAGE: u64 = 500;

/// `/verification…` and `/admin/verification…`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_verification))
        .routes(routes!(my_verification))
        .routes(routes!(admin_requests))
        .routes(routes!(approve_request))
        .routes(routes!(reject_request))
}

/// A request as its author and the admins see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerificationRequest {
    pub id: Uuid,
    pub full_name: String,
    pub reason: String,
    /// Without the @.
    pub instagram_handle: Option<String>,
    pub other_social: Option<String>,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    pub admin_notes: Option<String>,
    pub created_at: DateTime<Utc>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

impl From<entity::Model> for VerificationRequest {
    fn from(row: entity::Model) -> Self {
        Self {
            id: row.id,
            full_name: row.full_name,
            reason: row.reason,
            instagram_handle: row.instagram_handle,
            other_social: row.other_social,
            status: row.status,
            admin_notes: row.admin_notes,
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        }
    }
}

/// The caller's badge and request.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyVerification {
    pub verified: bool,
    /// `null` before the first request.
    #[schema(required = true)]
    pub request: Option<VerificationRequest>,
}

/// Whether the user has the badge.
pub async fn is_verified(
    db: &impl sea_orm::ConnectionTrait,
    user_id: Uuid,
) -> Result<bool, ApiError> {
    Ok(profiles::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .is_some_and(|profile| profile.is_verified))
}

async fn request_of(state: &AppState, user_id: Uuid) -> Result<Option<entity::Model>, ApiError> {
    Ok(entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .one(&state.db)
        .await?)
}

/// Asks for the badge. Once per user; a verified user has nothing to ask.
#[utoipa::path(post, path = "/verification/requests", tag = "verification",
    request_body = VerificationRequestForm,
    responses(
        (status = 201, description = "Submitted", body = VerificationRequest),
        SignedInErrors,
        (status = 409, description = "`already_requested`, or `already_verified`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: a missing name or reason, or a field too long", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn request_verification(
    State(state): State<AppState>,
    user: AuthUser,
    Json(form): Json<VerificationRequestForm>,
) -> Result<(StatusCode, Json<VerificationRequest>), ApiError> {
    let form = VerificationForm::parse(&form)?;
    if is_verified(&state.db, user.user_id).await? {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyVerified,
            "You're already verified",
        ));
    }
    let now = Utc::now();
    let row = entity::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user.user_id),
        full_name: Set(form.full_name),
        reason: Set(form.reason),
        instagram_handle: Set(form.instagram_handle),
        other_social: Set(form.other_social),
        status: Set(Status::Pending.into()),
        admin_notes: Set(None),
        reviewed_by: Set(None),
        reviewed_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&state.db)
    .await
    .on_constraints(CONSTRAINTS)?;
    Ok((StatusCode::CREATED, Json(row.into())))
}

/// The caller's badge and their request, if any.
#[utoipa::path(get, path = "/verification/mine", tag = "verification",
    responses(
        (status = 200, description = "The caller's badge and request", body = MyVerification),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn my_verification(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<MyVerification>, ApiError> {
    Ok(Json(MyVerification {
        verified: is_verified(&state.db, user.user_id).await?,
        request: request_of(&state, user.user_id).await?.map(Into::into),
    }))
}

/// Every request, newest first (the newest 500).
#[utoipa::path(get, path = "/admin/verification/requests", tag = "admin",
    responses(
        (status = 200, description = "The requests", body = Vec<VerificationRequest>),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_requests(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Vec<VerificationRequest>>, ApiError> {
    let rows = entity::Entity::find()
        .order_by_desc(entity::Column::CreatedAt)
        .order_by_desc(entity::Column::Id)
        .limit(ADMIN_PAGE)
        .all(&state.db)
        .await?;
    Ok(Json(rows.into_iter().map(Into::into).collect()))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerificationDecision {
    /// Stored with either outcome; optional.
    #[serde(default)]
    pub admin_notes: Option<String>,
}

/// Applies an admin's decision to a pending request; the request as it
/// stands, or 409 if it was decided before.
async fn decide(
    state: &AppState,
    admin: &AdminAction,
    id: Uuid,
    to: Status,
    notes: Option<String>,
) -> Result<VerificationRequest, ApiError> {
    let now = Utc::now();
    let txn = state.db.begin().await?;
    let changed = entity::Entity::update_many()
        .col_expr(entity::Column::Status, Expr::value(to.as_str()))
        .col_expr(entity::Column::AdminNotes, Expr::value(notes.clone()))
        .col_expr(entity::Column::ReviewedBy, Expr::value(admin.user_id()))
        .col_expr(entity::Column::ReviewedAt, Expr::value(now))
        .col_expr(entity::Column::UpdatedAt, Expr::value(now))
        .filter(entity::Column::Id.eq(id))
        .filter(entity::Column::Status.eq(Status::Pending))
        .exec(&txn)
        .await?
        .rows_affected
        > 0;
    let row = entity::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::not_found("Verification request not found"))?;
    if !changed {
        return Err(ApiError::conflict(
            ErrorCode::Conflict,
            format!("This request was {} already.", row.status),
        ));
    }
    if to == Status::Approved {
        profiles::Entity::update_many()
            .col_expr(profiles::Column::IsVerified, Expr::value(true))
            .col_expr(profiles::Column::UpdatedAt, Expr::value(now))
            .filter(profiles::Column::Id.eq(row.user_id))
            .exec(&txn)
            .await?;
    }
    txn.commit().await?;
    admin.record(&state.db, if to == Status::Approved {
            "verification_request_approved"
        } else {
            "verification_request_rejected"
        }, json!({ "request_id": id, "user_id": row.user_id, "before": Status::Pending.as_str(), "after": to.as_str(), "admin_notes": notes }))
    .await;
    Ok(row.into())
}

/// Approves a pending request; the user gets the badge.
#[utoipa::path(post, path = "/admin/verification/requests/{id}/approve", tag = "admin",
    params(("id" = Uuid, Path, description = "The request's id")),
    request_body = VerificationDecision,
    responses(
        (status = 200, description = "Approved", body = VerificationRequest),
        AdminErrors,
        (status = 404, description = "No such request", body = ErrorBody),
        (status = 409, description = "`conflict`: decided before", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn approve_request(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(body): Json<VerificationDecision>,
) -> Result<Json<VerificationRequest>, ApiError> {
    let notes = parse_notes(body.admin_notes.as_deref())?;
    Ok(Json(
        decide(&state, &admin, id, Status::Approved, notes).await?,
    ))
}

/// Rejects a pending request.
#[utoipa::path(post, path = "/admin/verification/requests/{id}/reject", tag = "admin",
    params(("id" = Uuid, Path, description = "The request's id")),
    request_body = VerificationDecision,
    responses(
        (status = 200, description = "Rejected", body = VerificationRequest),
        AdminErrors,
        (status = 404, description = "No such request", body = ErrorBody),
        (status = 409, description = "`conflict`: decided before", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn reject_request(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(body): Json<VerificationDecision>,
) -> Result<Json<VerificationRequest>, ApiError> {
    let notes = parse_notes(body.admin_notes.as_deref())?;
    Ok(Json(
        decide(&state, &admin, id, Status::Rejected, notes).await?,
    ))
}

/// The user's request, in their export (deleted with the account by cascade).
pub struct VerificationRequests;

#[async_trait::async_trait]
impl UserData for VerificationRequests {
    fn name(&self) -> &'static str {
        "verification_request"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let row = entity::Entity::find()
            .filter(entity::Column::UserId.eq(user_id))
            .one(&state.db)
            .await?;
        Ok(row
            .map(|row| serde_json::to_value(VerificationRequest::from(row)))
            .transpose()?)
    }
}
