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
use super::entity::{account, line, payout};
use super::ledger::{self, PAID, UNPAID};
use super::rules;
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{AdminAction, AdminUser, Json, Path, Query};

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
        (status = 401, description = "`not_signed_in`", body = ErrorBody),
        (status = 403, description = "`admin_only`", body = ErrorBody),
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
        if !rules::STATUSES.contains(&status) {
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
        (status = 401, description = "`not_signed_in`", body = ErrorBody),
        (status = 403, description = "`admin_only`", body = ErrorBody),
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
    let from: &[&str] = match form.status.as_str() {
        "approved" => &["pending", "suspended"],
        "suspended" => &["approved"],
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
        .filter(account::Column::Status.is_in(from.iter().copied()))
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
        (status = 401, description = "`not_signed_in`", body = ErrorBody),
        (status = 403, description = "`admin_only`", body = ErrorBody),
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
        .add(line::Column::Status.eq(UNPAID))
        .add(line::Column::PayableAt.lte(now))
}

/// Partners with unpaid commissions: what Mark as Paid would pay now, and
/// what is still in its refund window with the date the first of it
/// becomes payable.
#[utoipa::path(get, path = "/admin/payouts", tag = "admin",
    responses(
        (status = 200, description = "Partners with unpaid conversions, payable or pending", body = Vec<PayablePartner>),
        (status = 401, description = "`not_signed_in`", body = ErrorBody),
        (status = 403, description = "`admin_only`", body = ErrorBody),
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
        .filter(line::Column::Status.eq(UNPAID))
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
    let ids: Vec<Uuid> = by_partner.keys().chain(pending.keys()).copied().collect();
    let partners = account::Entity::find()
        .filter(account::Column::Id.is_in(ids))
        .order_by_asc(account::Column::DisplayName)
        .all(&state.db)
        .await?;
    Ok(Json(
        partners
            .into_iter()
            .filter_map(|partner| {
                let (count, cents) = by_partner.get(&partner.id).copied().unwrap_or((0, 0));
                let waiting = pending.get(&partner.id).copied();
                let pending_cents = waiting.map_or(0, |w| w.1);
                (cents > 0 || pending_cents > 0).then(|| PayablePartner {
                    partner_id: partner.id,
                    display_name: partner.display_name,
                    code: partner.code,
                    payable_count: if cents > 0 { count.max(0) as u64 } else { 0 },
                    payable_cents: cents.max(0),
                    pending_count: waiting.map_or(0, |w| w.0),
                    pending_cents,
                    next_payable_at: waiting.map(|w| w.2),
                })
            })
            .collect(),
    ))
}

/// Mark as Paid: pays exactly this partner's payable lines (clawbacks
/// deducted) as one payout for the period from the first of this month to
/// today. Two clicks pay once: the lines move to `paid` in one conditional
/// UPDATE, and the second finds none.
#[utoipa::path(post, path = "/admin/payouts/{id}", tag = "admin",
    params(("id" = Uuid, Path, description = "The partner's id")),
    responses(
        (status = 201, description = "Payout marked as sent", body = PartnerPayout),
        (status = 401, description = "`not_signed_in`", body = ErrorBody),
        (status = 403, description = "`admin_only`", body = ErrorBody),
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
    let now = Utc::now();
    let nothing = || ApiError::conflict(ErrorCode::NothingPayable, "No unpaid conversions");
    let mine = || payable(now).add(line::Column::PartnerId.eq(id));
    let txn = state.db.begin().await?;
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
    }
    .insert(&txn)
    .await?;
    line::Entity::update_many()
        .col_expr(line::Column::Status, Expr::value(PAID))
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
    admin
        .record(
            &state.db,
            "partner_payout_sent",
            json!({
                "partner_id": id,
                "partner": partner.display_name,
                "payout_id": payout_id,
                "before": { "payable_cents": total },
                "after": { "paid_cents": total, "status": "sent" },
            }),
        )
        .await;
    Ok((
        StatusCode::CREATED,
        Json(PartnerPayout {
            id: row.id,
            partner_id: id,
            period_start: row.period_start,
            period_end: row.period_end,
            total_amount_cents: row.total_amount_cents,
            status: row.status,
            created_at: row.created_at,
        }),
    ))
}
