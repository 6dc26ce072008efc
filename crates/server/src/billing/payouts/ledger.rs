//! The payee's ledger, kept right from the payments it follows: one line per
//! payment that earns someone a share (a contact fee's 75 %), written in the
//! transaction of the provider event that moved the payment, so a replayed
//! or late event finds nothing to do.
//!
//! A line only moves forward: `held` → `captured` → `transferred`, or to one
//! of the ends `released`, `canceled`, `reversed`. A refund or dispute
//! cancels a line that was never tried; a line being sent, or sent, is
//! marked `reverse_owed` and the transfer job takes the transfer back. The
//! line keeps why (`reason`: refund, dispute, no reply).
//!
//! A captured share is paid for a conversation, not for a click: it is
//! payable only once the payee has written in it ([`replied`], told by the
//! messages domain in the message's transaction) and the refund window has
//! passed. A line the payee leaves unanswered for `payments.reply_window_days`
//! after the capture is refunded to the buyer in full ([`super::unanswered`]).

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DatabaseTransaction, DbErr,
    EntityTrait, QueryFilter, QueryOrder,
};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::entity::{LineStatus, TakenBack, line};
use crate::billing::entity::payment::{self, Status as PaymentStatus};
use crate::http::AppHooks;

/// What a line looks like to its payee: the stored state, with `captured`
/// split into waiting for the refund window and `payable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineState {
    Held,
    Captured,
    Payable,
    Transferred,
    Released,
    Canceled,
    Reversed,
}

/// When a line captured at `captured_at` may be sent.
pub fn payable_at(captured_at: DateTime<Utc>, window_days: u32) -> DateTime<Utc> {
    captured_at + Duration::days(i64::from(window_days))
}

/// Where a line stands at `now`: a captured line is payable once the payee
/// has replied and the refund window after the charge has passed.
pub fn state_of(row: &line::Model, window_days: u32, now: DateTime<Utc>) -> LineState {
    match row.status {
        LineStatus::Held => LineState::Held,
        LineStatus::Captured => match row.captured_at {
            Some(at)
                if payable_at(at, window_days) <= now
                    && row.replied_at.is_some()
                    && row.reason.is_none() =>
            {
                LineState::Payable
            }
            _ => LineState::Captured,
        },
        LineStatus::Transferred => LineState::Transferred,
        LineStatus::Released => LineState::Released,
        LineStatus::Canceled => LineState::Canceled,
        LineStatus::Reversed => LineState::Reversed,
    }
}

/// The payee's totals, each the sum of the lines in its states: nothing is
/// counted twice and a line that ended owing nothing counts in none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    /// Held, or captured and still in the refund window.
    pub pending_cents: i64,
    /// Past the refund window, not sent yet.
    pub available_cents: i64,
    /// Sent to the payout account.
    pub paid_cents: i64,
}

impl Totals {
    pub fn add(&mut self, state: LineState, amount_cents: i64) {
        match state {
            LineState::Held | LineState::Captured => self.pending_cents += amount_cents,
            LineState::Payable => self.available_cents += amount_cents,
            LineState::Transferred => self.paid_cents += amount_cents,
            LineState::Released | LineState::Canceled | LineState::Reversed => {}
        }
    }
}

/// The day by which the payee must write in the conversation, for a
/// captured line they have not replied to yet (none otherwise).
pub fn reply_by(row: &line::Model, reply_days: u32) -> Option<DateTime<Utc>> {
    if row.status != LineStatus::Captured || row.replied_at.is_some() || row.reason.is_some() {
        return None;
    }
    row.captured_at
        .map(|at| at + Duration::days(i64::from(reply_days)))
}

