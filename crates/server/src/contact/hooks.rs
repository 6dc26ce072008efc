//! What contact tells billing and hears from it (see `http::hooks`): the
//! price of a request (the fee of its stored rank), whether a request still
//! exists, whose share its fee is (the contestant's 75 %), and each change
//! of its payment, which contact copies onto the request (`paid`,
//! `payment_status`) and, for a confirmed hold, mails the contestant about.

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, DatabaseConnection, DatabaseTransaction, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter,
};
use uuid::Uuid;

use super::{entity, mail};
use crate::billing::entity::payment::{self, Status};
use crate::billing::rules::{Purchase, contact_fee_cents, contact_price_id};
use crate::http::AppState;
use crate::http::hooks::{Hooks, Payee, Priced};
use crate::mail::Mailer;

/// `contact_requests.payment_status` before any payment.
pub const PENDING_PAYMENT: &str = "pending_payment";

pub struct ContactHooks {
    pub mailer: Mailer,
    /// The public address of the app, for the mail's link.
    pub base_url: String,
    /// `payments.reply_window_days`, said in the mail.
    pub reply_window_days: u32,
}

fn sells(purpose: &str) -> bool {
    purpose == Purchase::ContactRequest.as_str()
}

#[async_trait::async_trait]
impl Hooks<AppState> for ContactHooks {
    /// A banned user's open requests, sent and received, are withdrawn
    /// (denied, their holds released: nobody is charged), and their
    /// conversations close.
    async fn user_banned(&self, state: &AppState, user: Uuid) -> Result<(), DbErr> {
        let open = entity::Entity::find()
            .filter(
                sea_orm::Condition::any()
                    .add(entity::Column::RequesterId.eq(user))
                    .add(entity::Column::ContestantId.eq(user)),
            )
            .filter(entity::Column::Status.eq(super::Status::Pending))
            .all(&state.db)
            .await?;
        for request in open {
            if super::claim(&state.db, request.id, false, super::Status::Denied).await? {
                super::release_hold(state, request.id).await?;
            }
        }
        entity::Entity::update_many()
            .col_expr(entity::Column::ClosedAt, Expr::value(Utc::now()))
            .filter(
                sea_orm::Condition::any()
                    .add(entity::Column::RequesterId.eq(user))
                    .add(entity::Column::ContestantId.eq(user)),
            )
            .filter(entity::Column::ClosedAt.is_null())
            .exec(&state.db)
            .await?;
        Ok(())
    }

    /// The fee of the rank stored with the buyer's unpaid request.
    async fn price(
        &self,
        db: &DatabaseConnection,
        purpose: &str,
        reference: Uuid,
        buyer: Uuid,
    ) -> Result<Option<Priced>, DbErr> {
        if !sells(purpose) {
            return Ok(None);
        }
        let found = entity::Entity::find_by_id(reference)
            .filter(entity::Column::RequesterId.eq(buyer))
            .one(db)
            .await?;
        Ok(Some(match found {
            None => Priced::NotFound,
            Some(row) if row.payment_status != PENDING_PAYMENT => Priced::AlreadyPaid,
            Some(row) => {
                let rank = u32::try_from(row.rank_at_request).unwrap_or(1);
                Priced::Price {
                    amount_cents: contact_fee_cents(rank),
                    price_id: contact_price_id(rank),
                }
            }
        }))
    }

    async fn reference_exists(
        &self,
        txn: &DatabaseTransaction,
        purpose: &str,
        reference: Uuid,
    ) -> Result<Option<bool>, DbErr> {
        if !sells(purpose) {
            return Ok(None);
        }
        let found = entity::Entity::find_by_id(reference).count(txn).await?;
        Ok(Some(found > 0))
    }

    async fn payee(
        &self,
        txn: &DatabaseTransaction,
        purpose: &str,
        reference: Uuid,
    ) -> Result<Option<Payee>, DbErr> {
        if !sells(purpose) {
            return Ok(None);
        }
        let Some(row) = entity::Entity::find_by_id(reference).one(txn).await? else {
            return Ok(None);
        };
        let requester = mail::requester_name(txn, row.requester_id).await?;
        Ok(Some(Payee {
            user_id: row.contestant_id,
            share_cents: row.contestant_share_cents,
            description: format!("Contact request from {requester}"),
        }))
    }

    async fn payment_changed(
        &self,
        txn: &DatabaseTransaction,
        payment_id: Uuid,
    ) -> Result<(), DbErr> {
        let Some(paid) = payment::Entity::find_by_id(payment_id).one(txn).await? else {
            return Ok(());
        };
        let Some(request_id) = paid.contact_request_id else {
            return Ok(());
        };
        // A second payment for the request is given back by billing: the
        // request follows its own payment only.
        if paid.duplicate_of.is_some() {
            return Ok(());
        }
        // A confirmed or captured hold is paid; a released hold and a
        // refund give the requester their money back.
        let copied = match paid.state() {
            Status::Held | Status::Succeeded => Some((true, "paid")),
            Status::Canceled | Status::Refunded => Some((false, "refunded")),
            _ => None,
        };
        if let Some((is_paid, status)) = copied {
            entity::Entity::update_many()
                .col_expr(entity::Column::Paid, Expr::value(is_paid))
                .col_expr(entity::Column::PaymentStatus, Expr::value(status))
                .col_expr(entity::Column::UpdatedAt, Expr::value(Utc::now()))
                .filter(entity::Column::Id.eq(request_id))
                .exec(txn)
                .await?;
        }
        mail::tell_held(
            txn,
            &self.mailer,
            &self.base_url,
            self.reply_window_days,
            &paid,
        )
        .await
    }
}
