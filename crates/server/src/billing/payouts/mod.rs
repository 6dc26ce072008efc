//! Payouts: the money the app owes its users, sent to a payout account
//! (Stripe Connect Express, or the sandbox's test account).
//!
//! - [`ledger`]: one line per payment that earns someone a share (the
//!   contestant's 75 % of a contact fee), moved by the payment's events:
//!   held → captured (payable after `payments.payout_window_days`, the
//!   refund window) → transferred, or released, canceled, reversed.
//! - [`transfers`]: the job that sends payable lines and takes transfers
//!   back after a late refund or dispute, once each; and [`transfers::pay_user`]
//!   for a partner's payout.
//! - Here: `GET /api/v1/payouts/earnings`, `POST /api/v1/payouts/account`
//!   (connect, or continue onboarding), the provider's `account.updated`,
//!   and the sandbox's test onboarding.

pub mod entity;
pub mod ledger;
pub mod transfers;
pub mod unanswered;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::provider_error;
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{ApiError, CommunityErrors, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, CommunityMember, Json, Path};
use crate::providers::payments::ConnectedAccount;
use entity::{AccountStatus, TakenBack, account};
use ledger::{LineState, Totals};

pub use transfers::{PayoutError, pay_user, spawn_transfer_worker};

/// `/api/v1/payouts/…`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(earnings))
        .routes(routes!(connect_account))
        .routes(routes!(sandbox_account))
        .routes(routes!(sandbox_complete))
}