/// The payee `payee` wrote in the conversation `reference` (a contact
/// request) paid for: their share there counts as delivered, once (the
/// first message), unless it is already being refunded for want of one.
/// In the message's transaction.
pub async fn replied(db: &impl ConnectionTrait, reference: Uuid, payee: Uuid) -> Result<(), DbErr> {
    let now = Utc::now();
    line::Entity::update_many()
        .col_expr(line::Column::RepliedAt, Expr::value(now))
        .col_expr(line::Column::UpdatedAt, Expr::value(now))
        .filter(line::Column::Reference.eq(reference))
        .filter(line::Column::PayeeId.eq(payee))
        .filter(line::Column::RepliedAt.is_null())
        .filter(line::Column::Reason.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// What the payee has earned and keeps: their share of every payment that
/// was charged and not refunded or disputed, sent or not.
pub async fn earned_cents(db: &impl ConnectionTrait, payee: Uuid) -> Result<i64, DbErr> {
    Ok(line::Entity::find()
        .filter(line::Column::PayeeId.eq(payee))
        .filter(line::Column::Status.is_in([LineStatus::Captured, LineStatus::Transferred]))
        .filter(line::Column::ReverseOwed.eq(false))
        .all(db)
        .await?
        .iter()
        .map(|row| row.amount_cents)
        .sum())
}

/// The payee's lines, newest first.
pub async fn lines_of(db: &impl ConnectionTrait, payee: Uuid) -> Result<Vec<line::Model>, DbErr> {
    line::Entity::find()
        .filter(line::Column::PayeeId.eq(payee))
        .order_by_desc(line::Column::CreatedAt)
        .order_by_desc(line::Column::Id)
        .all(db)
        .await
}

/// Brings the line of payment `payment_id` up to date with it, in the
/// transaction that changed the payment.
pub async fn reconcile(
    txn: &DatabaseTransaction,
    hooks: &AppHooks,
    payment_id: Uuid,
) -> Result<(), DbErr> {
    let Some(paid) = payment::Entity::find_by_id(payment_id).one(txn).await? else {
        return Ok(());
    };
    let Some(reference) = paid.contact_request_id else {
        return Ok(());
    };
    let now = Utc::now();
    let existing = line::Entity::find()
        .filter(line::Column::PaymentId.eq(payment_id))
        .one(txn)
        .await?;
    if existing.is_none() {
        // A second payment for one request is given back: it earns nothing.
        if paid.duplicate_of.is_some() {
            return Ok(());
        }
        let status = match paid.state() {
            PaymentStatus::Held => LineStatus::Held,
            PaymentStatus::Succeeded => LineStatus::Captured,
            // Nothing was ever earned: no line.
            _ => return Ok(()),
        };
        let Some(payee) = hooks.payee(txn, &paid.purpose, reference).await? else {
            return Ok(());
        };
        line::Entity::insert(line::ActiveModel {
            id: Set(Uuid::now_v7()),
            payee_id: Set(payee.user_id),
            payment_id: Set(payment_id),
            reference: Set(Some(reference)),
            description: Set(payee.description),
            fee_cents: Set(paid.amount_cents),
            amount_cents: Set(payee.share_cents.clamp(0, paid.amount_cents)),
            currency: Set(paid.currency.clone()),
            status: Set(status),
            captured_at: Set((status == LineStatus::Captured).then_some(now)),
            reverse_owed: Set(false),
            claimed_at: Set(None),
            attempts: Set(0),
            last_error: Set(None),
            transfer_id: Set(None),
            transferred_at: Set(None),
            reversal_id: Set(None),
            reversed_at: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            replied_at: Set(None),
            reason: Set(None),
        })
        .on_conflict(
            OnConflict::column(line::Column::PaymentId)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(txn)
        .await?;
        return Ok(());
    }
    match paid.state() {
        PaymentStatus::Succeeded => {
            move_line(
                txn,
                payment_id,
                &[LineStatus::Held],
                LineStatus::Captured,
                Some(now),
            )
            .await
        }
        PaymentStatus::Canceled | PaymentStatus::Failed => {
            move_line(
                txn,
                payment_id,
                &[LineStatus::Held],
                LineStatus::Released,
                None,
            )
            .await
        }
        PaymentStatus::Refunded | PaymentStatus::PartiallyRefunded => {
            take_back(txn, payment_id).await
        }
        _ => Ok(()),
    }
}

/// A refund of payment `payment_id`: see [`take_back_because`].
pub async fn take_back(db: &impl ConnectionTrait, payment_id: Uuid) -> Result<(), DbErr> {
    take_back_because(db, payment_id, TakenBack::Refund).await
}

/// A refund or dispute of payment `payment_id`: its line owes nothing. A
/// line never tried is canceled here; one being sent or sent is left to the
/// transfer job to take back. A contact fee is refunded whole, so any refund
/// takes back the whole share. The first reason given stays (a refund for
/// want of a reply stays `no_reply` when the provider's refund arrives).
pub async fn take_back_because(
    db: &impl ConnectionTrait,
    payment_id: Uuid,
    reason: TakenBack,
) -> Result<(), DbErr> {
    let now = Utc::now();
    line::Entity::update_many()
        .col_expr(line::Column::Reason, Expr::value(reason))
        .filter(line::Column::PaymentId.eq(payment_id))
        .filter(line::Column::Reason.is_null())
        .filter(line::Column::Status.is_in([
            LineStatus::Held,
            LineStatus::Captured,
            LineStatus::Transferred,
        ]))
        .exec(db)
        .await?;
    let canceled = line::Entity::update_many()
        .col_expr(line::Column::Status, Expr::value(LineStatus::Canceled))
        .col_expr(line::Column::UpdatedAt, Expr::value(now))
        .filter(line::Column::PaymentId.eq(payment_id))
        .filter(
            Condition::any()
                .add(line::Column::Status.eq(LineStatus::Held))
                .add(
                    Condition::all()
                        .add(line::Column::Status.eq(LineStatus::Captured))
                        .add(line::Column::ClaimedAt.is_null())
                        .add(line::Column::Attempts.eq(0)),
                ),
        )
        .exec(db)
        .await?;
    if canceled.rows_affected == 0 {
        line::Entity::update_many()
            .col_expr(line::Column::ReverseOwed, Expr::value(true))
            .col_expr(line::Column::UpdatedAt, Expr::value(now))
            .filter(line::Column::PaymentId.eq(payment_id))
            .filter(line::Column::Status.is_in([LineStatus::Captured, LineStatus::Transferred]))
            .exec(db)
            .await?;
    }
    Ok(())
}

async fn move_line(
    db: &impl ConnectionTrait,
    payment_id: Uuid,
    from: &[LineStatus],
    to: LineStatus,
    captured_at: Option<DateTime<Utc>>,
) -> Result<(), DbErr> {
    let mut update = line::Entity::update_many()
        .col_expr(line::Column::Status, Expr::value(to))
        .col_expr(line::Column::UpdatedAt, Expr::value(Utc::now()));
    if let Some(at) = captured_at {
        update = update.col_expr(line::Column::CapturedAt, Expr::value(at));
    }
    update
        .filter(line::Column::PaymentId.eq(payment_id))
        .filter(line::Column::Status.is_in(from.iter().copied()))
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: LineStatus, captured_at: Option<DateTime<Utc>>) -> line::Model {
        let now = Utc::now();
        line::Model {
            id: Uuid::now_v7(),
            payee_id: Uuid::now_v7(),
            payment_id: Uuid::now_v7(),
            reference: None,
            description: String::new(),
            fee_cents: 100_000,
            amount_cents: 75_000,
            currency: "usd".to_owned(),
            status,
            captured_at,
            reverse_owed: false,
            claimed_at: None,
            attempts: 0,
            last_error: None,
            transfer_id: None,
            transferred_at: None,
            reversal_id: None,
            reversed_at: None,
            created_at: now,
            updated_at: now,
            replied_at: Some(now),
            reason: None,
        }
    }

    #[test]
    fn a_share_is_payable_only_once_the_payee_replied_and_the_window_passed() {
        let now = Utc::now();
        let mut silent = row(LineStatus::Captured, Some(now - Duration::days(8)));
        silent.replied_at = None;
        assert_eq!(state_of(&silent, 7, now), LineState::Captured);
        assert_eq!(
            reply_by(&silent, 7),
            Some(now - Duration::days(1)),
            "seven days after the approval"
        );
        silent.replied_at = Some(now);
        assert_eq!(state_of(&silent, 7, now), LineState::Payable);
        assert_eq!(reply_by(&silent, 7), None);
        let mut refunding = silent.clone();
        refunding.replied_at = None;
        refunding.reason = Some(TakenBack::NoReply.into());
        assert_eq!(state_of(&refunding, 7, now), LineState::Captured);
        assert_eq!(reply_by(&refunding, 7), None);
    }

    #[test]
    fn a_captured_line_is_payable_once_the_window_has_passed() {
        let now = Utc::now();
        let captured = row(LineStatus::Captured, Some(now - Duration::days(6)));
        assert_eq!(state_of(&captured, 7, now), LineState::Captured);
        assert_eq!(state_of(&captured, 6, now), LineState::Payable);
        assert_eq!(state_of(&captured, 0, now), LineState::Payable);
        assert_eq!(
            payable_at(now, 7),
            now + Duration::days(7),
            "payable seven days after the charge"
        );
    }

    #[test]
    fn totals_count_each_line_once_and_ended_lines_in_none() {
        let mut totals = Totals::default();
        for (state, cents) in [
            (LineState::Held, 1),
            (LineState::Captured, 10),
            (LineState::Payable, 100),
            (LineState::Transferred, 1_000),
            (LineState::Released, 10_000),
            (LineState::Canceled, 100_000),
            (LineState::Reversed, 1_000_000),
        ] {
            totals.add(state, cents);
        }
        assert_eq!(
            totals,
            Totals {
                pending_cents: 11,
                available_cents: 100,
                paid_cents: 1_000
            }
        );
    }
}
