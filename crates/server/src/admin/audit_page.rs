//! `/admin/audit`: administrators' decisions on the admin pages, newest
//! first, from the audit log (entries of `log_type` `admin`, written by
//! `http::extract::AdminAction`): who, what, when, and what it was applied to
//! with the state before and after.

use axum::extract::State;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbBackend, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::db::audit::ADMIN_LOG_TYPE;
use crate::db::entities::audit_log_entries;
use crate::http::AppState;
use crate::http::error::{AdminErrors, ApiError};
use crate::http::extract::{AdminUser, Json, Query};

/// Entries per page.
const PAGE: u64 = 50;

/// One decision.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminAuditEntry {
    pub id: Uuid,
    /// e.g. `verification_request_approved`.
    pub action: String,
    pub admin_id: Option<Uuid>,
    pub admin_email: String,
    pub ip_address: String,
    /// What it was applied to, with `before` and `after`.
    #[schema(value_type = Object)]
    pub details: Value,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminAuditPage {
    pub entries: Vec<AdminAuditEntry>,
    /// Pass as `before` for older entries; null on the last page.
    #[schema(required = true)]
    pub next_before: Option<Uuid>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Entries older than this one (the previous page's `nextBefore`).
    pub before: Option<Uuid>,
}

/// Administrators' decisions, newest first, 50 a page.
#[utoipa::path(get, path = "/admin/audit", tag = "admin",
    params(AuditQuery),
    responses(
        (status = 200, description = "A page of decisions", body = AdminAuditPage),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_audit(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<AuditQuery>,
) -> Result<Json<AdminAuditPage>, ApiError> {
    // The payload is jsonb on PostgreSQL and JSON text on SQLite.
    let log_type = match state.db.get_database_backend() {
        DbBackend::Postgres => "payload->>'log_type'",
        _ => "json_extract(payload, '$.log_type')",
    };
    let mut select = audit_log_entries::Entity::find()
        .filter(Expr::cust(format!("{log_type} = '{ADMIN_LOG_TYPE}'")))
        .order_by_desc(audit_log_entries::Column::Id)
        .limit(PAGE + 1);
    if let Some(before) = query.before {
        // UUIDv7 ids order by time.
        select = select.filter(audit_log_entries::Column::Id.lt(before));
    }
    let mut rows = select.all(&state.db).await?;
    let more = rows.len() as u64 > PAGE;
    rows.truncate(PAGE as usize);
    let next_before = more.then(|| rows.last().map(|row| row.id)).flatten();
    let entries = rows
        .into_iter()
        .map(|row| {
            let text = |key: &str| row.payload[key].as_str().unwrap_or_default().to_owned();
            AdminAuditEntry {
                id: row.id,
                action: text("action"),
                admin_id: row.payload["actor_id"]
                    .as_str()
                    .and_then(|id| id.parse().ok()),
                admin_email: text("actor_username"),
                ip_address: row.ip_address.clone(),
                details: row.payload["traits"].clone(),
                created_at: row.created_at,
            }
        })
        .collect();
    Ok(Json(AdminAuditPage {
        entries,
        next_before,
    }))
}
