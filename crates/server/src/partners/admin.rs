//! The admin pages' endpoints (`AdminUser` on every one): the partner list
//! with status and tier changes, and payouts. Each change is one conditional
//! UPDATE, so it applies once, and goes to the audit log with the state
//! before and after.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{Datelike, NaiveDate, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::apply::PartnerAccount;
use super::entity::account::Status as PartnerStatus;
use super::entity::{account, line, payout};
use super::ledger::{self, LineStatus};
use super::rules;
use crate::billing::payouts::{self, PayoutError};
use crate::billing::provider_error;
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{AdminErrors, ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{AdminAction, AdminUser, Json, Path, Query};
use crate::providers::payments::PaymentError;

/// The most partners the admin page lists.
const ADMIN_PAGE: u64 = 500;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PartnerFilter {
    /// `pending`, `approved` or `suspended`; all when absent.
    pub status: Option<String>,
}

/// A partner with the owner's address, for the admins.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPartner {
    #[serde(flatten)]
    pub account: PartnerAccount,
    #[schema(required = true)]
    pub email: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PartnerStatusForm {
    /// `approved` (approve or reactivate) or `suspended`.
    pub status: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PartnerTierForm {
    /// `starter` (15 %), `pro` (20 %) or `elite` (30 %).
    pub tier: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayablePartner {
    pub partner_id: Uuid,
    pub display_name: String,
    pub code: String,
    /// Lines past the refund window, clawbacks included.
    pub payable_count: u64,
    /// What Mark as Paid would pay (clawbacks deducted).
    pub payable_cents: i64,
    /// Unpaid lines still in their refund window.
    pub pending_count: u64,
    pub pending_cents: i64,
    /// When the first pending line becomes payable.
    #[schema(required = true)]
    pub next_payable_at: Option<chrono::DateTime<Utc>>,
    /// The partner's payout account for Pay through Stripe, if any.
    #[schema(required = true)]
    pub payout_account: Option<payouts::entity::AccountStatus>,
    /// A Pay through Stripe whose transfer is not confirmed yet (the
    /// provider did not answer): pressing it again sends the same transfer.
    pub unconfirmed_transfer_cents: i64,
    /// What the partner owes back: clawbacks of commissions paid out before
    /// a refund, more than what is payable now. The next payout deducts it.
    pub owed_back_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerPayout {
    pub id: Uuid,
    pub partner_id: Uuid,
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    pub total_amount_cents: i64,
    /// `sent`.
    pub status: String,
    pub created_at: chrono::DateTime<Utc>,
    /// `manual` (Mark as Paid) or `stripe` (Pay through Stripe).
    pub method: String,
    /// The provider's transfer, for `stripe`.
    #[schema(required = true)]
    pub transfer_id: Option<String>,
}

impl From<payout::Model> for PartnerPayout {
    fn from(row: payout::Model) -> Self {
        Self {
            id: row.id,
            partner_id: row.partner_id.unwrap_or_default(),
            period_start: row.period_start,
            period_end: row.period_end,
            total_amount_cents: row.total_amount_cents,
            status: row.status,
            created_at: row.created_at,
            method: row.method,
            transfer_id: row.transfer_id,
        }
    }
}

fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        ErrorCode::PartnerNotFound,
        "Partner not found",
    )
}

/// Every partner, newest first, optionally of one status.
#[utoipa::path(get, path = "/admin/partners", tag = "admin",
    params(PartnerFilter),
    responses(
        (status = 200, description = "The partners", body = Vec<AdminPartner>),
        AdminErrors,
        (status = 422, description = "`validation_failed`: an unknown status", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn admin_partners(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(filter): Query<PartnerFilter>,
) -> Result<Json<Vec<AdminPartner>>, ApiError> {
    let mut query = account::Entity::find();
    if let Some(status) = filter.status.as_deref().filter(|status| !status.is_empty()) {
        if PartnerStatus::parse(status).is_none() {
            return Err(ApiError::invalid(
                "Status must be pending, approved or suspended",
            ));
        }
        query = query.filter(account::Column::Status.eq(status));
    }
    let rows = query
        .order_by_desc(account::Column::CreatedAt)
        .order_by_desc(account::Column::Id)
        .limit(ADMIN_PAGE)
        .all(&state.db)
        .await?;
    let owners: Vec<Uuid> = rows.iter().map(|row| row.user_id).collect();
    let emails: std::collections::HashMap<Uuid, Option<String>> = users::Entity::find()
        .filter(users::Column::Id.is_in(owners))
        .all(&state.db)
        .await?
        .into_iter()
        .map(|user| (user.id, user.email))
        .collect();
    Ok(Json(
        rows.into_iter()
            .map(|row| AdminPartner {
                email: emails.get(&row.user_id).cloned().flatten(),
                account: row.into(),
            })
            .collect(),
    ))
}

/// Approves, suspends or reactivates a partner. Only a pending or suspended
/// partner can be approved, only an approved one suspended.
#[utoipa::path(post, path = "/admin/partners/{id}/status", tag = "admin",
    params(("id" = Uuid, Path, description = "The partner's id")),
    request_body = PartnerStatusForm,
    responses(
        (status = 200, description = "Changed", body = PartnerAccount),
        AdminErrors,
        (status = 404, description = "`partner_not_found`", body = ErrorBody),
        (status = 409, description = "`invalid_transition`: the partner is in that status already", body = ErrorBody),
        (status = 422, description = "`validation_failed`: an unknown status", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn set_partner_status(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(form): Json<PartnerStatusForm>,
) -> Result<Json<PartnerAccount>, ApiError> {
    let from: &[PartnerStatus] = match PartnerStatus::parse(&form.status) {
        Some(PartnerStatus::Approved) => &[PartnerStatus::Pending, PartnerStatus::Suspended],
        Some(PartnerStatus::Suspended) => &[PartnerStatus::Approved],
        _ => {
            return Err(ApiError::invalid("Status must be approved or suspended"));
        }
    };
    let before = account::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    let changed = account::Entity::update_many()
        .col_expr(account::Column::Status, Expr::value(form.status.clone()))
        .col_expr(account::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(account::Column::Id.eq(id))
        .filter(account::Column::Status.is_in(PartnerStatus::stored(from)))
        .exec(&state.db)
        .await?
        .rows_affected
        > 0;
    if !changed {
        return Err(ApiError::conflict(
            ErrorCode::InvalidTransition,
            format!("This partner is {} already.", before.status),
        ));
    }
    admin
        .record(
            &state.db,
            "partner_status_changed",
            json!({ "partner_id": id, "before": before.status, "after": form.status }),
        )
        .await;
    let after = account::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(after.into()))
}

/// Sets a partner's tier and with it the commission rate of later sales.
#[utoipa::path(post, path = "/admin/partners/{id}/tier", tag = "admin",
    params(("id" = Uuid, Path, description = "The partner's id")),
    request_body = PartnerTierForm,
    responses(
        (status = 200, description = "Changed", body = PartnerAccount),
        AdminErrors,
        (status = 404, description = "`partner_not_found`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: an unknown tier", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn set_partner_tier(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(form): Json<PartnerTierForm>,
) -> Result<Json<PartnerAccount>, ApiError> {
    let Some(rate) = rules::tier_rate(&form.tier) else {
        return Err(ApiError::invalid("Tier must be starter, pro or elite"));
    };
    let before = account::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    let mut active: account::ActiveModel = before.clone().into();
    active.tier = Set(form.tier.clone());
    active.commission_rate = Set(rate);
    active.updated_at = Set(Utc::now());
    let after = active.update(&state.db).await?;
    admin
        .record(
            &state.db,
            "partner_tier_changed",
            json!({
                "partner_id": id,
                "before": { "tier": before.tier, "commission_rate": before.commission_rate },
                "after": { "tier": after.tier, "commission_rate": after.commission_rate },
            }),
        )
        .await;
    Ok(Json(after.into()))
}

/// The payable lines: unpaid and past the refund window.
fn payable(now: chrono::DateTime<Utc>) -> Condition {
    Condition::all()
        .add(line::Column::Status.eq(LineStatus::Unpaid))
        .add(line::Column::PayableAt.lte(now))
}

/// Partners with unpaid commissions: what Mark as Paid would pay now, and
/// what is still in its refund window with the date the first of it
/// becomes payable; and partners who owe money back (a clawback larger
/// than what is payable), with what they owe.
#[utoipa::path(get, path = "/admin/payouts", tag = "admin",
    responses(
        (status = 200, description = "Partners with unpaid conversions, payable or pending, or owing money back", body = Vec<PayablePartner>),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_payouts(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Vec<PayablePartner>>, ApiError> {
    // Each partner's payable lines, counted and summed by the database.
    let sums: Vec<(Uuid, i64, i64)> = line::Entity::find()
        .select_only()
        .column(line::Column::PartnerId)
        .column_as(Expr::cust("COUNT(*)"), "lines")
        .column_as(ledger::sum_of("commission_cents"), "cents")
        .filter(payable(Utc::now()))
        .group_by(line::Column::PartnerId)
        .into_tuple()
        .all(&state.db)
        .await?;
    let by_partner: std::collections::HashMap<Uuid, (i64, i64)> = sums
        .into_iter()
        .map(|(partner, lines, cents)| (partner, (lines, cents)))
        .collect();
    // And the lines still in their refund window, with the first date one
    // becomes payable.
    let now = Utc::now();
    let pending_lines: Vec<(Uuid, i64, chrono::DateTime<Utc>)> = line::Entity::find()
        .select_only()
        .column(line::Column::PartnerId)
        .column(line::Column::CommissionCents)
        .column(line::Column::PayableAt)
        .filter(line::Column::Status.eq(LineStatus::Unpaid))
        .filter(line::Column::PayableAt.gt(now))
        .into_tuple()
        .all(&state.db)
        .await?;
    let mut pending: std::collections::HashMap<Uuid, (u64, i64, chrono::DateTime<Utc>)> =
        std::collections::HashMap::new();
    for (partner, cents, at) in pending_lines {
        let entry = pending.entry(partner).or_insert((0, 0, at));
        entry.0 += 1;
        entry.1 += cents;
        entry.2 = entry.2.min(at);
    }
    // And transfers sent through Stripe that it has not confirmed.
    let mut unconfirmed: std::collections::HashMap<Uuid, i64> = std::collections::HashMap::new();
    for row in unconfirmed_payouts(&state.db, None).await? {
        if let Some(partner) = row.partner_id {
            *unconfirmed.entry(partner).or_default() += row.total_amount_cents;
        }
    }
    let ids: Vec<Uuid> = by_partner
        .keys()
        .chain(pending.keys())
        .chain(unconfirmed.keys())
        .copied()
        .collect();
    let partners = account::Entity::find()
        .filter(account::Column::Id.is_in(ids))
        .order_by_asc(account::Column::DisplayName)
        .all(&state.db)
        .await?;
    let provider = state.payments.provider.name();
    let mut rows = Vec::with_capacity(partners.len());
    for partner in partners {
        let (count, cents) = by_partner.get(&partner.id).copied().unwrap_or((0, 0));
        let waiting = pending.get(&partner.id).copied();
        let pending_cents = waiting.map_or(0, |w| w.1);
        let unconfirmed_cents = unconfirmed.get(&partner.id).copied().unwrap_or(0);
        // A partner who owes money back is listed too, with what is owed.
        if cents == 0 && pending_cents <= 0 && unconfirmed_cents <= 0 {
            continue;
        }
        let payout_account = payouts::account_of(&state.db, provider, partner.user_id)
            .await?
            .map(|found| payouts::entity::AccountStatus::of(&found.status));
        rows.push(PayablePartner {
            partner_id: partner.id,
            display_name: partner.display_name,
            code: partner.code,
            payable_count: if cents > 0 { count.max(0) as u64 } else { 0 },
            payable_cents: cents.max(0),
            pending_count: waiting.map_or(0, |w| w.0),
            pending_cents,
            next_payable_at: waiting.map(|w| w.2),
            payout_account,
            unconfirmed_transfer_cents: unconfirmed_cents,
            owed_back_cents: (-cents).max(0),
        });
    }
    Ok(Json(rows))
}

/// Pay through Stripe payouts whose transfer is not confirmed, of one
/// partner or all.
async fn unconfirmed_payouts(
    db: &impl sea_orm::ConnectionTrait,
    partner: Option<Uuid>,
) -> Result<Vec<payout::Model>, sea_orm::DbErr> {
    let mut query = payout::Entity::find()
        .filter(payout::Column::Method.eq(STRIPE))
        .filter(payout::Column::TransferId.is_null());
    if let Some(partner) = partner {
        query = query.filter(payout::Column::PartnerId.eq(partner));
    }
    query.order_by_asc(payout::Column::CreatedAt).all(db).await
}

/// Mark as Paid: pays exactly this partner's payable lines (clawbacks
/// deducted) as one payout for the period from the first of this month to
/// today. Two clicks pay once: the lines move to `paid` in one conditional
/// UPDATE, and the second finds none.
#[utoipa::path(post, path = "/admin/payouts/{id}", tag = "admin",
    params(("id" = Uuid, Path, description = "The partner's id")),
    responses(
        (status = 201, description = "Payout marked as sent", body = PartnerPayout),
        AdminErrors,
        (status = 404, description = "`partner_not_found`", body = ErrorBody),
        (status = 409, description = "`nothing_payable`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn mark_payout_paid(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
) -> Result<(StatusCode, Json<PartnerPayout>), ApiError> {
    let partner = account::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    let row = claim_payable(&state, id, MANUAL).await?;
    record_sent(&state, &admin, &partner, &row).await;
    Ok((StatusCode::CREATED, Json(row.into())))
}

/// Pay through Stripe: the same payable lines as Mark as Paid, sent to the
/// partner's connected payout account as one transfer whose idempotency key
/// is the payout's id. When the provider does not answer, the payout stays
/// unconfirmed and pressing again sends the same transfer (never a second);
/// when it refuses, nothing is marked paid.
#[utoipa::path(post, path = "/admin/payouts/{id}/transfer", tag = "admin",
    params(("id" = Uuid, Path, description = "The partner's id")),
    responses(
        (status = 201, description = "Sent through the payment provider", body = PartnerPayout),
        AdminErrors,
        (status = 404, description = "`partner_not_found`", body = ErrorBody),
        (status = 409, description = "`nothing_payable`, `no_payout_account`, or `conflict`: a transfer to this partner is being sent", body = ErrorBody),
        (status = 502, description = "`payment_provider_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn pay_through_stripe(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
) -> Result<(StatusCode, Json<PartnerPayout>), ApiError> {
    let partner = account::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    let row = match claim_unconfirmed(&state, id).await? {
        Some(row) => row,
        None => {
            let connected =
                payouts::account_of(&state.db, state.payments.provider.name(), partner.user_id)
                    .await?
                    .is_some_and(|found| found.status == payouts::entity::AccountStatus::Enabled);
            if !connected {
                return Err(no_payout_account());
            }
            claim_payable(&state, id, STRIPE).await?
        }
    };
    let metadata = std::collections::BTreeMap::from([
        ("partner_id".to_owned(), id.to_string()),
        ("partner_payout_id".to_owned(), row.id.to_string()),
    ]);
    let sent = payouts::pay_user(
        &state,
        partner.user_id,
        row.total_amount_cents,
        &row.id.to_string(),
        metadata,
    )
    .await;
    match sent {
        Ok(transfer) => {
            payout::Entity::update_many()
                .col_expr(payout::Column::TransferId, Expr::value(transfer.id.clone()))
                .col_expr(
                    payout::Column::ClaimedAt,
                    Expr::value(Option::<chrono::DateTime<Utc>>::None),
                )
                .filter(payout::Column::Id.eq(row.id))
                .exec(&state.db)
                .await?;
            let row = payout::Model {
                transfer_id: Some(transfer.id),
                claimed_at: None,
                ..row
            };
            record_sent(&state, &admin, &partner, &row).await;
            Ok((StatusCode::CREATED, Json(row.into())))
        }
        // No answer: it may have been sent. Kept unconfirmed, to be sent
        // again with the same key.
        Err(PayoutError::Provider(
            err @ (PaymentError::Unavailable(_) | PaymentError::Database(_)),
        )) => {
            payout::Entity::update_many()
                .col_expr(
                    payout::Column::ClaimedAt,
                    Expr::value(Option::<chrono::DateTime<Utc>>::None),
                )
                .filter(payout::Column::Id.eq(row.id))
                .exec(&state.db)
                .await?;
            Err(provider_error(
                err,
                "Stripe did not confirm the transfer. Nothing is lost: press Pay through Stripe again to send the same transfer.",
            ))
        }
        // A clear no: nothing was sent, and nothing is marked paid.
        Err(refused) => {
            undo_payout(&state, row.id).await?;
            match refused {
                PayoutError::NoAccount => Err(no_payout_account()),
                PayoutError::Provider(err) => Err(provider_error(
                    err,
                    "Stripe refused the transfer; nothing was marked paid.",
                )),
            }
        }
    }
}

const MANUAL: &str = "manual";
const STRIPE: &str = "stripe";

fn no_payout_account() -> ApiError {
    ApiError::conflict(
        ErrorCode::NoPayoutAccount,
        "This partner has not connected a payout account.",
    )
}

/// Moves this partner's payable lines onto a new payout, in one
/// transaction; `nothing_payable` when they come to nothing.
async fn claim_payable(
    state: &AppState,
    id: Uuid,
    method: &str,
) -> Result<payout::Model, ApiError> {
    let now = Utc::now();
    let nothing = || ApiError::conflict(ErrorCode::NothingPayable, "No unpaid conversions");
    let mine = || payable(now).add(line::Column::PartnerId.eq(id));
    let txn = state.db.begin().await?;
    // Writes first, so that two payouts of one partner queue here (the row
    // lock on PostgreSQL, the write lock on SQLite) instead of both reading
    // the same lines; the second then finds them paid.
    account::Entity::update_many()
        .col_expr(
            account::Column::UpdatedAt,
            Expr::col(account::Column::UpdatedAt),
        )
        .filter(account::Column::Id.eq(id))
        .exec(&txn)
        .await?;
    if ledger::commission_sum(&txn, mine()).await? <= 0 {
        return Err(nothing());
    }
    let today = now.date_naive();
    let payout_id = Uuid::now_v7();
    payout::ActiveModel {
        id: Set(payout_id),
        partner_id: Set(Some(id)),
        period_start: Set(today.with_day(1).unwrap_or(today)),
        period_end: Set(today),
        total_amount_cents: Set(0),
        status: Set("sent".to_owned()),
        created_at: Set(now),
        method: Set(method.to_owned()),
        transfer_id: Set(None),
        claimed_at: Set((method == STRIPE).then_some(now)),
    }
    .insert(&txn)
    .await?;
    line::Entity::update_many()
        .col_expr(line::Column::Status, Expr::value(LineStatus::Paid.as_str()))
        .col_expr(line::Column::PayoutId, Expr::value(payout_id))
        .col_expr(line::Column::UpdatedAt, Expr::value(now))
        .filter(mine())
        .exec(&txn)
        .await?;
    let total = ledger::commission_sum(
        &txn,
        Condition::all().add(line::Column::PayoutId.eq(payout_id)),
    )
    .await?;
    if total <= 0 {
        txn.rollback().await?;
        return Err(nothing());
    }
    let mut active: payout::ActiveModel = payout::Entity::find_by_id(payout_id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the payout just written is gone")))?
        .into();
    active.total_amount_cents = Set(total);
    let row = active.update(&txn).await?;
    txn.commit().await?;
    Ok(row)
}

/// The partner's unconfirmed Pay through Stripe payout, claimed for this
/// request; `conflict` while another request sends it.
async fn claim_unconfirmed(state: &AppState, id: Uuid) -> Result<Option<payout::Model>, ApiError> {
    let Some(row) = unconfirmed_payouts(&state.db, Some(id))
        .await?
        .into_iter()
        .next()
    else {
        return Ok(None);
    };
    let now = Utc::now();
    let claimed = payout::Entity::update_many()
        .col_expr(payout::Column::ClaimedAt, Expr::value(now))
        .filter(payout::Column::Id.eq(row.id))
        .filter(payout::Column::TransferId.is_null())
        .filter(
            Condition::any()
                .add(payout::Column::ClaimedAt.is_null())
                .add(payout::Column::ClaimedAt.lt(now - PAYOUT_CLAIM_TIMEOUT)),
        )
        .exec(&state.db)
        .await?;
    if claimed.rows_affected != 1 {
        return Err(ApiError::conflict(
            ErrorCode::Conflict,
            "A transfer to this partner is being sent. Please wait a moment.",
        ));
    }
    Ok(Some(payout::Model {
        claimed_at: Some(now),
        ..row
    }))
}

/// Longer than a provider call can take: a claim older than this is of a
/// request that died.
const PAYOUT_CLAIM_TIMEOUT: chrono::Duration = chrono::Duration::minutes(2);

/// A payout the provider refused: its lines are payable again and the
/// payout row goes.
async fn undo_payout(state: &AppState, payout_id: Uuid) -> Result<(), ApiError> {
    let txn = state.db.begin().await?;
    line::Entity::update_many()
        .col_expr(
            line::Column::Status,
            Expr::value(LineStatus::Unpaid.as_str()),
        )
        .col_expr(line::Column::PayoutId, Expr::value(Option::<Uuid>::None))
        .col_expr(line::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(line::Column::PayoutId.eq(payout_id))
        .filter(line::Column::Status.eq(LineStatus::Paid))
        .exec(&txn)
        .await?;
    payout::Entity::delete_by_id(payout_id).exec(&txn).await?;
    txn.commit().await?;
    Ok(())
}

async fn record_sent(
    state: &AppState,
    admin: &AdminAction,
    partner: &account::Model,
    row: &payout::Model,
) {
    crate::billing::mail::tell_payout(
        state,
        partner.user_id,
        row.id,
        row.total_amount_cents,
        "your partner commissions",
        row.method == MANUAL,
    )
    .await;
    admin
        .record(
            &state.db,
            "partner_payout_sent",
            json!({
                "partner_id": partner.id,
                "partner": partner.display_name,
                "payout_id": row.id,
                "method": row.method,
                "transfer_id": row.transfer_id,
                "before": { "payable_cents": row.total_amount_cents },
                "after": { "paid_cents": row.total_amount_cents, "status": "sent" },
            }),
        )
        .await;
}
