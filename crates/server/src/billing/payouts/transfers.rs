//! Sending payees their money, and taking it back after a late refund.
//!
//! Every `payments.payout_interval_secs`, each instance looks for lines past
//! the refund window whose payee has an enabled payout account, claims each
//! with one conditional UPDATE (so one instance sends it), and transfers
//! the share with the line's id as the idempotency key: a retry after a
//! crash or a timeout is the same transfer at the provider, never a second.
//! Lines marked `reverse_owed` (refunded or disputed after they were tried)
//! are sent first if they may have reached the provider, then reversed.
//! A line is due only once its payee has replied in the conversation; the
//! same worker first refunds the fees whose payee never did
//! ([`super::unanswered`]), and mails each payee once their share is sent.

use std::collections::BTreeMap;
use std::time::Duration as StdDuration;

use chrono::{Duration, Utc};
use sea_orm::ExprTrait;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use uuid::Uuid;

use super::entity::{AccountStatus, LineStatus, account, line};
use crate::http::AppState;
use crate::providers::payments::{PaymentError, Transfer, TransferRequest};

/// A claim older than this is taken to be of an instance that stopped.
const CLAIM_TIMEOUT: Duration = Duration::minutes(5);
/// Lines looked at per run.
const BATCH: u64 = 50;

/// Starts the transfer job on this instance.
pub fn spawn_transfer_worker(state: AppState) {
    let every = StdDuration::from_secs(Ord::max(state.config.payments.payout_interval_secs, 1));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            match super::unanswered::refund_unanswered(&state, Utc::now()).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "refunded contact fees nobody replied to"),
                Err(err) => {
                    tracing::error!(error = %err, "could not refund the unanswered contact fees")
                }
            }
            if let Err(err) = run(&state).await {
                tracing::error!(error = %err, "could not run the payout transfers");
            }
        }
    });
}

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub transferred: usize,
    pub reversed: usize,
    pub canceled: usize,
    pub failed: usize,
}

/// Sends what is due and takes back what is owed; safe on any number of
/// instances at once.
pub async fn run(state: &AppState) -> Result<Run, DbErr> {
    let provider = state.payments.provider.name();
    let now = Utc::now();
    let window = Duration::days(i64::from(state.config.payments.payout_window_days));
    let stale = now - CLAIM_TIMEOUT;
    let unclaimed = || {
        Condition::any()
            .add(line::Column::ClaimedAt.is_null())
            .add(line::Column::ClaimedAt.lt(stale))
    };
    let due = line::Entity::find()
        .filter(unclaimed())
        .filter(
            Condition::any()
                .add(
                    Condition::all()
                        .add(line::Column::Status.eq(LineStatus::Captured))
                        .add(
                            Condition::any()
                                // Payable: replied to, and past the refund window.
                                .add(
                                    Condition::all()
                                        .add(line::Column::CapturedAt.lte(now - window))
                                        .add(line::Column::RepliedAt.is_not_null())
                                        .add(line::Column::Reason.is_null()),
                                )
                                .add(line::Column::ReverseOwed.eq(true)),
                        ),
                )
                .add(
                    Condition::all()
                        .add(line::Column::Status.eq(LineStatus::Transferred))
                        .add(line::Column::ReverseOwed.eq(true)),
                ),
        )
        .order_by_asc(line::Column::CapturedAt)
        .limit(BATCH)
        .all(&state.db)
        .await?;
    let mut run = Run::default();
    for row in due {
        // A refund before any attempt: nothing ever left, nothing to take back.
        if row.status == LineStatus::Captured && row.reverse_owed && row.attempts == 0 {
            let canceled = line::Entity::update_many()
                .col_expr(line::Column::Status, Expr::value(LineStatus::Canceled))
                .col_expr(line::Column::UpdatedAt, Expr::value(Utc::now()))
                .filter(line::Column::Id.eq(row.id))
                .filter(line::Column::Status.eq(LineStatus::Captured))
                .filter(line::Column::Attempts.eq(0))
                .filter(unclaimed())
                .exec(&state.db)
                .await?;
            run.canceled += canceled.rows_affected as usize;
            continue;
        }
        let Some(destination) = account::Entity::find()
            .filter(account::Column::UserId.eq(row.payee_id))
            .filter(account::Column::Provider.eq(provider))
            .filter(account::Column::Status.eq(AccountStatus::Enabled))
            .one(&state.db)
            .await?
        else {
            // Waits, payable, until the payee connects an account.
            continue;
        };
        if !claim(state, &row, stale).await? {
            continue;
        }
        match settle(state, &row, &destination.account_id).await {
            Ok(Settled::Transferred) => {
                run.transferred += 1;
                crate::billing::mail::tell_paid(state, row.id).await;
            }
            Ok(Settled::Reversed) => run.reversed += 1,
            Err(err) => {
                run.failed += 1;
                tracing::warn!(line = %row.id, error = %err, "a payout transfer failed; it will be tried again");
                line::Entity::update_many()
                    .col_expr(
                        line::Column::LastError,
                        Expr::value(err.to_string().chars().take(500).collect::<String>()),
                    )
                    .col_expr(
                        line::Column::ClaimedAt,
                        Expr::value(Option::<chrono::DateTime<Utc>>::None),
                    )
                    .filter(line::Column::Id.eq(row.id))
                    .exec(&state.db)
                    .await?;
            }
        }
    }
    Ok(run)
}

