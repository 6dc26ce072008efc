//! `GET /api/v1/billing/checkouts/{sessionId}`: what became of one of the
//! caller's checkouts, for the page the buyer returns to. The provider puts
//! the session's id in the return address (`{CHECKOUT_SESSION_ID}`), so the
//! page can say when this payment was given back at once because another
//! one for the same contact request already held the money.

use axum::extract::State;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use super::entity::{checkout, payment};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, SignedInErrors};
use crate::http::extract::{AuthUser, Json, Path};

/// What the return page says when the payment was a second one.
pub const GIVEN_BACK: &str = "This request was paid for already, in another tab or window. \
     The hold this payment placed on your card was released at once: you are charged only once.";

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutOutcome {
    /// `open`, `complete` or `expired`.
    pub status: String,
    /// The payment's status once the provider has told us of it.
    #[schema(required = true)]
    pub payment_status: Option<String>,
    /// This payment was a second one for the same contact request: its hold
    /// is released (or being released) at once.
    pub given_back: bool,
    /// What to tell the buyer when `givenBack`.
    #[schema(required = true)]
    pub message: Option<String>,
}

/// What became of the caller's checkout `sessionId`: its state, its
/// payment's, and whether that payment was given back as a second one.
#[utoipa::path(get, path = "/billing/checkouts/{session_id}", tag = "billing",
    params(("session_id" = String, Path, description = "The provider's checkout session id")),
    responses(
        (status = 200, description = "The checkout's outcome", body = CheckoutOutcome),
        SignedInErrors,
        (status = 404, description = "`not_found`: no such checkout of the caller's", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn checkout_outcome(
    State(state): State<AppState>,
    user: AuthUser,
    Path(session_id): Path<String>,
) -> Result<Json<CheckoutOutcome>, ApiError> {
    let found = checkout::Entity::find()
        .filter(checkout::Column::ProviderSessionId.eq(session_id))
        .filter(checkout::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("We couldn't find this checkout."))?;
    let paid = payment::Entity::find()
        .filter(payment::Column::CheckoutSessionId.eq(found.id))
        .order_by_desc(payment::Column::CreatedAt)
        .one(&state.db)
        .await?;
    let given_back = paid.as_ref().is_some_and(|row| row.duplicate_of.is_some());
    Ok(Json(CheckoutOutcome {
        status: found.status,
        payment_status: paid.map(|row| row.status),
        given_back,
        message: given_back.then(|| GIVEN_BACK.to_owned()),
    }))
}
