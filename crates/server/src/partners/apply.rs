//! Becoming a partner and the partner's own view: `POST /partners` (one
//! account per user, pending until an admin approves), `GET /partners/me`
//! (the portal) and the public `GET /partners/leaderboard`.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::entity::account::Status as PartnerStatus;
use super::entity::{account, line};
use super::ledger::{self, LineStatus};
use super::rules;
use crate::http::AppState;
use crate::http::error::{
    ApiError, CommunityErrors, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{CommunityMember, Json};
use crate::values::text;

const CONSTRAINTS: &[ConstraintError] = &[
    ConstraintError::conflict(
        "partner_accounts_user_id_key",
        ErrorCode::PartnerExists,
        "You already have a partner account",
    ),
    ConstraintError::conflict(
        "partner_accounts_code_key",
        ErrorCode::ShortCodeTaken,
        "This short code is already taken. Please choose another.",
    ),
    ConstraintError::conflict(
        "partner_accounts_promo_code_key",
        ErrorCode::PromoCodeTaken,
        "This promo code is already taken. Please choose another.",
    ),
];

pub const MAX_DISPLAY_NAME_CHARS: usize = 60;
/// The portal's Recent Conversions.
const RECENT_LINES: u64 = 10;
/// The partner leaderboard's length.
const LEADERBOARD_SIZE: u64 = 10;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplyPartnerForm {
    pub display_name: String,
    /// 3-10 letters or digits (upper-cased, other characters dropped); a
    /// random 5-character code when blank.
    #[serde(default)]
    pub short_code: Option<String>,
    /// Upper-cased; none when blank.
    #[serde(default)]
    pub promo_code: Option<String>,
}

/// A partner account as its owner and the admins see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerAccount {
    pub id: Uuid,
    pub display_name: String,
    pub code: String,
    #[schema(required = true)]
    pub promo_code: Option<String>,
    /// `pending`, `approved` or `suspended`.
    pub status: String,
    /// `starter`, `pro` or `elite`.
    pub tier: String,
    /// 0.15, 0.20 or 0.30.
    pub commission_rate: f64,
    pub total_clicks: i64,
    pub total_conversions: i64,
    pub total_earned_cents: i64,
    pub created_at: DateTime<Utc>,
}

impl From<account::Model> for PartnerAccount {
    fn from(row: account::Model) -> Self {
        Self {
            id: row.id,
            display_name: row.display_name,
            code: row.code,
            promo_code: row.promo_code,
            status: row.status,
            tier: row.tier,
            commission_rate: row.commission_rate,
            total_clicks: row.total_clicks,
            total_conversions: row.total_conversions,
            total_earned_cents: row.total_earned_cents,
            created_at: row.created_at,
        }
    }
}

/// One ledger line as the partner sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerConversion {
    pub id: Uuid,
    /// `sale`, `parent` (a share of a referred partner's commission) or
    /// `clawback` (a paid commission whose sale was refunded).
    pub kind: String,
    /// What the commission is a share of.
    pub amount_cents: i64,
    /// Negative on a clawback.
    pub commission_cents: i64,
    /// `pending` (in the refund window until `payableAt`), `payable`,
    /// `paid` or `reversed`.
    pub status: String,
    pub payable_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