/// Where the provider sends the payee back after onboarding.
const RETURN_PATH: &str = "/earnings?onboarding=return";
/// Where it sends them when the link expired (a new one is made there).
const REFRESH_PATH: &str = "/earnings?onboarding=refresh";

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutAccount {
    pub status: AccountStatus,
    #[schema(required = true)]
    pub connected_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EarningLine {
    pub id: Uuid,
    pub description: String,
    /// What the buyer paid.
    pub fee_cents: i64,
    /// The caller's share of it.
    pub amount_cents: i64,
    pub state: LineState,
    /// When a captured line becomes payable (if the payee has replied).
    #[schema(required = true)]
    pub payable_at: Option<DateTime<Utc>>,
    /// The payee has written in the conversation paid for: a share is
    /// payable only once they have.
    pub replied: bool,
    /// For a captured line not replied to: the day by which the payee must
    /// write, or the buyer is refunded in full.
    #[schema(required = true)]
    pub reply_by: Option<DateTime<Utc>>,
    /// Why the share was taken back (or is being): a refund, a dispute, or
    /// no reply within the reply window.
    #[schema(required = true)]
    pub reason: Option<TakenBack>,
    #[schema(required = true)]
    pub transferred_at: Option<DateTime<Utc>>,
    #[schema(required = true)]
    pub reversed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Earnings {
    #[schema(required = true)]
    pub account: Option<PayoutAccount>,
    /// The caller has something to be paid (earnings, or an approved
    /// partner account), so they may connect a payout account.
    pub can_connect: bool,
    /// Days between a charge and its share becoming payable.
    pub payout_window_days: u32,
    /// Days after approving within which the payee must write in the
    /// conversation, or the buyer is refunded in full.
    pub reply_window_days: u32,
    /// The sums of `lines` by state.
    pub totals: Totals,
    /// Newest first.
    pub lines: Vec<EarningLine>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OnboardingLink {
    /// The provider's onboarding page (absolute), or the sandbox's (relative).
    pub url: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SandboxAccount {
    pub id: String,
    #[schema(required = true)]
    pub email: Option<String>,
    pub status: AccountStatus,
    /// Said on the page: nothing real is asked for.
    pub notice: String,
}

const SANDBOX_NOTICE: &str =
    "Test payout account: no bank details are asked for or stored, and no money moves.";

/// The caller's payout account with the configured provider.
pub async fn account_of(
    db: &impl ConnectionTrait,
    provider: &str,
    user: Uuid,
) -> Result<Option<account::Model>, DbErr> {
    account::Entity::find()
        .filter(account::Column::UserId.eq(user))
        .filter(account::Column::Provider.eq(provider))
        .one(db)
        .await
}

/// The caller's earnings: their payout account, their lines and totals.
#[utoipa::path(get, path = "/payouts/earnings", tag = "billing",
    responses(
        CommunityErrors,
        (status = 200, description = "The caller's earnings", body = Earnings),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn earnings(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
) -> Result<Json<Earnings>, ApiError> {
    let window = state.config.payments.payout_window_days;
    let reply_days = state.config.payments.reply_window_days;
    let now = Utc::now();
    let rows = ledger::lines_of(&state.db, user.user_id).await?;
    let mut totals = Totals::default();
    let lines: Vec<EarningLine> = rows
        .into_iter()
        .map(|row| {
            let state = ledger::state_of(&row, window, now);
            let reply_by = ledger::reply_by(&row, reply_days);
            totals.add(state, row.amount_cents);
            EarningLine {
                id: row.id,
                description: row.description,
                fee_cents: row.fee_cents,
                amount_cents: row.amount_cents,
                state,
                payable_at: row.captured_at.map(|at| ledger::payable_at(at, window)),
                replied: row.replied_at.is_some(),
                reply_by,
                reason: row.reason.as_deref().and_then(TakenBack::parse),
                transferred_at: row.transferred_at,
                reversed_at: row.reversed_at,
                created_at: row.created_at,
            }
        })
        .collect();
    let account = account_of(&state.db, state.payments.provider.name(), user.user_id)
        .await?
        .map(|row| PayoutAccount {
            status: AccountStatus::of(&row.status),
            connected_at: row.enabled_at,
        });
    let can_connect = !lines.is_empty()
        || state
            .hooks
            .receives_payouts(&state.db, user.user_id)
            .await?;
    Ok(Json(Earnings {
        account,
        can_connect,
        payout_window_days: window,
        reply_window_days: reply_days,
        totals,
        lines,
    }))
}

/// Connect a payout account, or continue its onboarding: opens an Express
/// account at the provider the first time (once, however often it is
/// pressed) and answers where to finish setting it up.
#[utoipa::path(post, path = "/payouts/account", tag = "billing",
    responses(
        CommunityErrors,
        (status = 200, description = "Go to `url` to finish onboarding", body = OnboardingLink),
        SignedInErrors,
        (status = 403, description = "`no_earnings`: nothing to be paid yet", body = ErrorBody),
        (status = 409, description = "`already_connected`", body = ErrorBody),
        (status = 502, description = "`payment_provider_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn connect_account(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
) -> Result<Json<OnboardingLink>, ApiError> {
    let provider = state.payments.provider.clone();
    let existing = account_of(&state.db, provider.name(), user.user_id).await?;
    if existing
        .as_ref()
        .is_some_and(|row| row.status == AccountStatus::Enabled)
    {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyConnected,
            "Your payout account is already connected.",
        ));
    }
    let account_id = match existing {
        Some(row) => row.account_id,
        None => {
            let earns = !ledger::lines_of(&state.db, user.user_id).await?.is_empty()
                || state
                    .hooks
                    .receives_payouts(&state.db, user.user_id)
                    .await?;
            if !earns {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    ErrorCode::NoEarnings,
                    "You have nothing to be paid yet: a payout account opens with your first earnings.",
                ));
            }
            let email = users::Entity::find_by_id(user.user_id)
                .one(&state.db)
                .await?
                .and_then(|found| found.email);
            // The same key for every press: one account at the provider.
            let opened = provider
                .create_connected_account(
                    email.as_deref(),
                    &user.user_id.to_string(),
                    &format!("payout-account-{}", user.user_id),
                )
                .await
                .map_err(|err| {
                    provider_error(
                        err,
                        "We couldn't open your payout account. Please try again.",
                    )
                })?;
            remember(&state.db, provider.name(), user.user_id, &opened).await?;
            // Two presses at once: both answer with the account that was kept.
            account_of(&state.db, provider.name(), user.user_id)
                .await?
                .map_or(opened.id, |row| row.account_id)
        }
    };
    let base = if provider.name() == "stripe" {
        state.base_url.trim_end_matches('/').to_owned()
    } else {
        String::new()
    };
    let url = provider
        .onboarding_link(
            &account_id,
            &format!("{base}{REFRESH_PATH}"),
            &format!("{base}{RETURN_PATH}"),
        )
        .await
        .map_err(|err| {
            provider_error(err, "We couldn't open the payout setup. Please try again.")
        })?;
    Ok(Json(OnboardingLink { url }))
}

/// Records the account opened for `user` (the first one kept).
async fn remember(
    db: &impl ConnectionTrait,
    provider: &str,
    user: Uuid,
    opened: &ConnectedAccount,
) -> Result<(), DbErr> {
    let now = Utc::now();
    let ready = opened.ready();
    account::Entity::insert(account::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user),
        provider: Set(provider.to_owned()),
        account_id: Set(opened.id.clone()),
        status: Set(AccountStatus::ready(ready).into()),
        enabled_at: Set(ready.then_some(now)),
        created_at: Set(now),
        updated_at: Set(now),
    })
    // Either unique key may be the one a simultaneous press hits first (the
    // same user, and the same account at the provider): both mean "kept".
    .on_conflict(OnConflict::new().do_nothing().to_owned())
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// `account.updated`: the account finished onboarding (or lost the right to
/// receive transfers, and waits again).
pub async fn account_updated(
    db: &impl ConnectionTrait,
    provider: &str,
    updated: &ConnectedAccount,
) -> Result<(), DbErr> {
    let Some(row) = account::Entity::find()
        .filter(account::Column::Provider.eq(provider))
        .filter(account::Column::AccountId.eq(&updated.id))
        .one(db)
        .await?
    else {
        return Ok(());
    };
    let status = AccountStatus::ready(updated.ready());
    if row.status == status {
        return Ok(());
    }
    let now = Utc::now();
    let mut active: account::ActiveModel = row.clone().into();
    active.status = Set(status.into());
    if status == AccountStatus::Enabled && row.enabled_at.is_none() {
        active.enabled_at = Set(Some(now));
    }
    active.updated_at = Set(now);
    sea_orm::ActiveModelTrait::update(active, db).await?;
    Ok(())
}

fn no_account() -> ApiError {
    ApiError::not_found("We couldn't find this payout account.")
}

/// The sandbox and the caller's own test account `id`; anything else is 404.
async fn own_sandbox_account<'s>(
    state: &'s AppState,
    user: &AuthUser,
    id: &str,
) -> Result<&'s crate::providers::payments::sandbox::Sandbox, ApiError> {
    let sandbox = state.payments.sandbox.as_deref().ok_or_else(no_account)?;
    account::Entity::find()
        .filter(account::Column::Provider.eq("sandbox"))
        .filter(account::Column::AccountId.eq(id))
        .filter(account::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .ok_or_else(no_account)?;
    Ok(sandbox)
}

