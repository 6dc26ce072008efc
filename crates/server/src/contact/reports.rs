//! A contestant's report of a requester: it blocks them (as Block does) and
//! goes to the admins, who see the request, the reason and the requester's
//! address, and mark it resolved. One report per request.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{block, entity, received, rules};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{
    AdminErrors, ApiError, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{AdminAction, AdminUser, AuthUser, Json, Path};
use crate::values::message::reason as parse_reason;

const CONSTRAINTS: &[ConstraintError] = &[ConstraintError::conflict(
    "contact_reports_request_key",
    ErrorCode::Conflict,
    "You have reported this request already",
)];

/// The most reports the admin page lists.
const ADMIN_PAGE: u64 = 500;

/// `contact_reports` (`m20261126_006500_contact`).
pub mod report {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "contact_reports")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub contact_request_id: Uuid,
        pub reporter_id: Uuid,
        pub reported_id: Uuid,
        pub reason: String,
        /// `open` or `resolved`.
        pub status: String,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReportRequesterForm {
    /// Why (1-500 characters).
    pub reason: Option<String>,
}

/// A report as the admins see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactReport {
    pub id: Uuid,
    pub contact_request_id: Uuid,
    pub reporter_id: Uuid,
    pub reported_id: Uuid,
    pub reported_name: String,
    #[schema(required = true)]
    pub reported_email: Option<String>,
    pub reason: String,
    /// The request's first message.
    pub message_preview: String,
    /// `open` or `resolved`.
    pub status: String,
    pub created_at: DateTime<Utc>,
}

/// The contestant reports the request's requester: the requester is blocked
/// and the admins are told.
#[utoipa::path(post, path = "/contact-requests/{id}/report", tag = "contact",
    params(("id" = Uuid, Path, description = "The request whose requester is reported")),
    request_body = ReportRequesterForm,
    responses(
        (status = 204, description = "Reported and blocked"),
        SignedInErrors,
        (status = 404, description = "`not_found`: not a request to the caller", body = ErrorBody),
        (status = 409, description = "`conflict`: reported before", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no reason", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn report_requester(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
    Json(form): Json<ReportRequesterForm>,
) -> Result<StatusCode, ApiError> {
    let reason = parse_reason(
        form.reason.as_deref(),
        "Please say why you are reporting this request",
    )?;
    let row = received(&state, id, user.user_id).await?;
    report::ActiveModel {
        id: Set(Uuid::now_v7()),
        contact_request_id: Set(row.id),
        reporter_id: Set(user.user_id),
        reported_id: Set(row.requester_id),
        reason: Set(reason),
        status: Set("open".to_owned()),
        created_at: Set(Utc::now()),
    }
    .insert(&state.db)
    .await
    .on_constraints(CONSTRAINTS)?;
    block(&state, user.user_id, row.requester_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Reports of requesters, open first, then newest first.
#[utoipa::path(get, path = "/admin/contact-reports", tag = "admin",
    responses(
        (status = 200, description = "The reports", body = Vec<ContactReport>),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_contact_reports(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Vec<ContactReport>>, ApiError> {
    let rows = report::Entity::find()
        .order_by_asc(report::Column::Status)
        .order_by_desc(report::Column::CreatedAt)
        .limit(ADMIN_PAGE)
        .all(&state.db)
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let reported = users::Entity::find_by_id(row.reported_id)
            .one(&state.db)
            .await?;
        let request = entity::Entity::find_by_id(row.contact_request_id)
            .one(&state.db)
            .await?;
        out.push(ContactReport {
            id: row.id,
            contact_request_id: row.contact_request_id,
            reporter_id: row.reporter_id,
            reported_id: row.reported_id,
            reported_name: reported
                .as_ref()
                .map(|user| rules::requester_name(&user.raw_user_meta_data))
                .unwrap_or_else(|| rules::ANONYMOUS_NAME.to_owned()),
            reported_email: reported.and_then(|user| user.email),
            reason: row.reason,
            message_preview: request
                .map(|request| request.message_preview)
                .unwrap_or_default(),
            status: row.status,
            created_at: row.created_at,
        });
    }
    Ok(Json(out))
}

/// Marks an open report resolved (once; audited).
#[utoipa::path(post, path = "/admin/contact-reports/{id}/resolve", tag = "admin",
    params(("id" = Uuid, Path, description = "The report's id")),
    responses(
        (status = 204, description = "Resolved"),
        AdminErrors,
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`conflict`: resolved before", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn resolve_contact_report(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    report::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Report not found"))?;
    let changed = report::Entity::update_many()
        .col_expr(report::Column::Status, Expr::value("resolved"))
        .filter(report::Column::Id.eq(id))
        .filter(report::Column::Status.eq("open"))
        .exec(&state.db)
        .await?
        .rows_affected
        > 0;
    if !changed {
        return Err(ApiError::conflict(
            ErrorCode::Conflict,
            "This report was resolved already.",
        ));
    }
    admin
        .record(
            &state.db,
            "contact_report_resolved",
            json!({ "report_id": id, "before": "open", "after": "resolved" }),
        )
        .await;
    Ok(StatusCode::NO_CONTENT)
}
