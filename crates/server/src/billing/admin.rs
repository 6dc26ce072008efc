//! Admins put money right (issue 42, section 4): `GET /api/v1/admin/payments`
//! lists payments with the payer, and `POST /api/v1/admin/payments/{id}/refund`
//! gives one back in full, with a reason: a charge is refunded, a hold that
//! was never charged is released.
//!
//! The refund goes through the refunds queue ([`super::refunds`]): one row
//! per payment (its unique key), so however often and wherever it is pressed
//! it is asked of the provider once, and retried until it is done. The
//! provider's own event (`charge.refunded`, `payment_intent.canceled`) then
//! moves the payment, and with it the ledgers: the contestant's share is
//! cancelled before it is sent and reversed after; a partner's commission is
//! reduced before payout and clawed back after. Each refund is audited.

use axum::extract::State;
use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::entity::payment::{self, Status};
use super::entity::refund;
use super::payouts::entity::line;
use super::payouts::ledger::{self, LineState};
use super::refunds;
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{AdminErrors, ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{AdminAction, AdminUser, Json, Path, Query};

/// The most payments the admin page lists.
const PAGE: u64 = 100;
/// The longest reason kept.
const MAX_REASON: usize = 500;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentFilter {
    /// Only the payments of the account with this email address.
    pub email: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefundForm {
    /// Why: kept in the audit log and the refunds queue. 1-500 characters.
    pub reason: String,
}

/// A refund asked for, and how far it got.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundProgress {
    pub reason: String,
    pub requested_at: DateTime<Utc>,
    /// The provider did it; the payment follows with the provider's event.
    #[schema(required = true)]
    pub done_at: Option<DateTime<Utc>>,
    /// The provider's last refusal or failure; it is tried again.
    #[schema(required = true)]
    pub last_error: Option<String>,
}

/// A payment as the admins see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPayment {
    pub id: Uuid,
    #[schema(required = true)]
    pub user_id: Option<Uuid>,
    /// The payer's address.
    #[schema(required = true)]
    pub email: Option<String>,
    /// `subscription`, `personality_detailed` or `contact_request`.
    pub purpose: String,
    pub description: String,
    pub amount_cents: i64,
    pub refunded_cents: i64,
    pub currency: String,
    /// `pending`, `held`, `failed`, `succeeded`, `canceled`,
    /// `partially_refunded` or `refunded`.
    pub status: String,
    /// `sandbox` or `stripe`.
    pub provider: String,
    pub created_at: DateTime<Utc>,
    /// A second payment for one contact request, given back at once.
    pub duplicate: bool,
    /// An admin may refund it now: charged or held, with the configured
    /// provider, and no refund asked for yet.
    pub refundable: bool,
    #[schema(required = true)]
    pub refund: Option<RefundProgress>,
    /// The payee's share of it (a contestant's 75 % of a contact fee).
    #[schema(required = true)]
    pub share: Option<LineState>,
}

async fn present(
    state: &AppState,
    rows: Vec<payment::Model>,
) -> Result<Vec<AdminPayment>, ApiError> {
    let ids: Vec<Uuid> = rows.iter().map(|row| row.id).collect();
    let payers: Vec<Uuid> = rows.iter().filter_map(|row| row.user_id).collect();
    let emails: std::collections::HashMap<Uuid, Option<String>> = users::Entity::find()
        .filter(users::Column::Id.is_in(payers))
        .all(&state.db)
        .await?
        .into_iter()
        .map(|user| (user.id, user.email))
        .collect();
    let targets: Vec<String> = ids.iter().map(Uuid::to_string).collect();
    let owed: std::collections::HashMap<String, refund::Model> = refund::Entity::find()
        .filter(refund::Column::Kind.eq(refunds::PAYMENT))
        .filter(refund::Column::Target.is_in(targets))
        .all(&state.db)
        .await?
        .into_iter()
        .map(|row| (row.target.clone(), row))
        .collect();
    let window = state.config.payments.payout_window_days;
    let now = Utc::now();
    let shares: std::collections::HashMap<Uuid, LineState> = line::Entity::find()
        .filter(line::Column::PaymentId.is_in(ids))
        .all(&state.db)
        .await?
        .into_iter()
        .map(|row| (row.payment_id, ledger::state_of(&row, window, now)))
        .collect();
    let provider = state.payments.provider.name();
    Ok(rows
        .into_iter()
        .map(|row| {
            let refund = owed.get(&row.id.to_string()).map(|owed| RefundProgress {
                reason: owed.reason.clone(),
                requested_at: owed.created_at,
                done_at: owed.done_at,
                last_error: owed.last_error.clone(),
            });
            AdminPayment {
                email: row
                    .user_id
                    .and_then(|id| emails.get(&id).cloned().flatten()),
                refundable: refund.is_none() && row.provider == provider && refundable(row.state()),
                share: shares.get(&row.id).copied(),
                duplicate: row.duplicate_of.is_some(),
                refund,
                id: row.id,
                user_id: row.user_id,
                purpose: row.purpose,
                description: row.description,
                amount_cents: row.amount_cents,
                refunded_cents: row.refunded_cents,
                currency: row.currency,
                status: row.status,
                provider: row.provider,
                created_at: row.created_at,
            }
        })
        .collect())
}

