//! Telling the parties of a contact request, through the durable mail
//! outbox (a mail that cannot be sent now is retried from `mail_outbox`,
//! and queuing it never waits for SMTP):
//!
//! - the contestant, when the requester's hold is confirmed: who asked, the
//!   fee, their 75 % share, the deadline to answer and a link. Queued in the
//!   payment's transaction by [`ContactHooks`] (billing announces every
//!   payment change through the hooks seam), once: `held_mailed_at` is set
//!   by one conditional UPDATE;
//! - the contestant again 24 hours before the hold expires unanswered
//!   ([`remind_expiring`], run by the expiry job on every instance; each
//!   request is claimed by a conditional UPDATE of `reminded_at`, so it is
//!   reminded once);
//! - the requester, when the contestant approves ([`tell_approved`]).

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait, QueryFilter,
    TransactionTrait,
};
use uuid::Uuid;

use super::{Status, entity, rules};
use crate::billing::entity::payment;
use crate::billing::holds;
use crate::db::entities::users;
use crate::http::AppState;
use crate::mail::{Mail, Mailer};

/// How long before the hold expires the contestant is reminded.
pub const REMIND_BEFORE: Duration = Duration::hours(24);

/// `$950.00` from cents.
fn money(cents: i64) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

fn when(at: DateTime<Utc>) -> String {
    at.format("%B %-d, %Y at %H:%M UTC").to_string()
}

pub(super) async fn requester_name(db: &impl ConnectionTrait, id: Uuid) -> Result<String, DbErr> {
    Ok(users::Entity::find_by_id(id)
        .one(db)
        .await?
        .map(|user| rules::requester_name(&user.raw_user_meta_data))
        .unwrap_or_else(|| rules::ANONYMOUS_NAME.to_owned()))
}

async fn email_of(db: &impl ConnectionTrait, id: Uuid) -> Result<Option<String>, DbErr> {
    Ok(users::Entity::find_by_id(id)
        .one(db)
        .await?
        .and_then(|user| user.email))
}

/// The mail to the contestant about a paid request waiting for them.
fn waiting_mail(
    to: String,
    requester: &str,
    row: &entity::Model,
    deadline: DateTime<Utc>,
    link: String,
    reminder: bool,
    reply_days: u32,
) -> Mail {
    let (subject, opening) = if reminder {
        (
            format!("Reminder: {requester}'s contact request expires in 24 hours"),
            format!(
                "{requester}'s contact request is still waiting for your answer. If you do not answer by {}, it expires and the hold on their card is released.",
                when(deadline)
            ),
        )
    } else {
        (
            // Nothing is paid yet: the card is only held until the answer.
            format!("{requester} sent you a paid request on PrettyScore"),
            format!(
                "{requester} sent you a contact request. The fee is held on their card, not charged: it is charged only if you approve."
            ),
        )
    };
    let body_text = format!(
        "Hi,\n\n{opening}\n\nTheir message: \"{message}\"\n\nFee: {fee}\nYour share if you approve (75 %): {share}\nAnswer by: {deadline}\n\nApprove to start a private chat, or decline and they are not charged. If you do not answer by then, the request expires and they are not charged.\n\nYou are paid for a conversation, not for a click: once you approve, your share becomes payable when you have written to them in the chat and the refund window has passed. If you send them nothing within {reply_days} days of approving, they are refunded in full and you earn nothing.\n\nAnswer here: {link}\n\nThe PrettyScore team\n",
        message = row.message_preview,
        fee = money(row.fee_amount_cents),
        share = money(row.contestant_share_cents),
        deadline = when(deadline),
    );
    Mail {
        to,
        subject,
        body_text,
        body_html: None,
        kind: if reminder {
            "contact_request_reminder"
        } else {
            "contact_request_received"
        },
        link: Some(link),
    }
}

