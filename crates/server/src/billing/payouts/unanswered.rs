//! A share is paid for a conversation, not for a click: a captured contact
//! fee whose payee has not written in the conversation within
//! `payments.reply_window_days` of the capture (the approval) is refunded
//! to the buyer in full, automatically, and earns nothing.
//!
//! Two steps, each safe to repeat and to run on any number of instances:
//!
//! 1. [`claim_unanswered`]: one transaction per line, whose conditional
//!    UPDATE marks the line `no_reply` only while it is still captured,
//!    unreplied and unclaimed (a first message committed before it wins; one
//!    committed after it no longer counts), and writes the refund owed into
//!    `billing_refunds` (once per payment, by its unique key).
//! 2. [`super::super::refunds::settle`]: the refund at the provider, with an
//!    idempotency key, retried by the refund worker until it is done. A
//!    crash between the two leaves the refund owed, and the next run (or the
//!    refund worker) does it, once.
//!
//! The provider's `charge.refunded` then cancels the line (it was never
//! sent: an unreplied line is never payable) and mails both parties
//! ([`crate::billing::mail`]).

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, TransactionTrait};

use super::entity::{LineStatus, TakenBack, line};
use crate::billing::entity::payment;
use crate::billing::refunds;
use crate::http::AppState;

/// Claims every line left unanswered past the reply window at `now` and
/// records its refund as owed; how many it claimed.
pub async fn claim_unanswered(state: &AppState, now: DateTime<Utc>) -> Result<usize, DbErr> {
    let days = state.config.payments.reply_window_days;
    let silent_since = now - Duration::days(i64::from(days));
    let due = line::Entity::find()
        .filter(line::Column::Status.eq(LineStatus::Captured))
        .filter(line::Column::RepliedAt.is_null())
        .filter(line::Column::Reason.is_null())
        .filter(line::Column::ReverseOwed.eq(false))
        .filter(line::Column::CapturedAt.lte(silent_since))
        .all(&state.db)
        .await?;
    let mut claimed = 0;
    for row in due {
        let txn = state.db.begin().await?;
        let won = line::Entity::update_many()
            .col_expr(line::Column::Reason, Expr::value(TakenBack::NoReply))
            .col_expr(line::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(line::Column::Id.eq(row.id))
            .filter(line::Column::Status.eq(LineStatus::Captured))
            .filter(line::Column::RepliedAt.is_null())
            .filter(line::Column::Reason.is_null())
            .exec(&txn)
            .await?;
        if won.rows_affected != 1 {
            txn.rollback().await?;
            continue;
        }
        let Some(paid) = payment::Entity::find_by_id(row.payment_id)
            .one(&txn)
            .await?
        else {
            txn.rollback().await?;
            continue;
        };
        refunds::owe(
            &txn,
            paid.user_id,
            &paid.provider,
            refunds::PAYMENT,
            &paid.id.to_string(),
            &format!("The contestant did not reply within {days} days of approving"),
        )
        .await?;
        txn.commit().await?;
        claimed += 1;
    }
    Ok(claimed)
}

/// [`claim_unanswered`], then the refunds owed at the provider (and, in the
/// sandbox, its events delivered, which cancel the lines and mail both
/// parties); how many lines it claimed.
pub async fn refund_unanswered(state: &AppState, now: DateTime<Utc>) -> Result<usize, DbErr> {
    let claimed = claim_unanswered(state, now).await?;
    refunds::settle(state).await?;
    crate::billing::deliver_sandbox_events(state).await;
    Ok(claimed)
}