/// One instance wins the line: its claim, and one more attempt counted
/// before the provider is called.
async fn claim(
    state: &AppState,
    row: &line::Model,
    stale: chrono::DateTime<Utc>,
) -> Result<bool, DbErr> {
    let claimed = line::Entity::update_many()
        .col_expr(line::Column::ClaimedAt, Expr::value(Utc::now()))
        .col_expr(
            line::Column::Attempts,
            Expr::col(line::Column::Attempts).add(1),
        )
        .filter(line::Column::Id.eq(row.id))
        .filter(line::Column::Status.eq(row.status))
        .filter(
            Condition::any()
                .add(line::Column::ClaimedAt.is_null())
                .add(line::Column::ClaimedAt.lt(stale)),
        )
        .exec(&state.db)
        .await?;
    Ok(claimed.rows_affected == 1)
}

enum Settled {
    Transferred,
    Reversed,
}

/// Sends the claimed line (again, with the same key, if it may have been
/// sent), then reverses it if a refund or dispute came meanwhile. Reads the
/// line again after the transfer: a refund may have landed during the call.
async fn settle(
    state: &AppState,
    row: &line::Model,
    destination: &str,
) -> Result<Settled, PaymentError> {
    let transfer_id = match &row.transfer_id {
        Some(id) => id.clone(),
        None => {
            let transfer = send(state, row, destination).await?;
            let now = Utc::now();
            line::Entity::update_many()
                .col_expr(line::Column::Status, Expr::value(LineStatus::Transferred))
                .col_expr(line::Column::TransferId, Expr::value(transfer.id.clone()))
                .col_expr(line::Column::TransferredAt, Expr::value(now))
                .col_expr(line::Column::LastError, Expr::value(Option::<String>::None))
                .col_expr(line::Column::UpdatedAt, Expr::value(now))
                .filter(line::Column::Id.eq(row.id))
                .exec(&state.db)
                .await?;
            transfer.id
        }
    };
    let owed = line::Entity::find_by_id(row.id)
        .one(&state.db)
        .await?
        .is_some_and(|now| now.reverse_owed);
    if owed {
        let reversal = state
            .payments
            .provider
            .reverse_transfer(&transfer_id)
            .await?;
        let now = Utc::now();
        line::Entity::update_many()
            .col_expr(line::Column::Status, Expr::value(LineStatus::Reversed))
            .col_expr(line::Column::ReversalId, Expr::value(reversal.id))
            .col_expr(line::Column::ReversedAt, Expr::value(now))
            .col_expr(line::Column::LastError, Expr::value(Option::<String>::None))
            .col_expr(
                line::Column::ClaimedAt,
                Expr::value(Option::<chrono::DateTime<Utc>>::None),
            )
            .col_expr(line::Column::UpdatedAt, Expr::value(now))
            .filter(line::Column::Id.eq(row.id))
            .exec(&state.db)
            .await?;
        return Ok(Settled::Reversed);
    }
    line::Entity::update_many()
        .col_expr(
            line::Column::ClaimedAt,
            Expr::value(Option::<chrono::DateTime<Utc>>::None),
        )
        .filter(line::Column::Id.eq(row.id))
        .exec(&state.db)
        .await?;
    Ok(Settled::Transferred)
}

async fn send(
    state: &AppState,
    row: &line::Model,
    destination: &str,
) -> Result<Transfer, PaymentError> {
    let mut metadata = BTreeMap::new();
    metadata.insert("earning_line_id".to_owned(), row.id.to_string());
    metadata.insert("payment_id".to_owned(), row.payment_id.to_string());
    let group = row.reference.unwrap_or(row.payment_id);
    state
        .payments
        .provider
        .transfer(&TransferRequest {
            amount_cents: row.amount_cents,
            currency: row.currency.clone(),
            destination: destination.to_owned(),
            transfer_group: format!("contact_{}", group.simple()),
            metadata,
            idempotency_key: format!("earning-{}", row.id),
        })
        .await
}

/// Sends `amount_cents` to `user`'s enabled payout account, once per
/// `key` (a partner payout's id): what Pay through Stripe does.
pub async fn pay_user(
    state: &AppState,
    user: Uuid,
    amount_cents: i64,
    key: &str,
    metadata: BTreeMap<String, String>,
) -> Result<Transfer, PayoutError> {
    let account = account::Entity::find()
        .filter(account::Column::UserId.eq(user))
        .filter(account::Column::Provider.eq(state.payments.provider.name()))
        .filter(account::Column::Status.eq(AccountStatus::Enabled))
        .one(&state.db)
        .await?
        .ok_or(PayoutError::NoAccount)?;
    Ok(state
        .payments
        .provider
        .transfer(&TransferRequest {
            amount_cents,
            currency: crate::billing::rules::CURRENCY.to_owned(),
            destination: account.account_id,
            transfer_group: format!("payout_{key}"),
            metadata,
            idempotency_key: format!("payout-{key}"),
        })
        .await?)
}

#[derive(Debug, thiserror::Error)]
pub enum PayoutError {
    #[error("no enabled payout account")]
    NoAccount,
    #[error(transparent)]
    Provider(#[from] PaymentError),
}

impl From<DbErr> for PayoutError {
    fn from(err: DbErr) -> Self {
        Self::Provider(PaymentError::Database(err))
    }
}
