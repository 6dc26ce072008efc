//! A contestant's report of a requester: it blocks them (as Block does) and
//! goes to the one queue of the reports domain (`/admin/reports`) as a
//! report of the conversation, reason `other` with the words given. One
//! report per request. (The `contact_reports` table of the first version is
//! no longer written: its open reports were copied into the queue by
//! `m20261208_8401_reports`.)

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{block, received};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, ClientInfo, Json, Path};
use crate::reports::rules::Reason;
use crate::reports::{NewReport, file};
use crate::values::message::reason as parse_reason;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReportRequesterForm {
    /// Why (1-500 characters).
    pub reason: Option<String>,
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
    client: ClientInfo,
    Path(id): Path<Uuid>,
    Json(form): Json<ReportRequesterForm>,
) -> Result<StatusCode, ApiError> {
    let reason = parse_reason(
        form.reason.as_deref(),
        "Please say why you are reporting this request",
    )?;
    let row = received(&state, id, user.user_id).await?;
    let target = row.id.to_string();
    let filed = file(
        &state,
        NewReport {
            kind: "conversation",
            id: &target,
            reason: Reason::Other,
            details: reason,
            reporter: Some(&user),
            reporter_email: None,
            good_faith: false,
            ip: &client.ip,
        },
    )
    .await?;
    if !filed.first_time {
        return Err(ApiError::conflict(
            ErrorCode::Conflict,
            "You have reported this request already",
        ));
    }
    block(&state, user.user_id, row.requester_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