/// Charged and not all given back, or held: something to give back.
fn refundable(status: Status) -> bool {
    matches!(
        status,
        Status::Succeeded | Status::PartiallyRefunded | Status::Held
    )
}

/// The newest payments, optionally of one payer.
#[utoipa::path(get, path = "/admin/payments", tag = "admin",
    params(PaymentFilter),
    responses(
        (status = 200, description = "The newest 100 payments", body = Vec<AdminPayment>),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_payments(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(filter): Query<PaymentFilter>,
) -> Result<Json<Vec<AdminPayment>>, ApiError> {
    let mut query = payment::Entity::find();
    if let Some(email) = filter
        .email
        .as_deref()
        .map(|email| email.trim().to_lowercase())
        .filter(|email| !email.is_empty())
    {
        let payer = users::Entity::find()
            .filter(users::Column::Email.eq(email))
            .one(&state.db)
            .await?;
        let Some(payer) = payer else {
            return Ok(Json(Vec::new()));
        };
        query = query.filter(payment::Column::UserId.eq(payer.id));
    }
    let rows = query
        .order_by_desc(payment::Column::CreatedAt)
        .order_by_desc(payment::Column::Id)
        .limit(PAGE)
        .all(&state.db)
        .await?;
    Ok(Json(present(&state, rows).await?))
}

/// Gives a payment back in full through the provider, once: a charge is
/// refunded, a hold released. The payee's share and any partner commission
/// follow through the ledgers. Audited with the reason.
#[utoipa::path(post, path = "/admin/payments/{id}/refund", tag = "admin",
    params(("id" = Uuid, Path, description = "The payment's id")),
    request_body = RefundForm,
    responses(
        (status = 200, description = "Refunded, or queued when the provider has not confirmed yet (see `refund`)", body = AdminPayment),
        AdminErrors,
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`already_refunded`: refunded or released before, or a refund of it is under way", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no reason, a reason over 500 characters, a payment never charged, or one made with another provider", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn refund_payment(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(form): Json<RefundForm>,
) -> Result<Json<AdminPayment>, ApiError> {
    let reason = form.reason.trim();
    if reason.is_empty() {
        return Err(ApiError::invalid("Please give a reason for the refund."));
    }
    if reason.chars().count() > MAX_REASON {
        return Err(ApiError::invalid(
            "The reason must be at most 500 characters.",
        ));
    }
    let paid = payment::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Payment not found"))?;
    let provider = state.payments.provider.name();
    match paid.state() {
        status if refundable(status) => {}
        Status::Refunded | Status::Canceled => {
            return Err(ApiError::conflict(
                ErrorCode::AlreadyRefunded,
                "This payment was refunded or released already.",
            ));
        }
        _ => {
            return Err(ApiError::invalid(
                "This payment was never charged: there is nothing to refund.",
            ));
        }
    }
    if paid.provider != provider {
        return Err(ApiError::invalid(format!(
            "This payment was made with the {} provider, which is not the one configured now.",
            paid.provider
        )));
    }
    let asked = refunds::owe_new(
        &state.db,
        paid.user_id,
        provider,
        refunds::PAYMENT,
        &paid.id.to_string(),
        reason,
    )
    .await?;
    if !asked {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyRefunded,
            "A refund of this payment is already under way.",
        ));
    }
    admin
        .record(
            &state.db,
            "payment_refunded",
            json!({
                "payment_id": paid.id,
                "user_id": paid.user_id,
                "purpose": paid.purpose,
                "amount_cents": paid.amount_cents,
                "reason": reason,
                "before": { "status": paid.status, "refunded_cents": paid.refunded_cents },
                "after": { "refund": "requested" },
            }),
        )
        .await;
    // Done now when the provider answers; the refund worker retries if not.
    if state.payments.sandbox.is_some() {
        super::deliver_sandbox_events(&state).await;
    } else {
        refunds::settle_soon(&state).await?;
    }
    let row = payment::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Payment not found"))?;
    let mut shown = present(&state, vec![row]).await?;
    Ok(Json(shown.remove(0)))
}