fn sandbox_view(data: &Value) -> SandboxAccount {
    let ready = ConnectedAccount::from_object(data).is_some_and(|account| account.ready());
    SandboxAccount {
        id: data["id"].as_str().unwrap_or_default().to_owned(),
        email: data["email"].as_str().map(str::to_owned),
        status: AccountStatus::ready(ready),
        notice: SANDBOX_NOTICE.to_owned(),
    }
}

/// The sandbox's test onboarding page: the caller's own account only.
#[utoipa::path(get, path = "/payouts/sandbox/accounts/{id}", tag = "billing",
    params(("id" = String, Path, description = "The test account's id (acct_sandbox_…)")),
    responses(
        CommunityErrors,
        (status = 200, description = "The test account", body = SandboxAccount),
        SignedInErrors,
        (status = 404, description = "No such account of the caller's, or the sandbox is off", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn sandbox_account(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<String>,
) -> Result<Json<SandboxAccount>, ApiError> {
    let sandbox = own_sandbox_account(&state, &user, &id).await?;
    let data = sandbox
        .account(&id)
        .await
        .map_err(|err| provider_error(err, "The test payout setup failed."))?
        .ok_or_else(no_account)?;
    Ok(Json(sandbox_view(&data)))
}

/// Finish test setup: the account may receive transfers, told through the
/// same `account.updated` event Stripe sends.
#[utoipa::path(post, path = "/payouts/sandbox/accounts/{id}/complete", tag = "billing",
    params(("id" = String, Path, description = "The test account's id")),
    responses(
        CommunityErrors,
        (status = 200, description = "The account is enabled", body = SandboxAccount),
        SignedInErrors,
        (status = 404, description = "No such account of the caller's", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn sandbox_complete(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<String>,
) -> Result<Json<SandboxAccount>, ApiError> {
    let sandbox = own_sandbox_account(&state, &user, &id).await?;
    let data = sandbox
        .complete_onboarding(&id)
        .await
        .map_err(|err| provider_error(err, "The test payout setup failed. Please try again."))?;
    super::deliver_sandbox_events(&state).await;
    Ok(Json(sandbox_view(&data)))
}
