//! Development only: the mail the server sent (`GET /api/v1/dev/outbox`), so
//! a newcomer without SMTP can follow a reset or magic link. Answers 404
//! unless `auth.dev_outbox` is on.

use axum::extract::State;
use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::AppState;
use super::error::{ApiError, ErrorBody};
use super::extract::{Json, Query};
use crate::mail::outbox;

/// `/dev/outbox`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(dev_outbox))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OutboxMessage {
    pub id: Uuid,
    pub to: String,
    pub subject: String,
    pub body_text: String,
    pub kind: String,
    pub status: String,
    pub created_at: chrono::DateTime<Utc>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct OutboxQuery {
    /// Only mail to this address.
    pub email: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OutboxList {
    /// Newest first, at most 50.
    pub messages: Vec<OutboxMessage>,
}

/// Development only: the mail the server sent, newest first. Answers 404
/// unless `auth.dev_outbox` is on.
#[utoipa::path(
    get,
    path = "/dev/outbox",
    tag = "development",
    params(OutboxQuery),
    responses(
        (status = 200, description = "Recent mail", body = OutboxList),
        (status = 404, description = "The outbox view is off", body = ErrorBody),
    )
)]
pub async fn dev_outbox(
    State(state): State<AppState>,
    Query(query): Query<OutboxQuery>,
) -> Result<Json<OutboxList>, ApiError> {
    if !state.config.auth.dev_outbox {
        return Err(ApiError::not_found(
            "We couldn't find what you were looking for.",
        ));
    }
    let mut select = outbox::Entity::find().order_by_desc(outbox::Column::CreatedAt);
    if let Some(email) = &query.email {
        select = select.filter(outbox::Column::ToAddress.eq(email.trim().to_lowercase()));
    }
    let messages: Vec<OutboxMessage> = select
        .limit(50)
        .all(&state.db)
        .await?
        .into_iter()
        .map(|row| OutboxMessage {
            id: row.id,
            to: row.to_address,
            subject: row.subject,
            body_text: row.body_text,
            kind: row.kind,
            status: row.status,
            created_at: row.created_at,
        })
        .collect();
    Ok(Json(OutboxList { messages }))
}