/// Mails the contestant, once, that the paid request `paid` is for waits
/// for them (in the transaction that confirmed the hold, through the outbox).
pub(super) async fn tell_held(
    txn: &DatabaseTransaction,
    mailer: &Mailer,
    base_url: &str,
    reply_days: u32,
    paid: &payment::Model,
) -> Result<(), DbErr> {
    let Some(request_id) = paid.contact_request_id else {
        return Ok(());
    };
    if paid.state() != payment::Status::Held {
        return Ok(());
    }
    let claimed = entity::Entity::update_many()
        .col_expr(entity::Column::HeldMailedAt, Expr::value(Utc::now()))
        .filter(entity::Column::Id.eq(request_id))
        .filter(entity::Column::HeldMailedAt.is_null())
        .filter(entity::Column::Status.eq(Status::Pending))
        .exec(txn)
        .await?;
    if claimed.rows_affected != 1 {
        return Ok(());
    }
    let Some(row) = entity::Entity::find_by_id(request_id).one(txn).await? else {
        return Ok(());
    };
    let Some(to) = email_of(txn, row.contestant_id).await? else {
        return Ok(());
    };
    let requester = requester_name(txn, row.requester_id).await?;
    let deadline = rules::hold_expires_at(paid.created_at);
    let link = format!("{}/contestant-requests", base_url.trim_end_matches('/'));
    mailer
        .send_in(
            txn,
            waiting_mail(to, &requester, &row, deadline, link, false, reply_days),
        )
        .await?;
    Ok(())
}

/// Reminds the contestant of every paid request that expires within
/// [`REMIND_BEFORE`] of `now` and was not reminded; how many were reminded.
pub async fn remind_expiring(state: &AppState, now: DateTime<Utc>) -> Result<usize, DbErr> {
    let due = now + REMIND_BEFORE - Duration::days(rules::HOLD_DAYS);
    let mut reminded = 0;
    for hold in holds::held(&state.db, Some(due)).await? {
        let id = hold.reference;
        let deadline = rules::hold_expires_at(hold.placed_at);
        if now >= deadline {
            continue;
        }
        // The claim and the queued mail commit together: of all instances one
        // reminds, and a claim whose mail could not be queued is rolled back, so
        // the next run reminds instead of no one ever doing so.
        let txn = state.db.begin().await?;
        let claimed = entity::Entity::update_many()
            .col_expr(entity::Column::RemindedAt, Expr::value(now))
            .filter(entity::Column::Id.eq(id))
            .filter(entity::Column::RemindedAt.is_null())
            .filter(entity::Column::Status.eq(Status::Pending))
            .filter(entity::Column::Paid.eq(true))
            .exec(&txn)
            .await?;
        if claimed.rows_affected != 1 {
            continue;
        }
        let Some(row) = entity::Entity::find_by_id(id).one(&txn).await? else {
            continue;
        };
        let Some(to) = email_of(&txn, row.contestant_id).await? else {
            // No one to mail (the account is gone): claimed, nothing to queue.
            txn.commit().await?;
            continue;
        };
        let requester = requester_name(&txn, row.requester_id).await?;
        let link = format!(
            "{}/contestant-requests",
            state.base_url.trim_end_matches('/')
        );
        state
            .mailer
            .send_in(
                &txn,
                waiting_mail(
                    to,
                    &requester,
                    &row,
                    deadline,
                    link,
                    true,
                    state.config.payments.reply_window_days,
                ),
            )
            .await?;
        txn.commit().await?;
        reminded += 1;
    }
    Ok(reminded)
}

/// Mails the requester that the contestant approved: the chat is open.
pub async fn tell_approved(state: &AppState, row: &entity::Model) {
    let to = match email_of(&state.db, row.requester_id).await {
        Ok(Some(to)) => to,
        Ok(None) => return,
        Err(err) => {
            tracing::warn!(error = %err, "could not find the requester to mail");
            return;
        }
    };
    let link = format!(
        "{}/messages/{}",
        state.base_url.trim_end_matches('/'),
        row.id
    );
    let mail = Mail {
        to,
        subject: "Your PrettyScore contact request was approved".to_owned(),
        body_text: format!(
            "Hi,\n\nGood news: the contestant approved your contact request. Your card was charged {fee}, and your private chat is open.\n\nIf the contestant sends you nothing within {days} days, you are refunded in full, automatically.\n\nStart chatting: {link}\n\nThe PrettyScore team\n",
            fee = money(row.fee_amount_cents),
            days = state.config.payments.reply_window_days,
        ),
        body_html: None,
        kind: "contact_request_approved",
        link: Some(link),
    };
    if let Err(err) = state.mailer.send(mail).await {
        tracing::warn!(error = %err, "could not queue the approved-request mail");
    }
}