/// What a line's status means to the partner now.
fn shown_status(row: &line::Model, now: DateTime<Utc>) -> &'static str {
    match LineStatus::parse(&row.status) {
        Some(LineStatus::Paid) => "paid",
        Some(LineStatus::Reversed) => "reversed",
        _ if row.payable_at <= now => "payable",
        _ => "pending",
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerTotals {
    /// Unpaid and still in the refund window.
    pub pending_cents: i64,
    /// Unpaid and past the refund window (clawbacks deducted).
    pub payable_cents: i64,
    pub paid_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerPortal {
    pub account: PartnerAccount,
    pub totals: PartnerTotals,
    /// The 10 newest lines.
    pub recent: Vec<PartnerConversion>,
    /// Days a commission waits for refunds before it is payable.
    pub hold_days: u32,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerStanding {
    pub rank: u32,
    pub display_name: String,
    pub tier: String,
    pub total_earned_cents: i64,
}

/// Applies to the programme: the account starts `pending`, at the starter tier.
#[utoipa::path(post, path = "/partners", tag = "partners",
    request_body = ApplyPartnerForm,
    responses(
        CommunityErrors,
        (status = 201, description = "Submitted", body = PartnerAccount),
        SignedInErrors,
        (status = 409, description = "`partner_exists`, `short_code_taken`, `promo_code_taken`", body = ErrorBody),
        (status = 422, description = "`invalid_short_code`, `validation_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn apply_partner(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Json(form): Json<ApplyPartnerForm>,
) -> Result<(StatusCode, Json<PartnerAccount>), ApiError> {
    let display_name = form.display_name.trim();
    if display_name.is_empty() {
        return Err(ApiError::invalid("Display name is required"));
    }
    if display_name.chars().count() > MAX_DISPLAY_NAME_CHARS {
        return Err(ApiError::invalid(
            "Display name must be at most 60 characters",
        ));
    }
    text::check_name("Display name", display_name)?;
    let code = rules::short_code(form.short_code.as_deref()).map_err(|message| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::InvalidShortCode,
            message.message().to_owned(),
        )
    })?;
    let promo_code = rules::promo_code(form.promo_code.as_deref())?;
    let now = Utc::now();
    let row = account::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user.user_id),
        display_name: Set(display_name.to_owned()),
        code: Set(code),
        promo_code: Set(promo_code),
        status: Set(PartnerStatus::Pending.into()),
        tier: Set("starter".to_owned()),
        commission_rate: Set(rules::TIERS[0].1),
        total_clicks: Set(0),
        total_conversions: Set(0),
        total_earned_cents: Set(0),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&state.db)
    .await
    .on_constraints(CONSTRAINTS)?;
    Ok((StatusCode::CREATED, Json(row.into())))
}

/// The caller's partner account with its totals and newest lines.
#[utoipa::path(get, path = "/partners/me", tag = "partners",
    responses(
        CommunityErrors,
        (status = 200, description = "The portal", body = PartnerPortal),
        SignedInErrors,
        (status = 404, description = "`partner_not_found`: the caller has no partner account", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn partner_portal(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
) -> Result<Json<PartnerPortal>, ApiError> {
    let account = account::Entity::find()
        .filter(account::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                ErrorCode::PartnerNotFound,
                "You don't have a partner account yet",
            )
        })?;
    let now = Utc::now();
    let mine = || Condition::all().add(line::Column::PartnerId.eq(account.id));
    let pending = ledger::commission_sum(
        &state.db,
        mine()
            .add(line::Column::Status.eq(LineStatus::Unpaid))
            .add(line::Column::PayableAt.gt(now)),
    )
    .await?;
    let payable = ledger::commission_sum(
        &state.db,
        mine()
            .add(line::Column::Status.eq(LineStatus::Unpaid))
            .add(line::Column::PayableAt.lte(now)),
    )
    .await?;
    let paid = ledger::commission_sum(
        &state.db,
        mine().add(line::Column::Status.eq(LineStatus::Paid)),
    )
    .await?;
    let recent = line::Entity::find()
        .filter(line::Column::PartnerId.eq(account.id))
        .order_by_desc(line::Column::CreatedAt)
        .order_by_desc(line::Column::Id)
        .limit(RECENT_LINES)
        .all(&state.db)
        .await?
        .into_iter()
        .map(|row| PartnerConversion {
            id: row.id,
            status: shown_status(&row, now).to_owned(),
            kind: row.kind,
            amount_cents: row.amount_cents,
            commission_cents: row.commission_cents,
            payable_at: row.payable_at,
            created_at: row.created_at,
        })
        .collect();
    Ok(Json(PartnerPortal {
        account: account.into(),
        totals: PartnerTotals {
            pending_cents: pending,
            payable_cents: payable,
            paid_cents: paid,
        },
        recent,
        hold_days: state.config.partners.commission_hold_days,
    }))
}

/// The top 10 approved partners by total earned (ties: the earlier partner).
#[utoipa::path(get, path = "/partners/leaderboard", tag = "partners",
    responses((status = 200, description = "The standings", body = Vec<PartnerStanding>)))]
pub async fn partner_leaderboard(
    State(state): State<AppState>,
) -> Result<Json<Vec<PartnerStanding>>, ApiError> {
    let rows = account::Entity::find()
        .filter(account::Column::Status.eq(PartnerStatus::Approved))
        .order_by_desc(account::Column::TotalEarnedCents)
        .order_by_asc(account::Column::CreatedAt)
        .limit(LEADERBOARD_SIZE)
        .all(&state.db)
        .await?;
    Ok(Json(
        rows.into_iter()
            .zip(1..)
            .map(|(row, rank)| PartnerStanding {
                rank,
                display_name: row.display_name,
                tier: row.tier,
                total_earned_cents: row.total_earned_cents,
            })
            .collect(),
    ))
}
