//! The ledger: what a payment earns its partners, kept right however often
//! and in whatever order the payment's events arrive.
//!
//! [`reconcile`] runs in the billing transaction that recorded or advanced a
//! payment (through the `payment_changed` hook). It writes a sale line for
//! the partner the payment is credited to and a parent line for that
//! partner's own referrer; a refund then reduces an unpaid line (to zero and
//! `reversed` when the whole payment came back) or, when the line was paid
//! out already, adds a negative clawback line that the next payout deducts.
//! Every line is unique per (payment, partner, kind, refund level), and every
//! figure is computed from the payment as it stands, so a replayed event
//! finds nothing to do. The partner's totals are recomputed from the lines
//! in the same transaction.

use std::collections::BTreeSet;

use chrono::{Duration, Months, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QuerySelect, Set,
};
use uuid::Uuid;

use super::entity::{account, line};
use super::rules::{self, EARNING_MONTHS, PARENT_RATE};
use crate::billing::entity::{checkout, payment};
use crate::db::entities::{profiles, users};

pub use line::Kind;
pub use line::Status as LineStatus;
/// `payments.provider` of the embedded sandbox: no money moved.
const SANDBOX: &str = "sandbox";

/// Payment states that earn (a refunded one earns, and is then reversed).
const EARNING: [payment::Status; 3] = payment::Status::CHARGED;

/// The checkout metadata key that names the partner whose promo code the
/// buyer entered.
pub const PROMO_PARTNER_KEY: &str = "promo_partner_id";

async fn approved_partner(
    db: &impl ConnectionTrait,
    id: Option<Uuid>,
) -> Result<Option<account::Model>, DbErr> {
    let Some(id) = id else { return Ok(None) };
    Ok(account::Entity::find_by_id(id)
        .one(db)
        .await?
        .filter(|partner| partner.status == account::Status::Approved))
}

/// Whether `user` is `partner` themself: their account, or an address of
/// theirs written another way (`+alias`, Gmail's dots), so that nobody earns
/// a commission on their own purchase.
pub async fn is_partner_themself(
    db: &impl ConnectionTrait,
    partner: &account::Model,
    user: Uuid,
) -> Result<bool, DbErr> {
    if partner.user_id == user {
        return Ok(true);
    }
    let accounts = users::Entity::find()
        .filter(users::Column::Id.is_in([partner.user_id, user]))
        .all(db)
        .await?;
    let address = |id: Uuid| {
        accounts
            .iter()
            .find(|account| account.id == id)
            .and_then(|account| account.email.as_deref())
            .map(rules::comparable_email)
    };
    Ok(matches!(
        (address(partner.user_id), address(user)),
        (Some(own), Some(theirs)) if own == theirs
    ))
}

/// The partner a payment is credited to: the promo code's partner for the
/// sale it was entered on, otherwise the partner who referred the buyer,
/// for payments in the first 12 months after they were referred. Never the
/// buyer themself.
async fn crediting_partner(
    db: &impl ConnectionTrait,
    payment: &payment::Model,
    buyer: Uuid,
) -> Result<Option<account::Model>, DbErr> {
    if let Some(checkout_id) = payment.checkout_session_id
        && let Some(session) = checkout::Entity::find_by_id(checkout_id).one(db).await?
    {
        let promo_partner = session
            .metadata
            .get(PROMO_PARTNER_KEY)
            .and_then(|id| id.as_str())
            .and_then(|id| Uuid::parse_str(id).ok());
        if let Some(partner) = approved_partner(db, promo_partner).await?
            && !is_partner_themself(db, &partner, buyer).await?
        {
            return Ok(Some(partner));
        }
    }
    let Some(profile) = profiles::Entity::find_by_id(buyer).one(db).await? else {
        return Ok(None);
    };
    let earns_until = profile
        .created_at
        .checked_add_months(Months::new(EARNING_MONTHS))
        .unwrap_or(profile.created_at);
    if payment.created_at > earns_until {
        return Ok(None);
    }
    match approved_partner(db, profile.referred_by_partner).await? {
        Some(partner) if !is_partner_themself(db, &partner, buyer).await? => Ok(Some(partner)),
        _ => Ok(None),
    }
}

/// The approved partner who referred `partner`'s own account, if any.
async fn parent_of(
    db: &impl ConnectionTrait,
    partner: &account::Model,
) -> Result<Option<account::Model>, DbErr> {
    let Some(profile) = profiles::Entity::find_by_id(partner.user_id)
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    Ok(approved_partner(db, profile.referred_by_partner)
        .await?
        .filter(|parent| parent.id != partner.id))
}

struct NewLine {
    partner_id: Uuid,
    kind: Kind,
    amount_cents: i64,
    rate: f64,
    commission_cents: i64,
    refund_level_cents: i64,
    payable_at: chrono::DateTime<Utc>,
}

/// Inserts a line unless its (payment, partner, kind, refund level) exists.
async fn insert_line(
    db: &impl ConnectionTrait,
    payment: &payment::Model,
    new: NewLine,
) -> Result<(), DbErr> {
    let now = Utc::now();
    line::Entity::insert(line::ActiveModel {
        id: Set(Uuid::now_v7()),
        partner_id: Set(new.partner_id),
        kind: Set(new.kind.into()),
        payment_id: Set(payment.id),
        referred_user_id: Set(payment.user_id),
        amount_cents: Set(new.amount_cents),
        rate: Set(new.rate),
        commission_cents: Set(new.commission_cents),
        refund_level_cents: Set(new.refund_level_cents),
        status: Set(LineStatus::Unpaid.into()),
        payable_at: Set(new.payable_at),
        payout_id: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    })
    .on_conflict(
        OnConflict::columns([
            line::Column::PaymentId,
            line::Column::PartnerId,
            line::Column::Kind,
            line::Column::RefundLevelCents,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// Brings the ledger in line with payment `payment_id` as it stands.
/// A sandbox payment earns nothing unless `sandbox_earns` (development).
pub async fn reconcile(
    db: &impl ConnectionTrait,
    hold_days: u32,
    sandbox_earns: bool,
    payment_id: Uuid,
) -> Result<(), DbErr> {
    let Some(payment) = payment::Entity::find_by_id(payment_id).one(db).await? else {
        return Ok(());
    };
    if payment.provider == SANDBOX && !sandbox_earns {
        return Ok(());
    }
    let Some(buyer) = payment.user_id else {
        return Ok(());
    };
    if !EARNING.contains(&payment.state()) {
        return Ok(());
    }
    let mut touched = BTreeSet::new();
    let has_sale = line::Entity::find()
        .filter(line::Column::PaymentId.eq(payment.id))
        .filter(line::Column::Kind.eq(Kind::Sale))
        .count(db)
        .await?
        > 0;
    if !has_sale && let Some(partner) = crediting_partner(db, &payment, buyer).await? {
        let payable_at = Utc::now() + Duration::days(i64::from(hold_days));
        let amount = rules::commissionable(&payment.purpose, payment.amount_cents);
        let commission = rules::commission(amount, partner.commission_rate);
        insert_line(
            db,
            &payment,
            NewLine {
                partner_id: partner.id,
                kind: Kind::Sale,
                amount_cents: amount,
                rate: partner.commission_rate,
                commission_cents: commission,
                refund_level_cents: 0,
                payable_at,
            },
        )
        .await?;
        touched.insert(partner.id);
        if let Some(parent) = parent_of(db, &partner).await? {
            insert_line(
                db,
                &payment,
                NewLine {
                    partner_id: parent.id,
                    kind: Kind::Parent,
                    amount_cents: commission,
                    rate: PARENT_RATE,
                    commission_cents: rules::commission(commission, PARENT_RATE),
                    refund_level_cents: 0,
                    payable_at,
                },
            )
            .await?;
            touched.insert(parent.id);
        }
    }
    if payment.refunded_cents > 0 {
        touched.extend(settle_refund(db, &payment).await?);
    }
    for partner_id in touched {
        refresh_totals(db, partner_id).await?;
    }
    Ok(())
}

/// Applies the payment's refunded total to its lines; the partners touched.
async fn settle_refund(
    db: &impl ConnectionTrait,
    payment: &payment::Model,
) -> Result<Vec<Uuid>, DbErr> {
    let lines = line::Entity::find()
        .filter(line::Column::PaymentId.eq(payment.id))
        .all(db)
        .await?;
    let mut touched = Vec::new();
    for earned in lines.iter().filter(|line| line.kind != Kind::Clawback) {
        let original = rules::commission(earned.amount_cents, earned.rate);
        let target = rules::kept(original, payment.amount_cents, payment.refunded_cents);
        match LineStatus::parse(&earned.status) {
            Some(LineStatus::Unpaid) if target != earned.commission_cents => {
                let mut active: line::ActiveModel = earned.clone().into();
                active.commission_cents = Set(target);
                if target == 0 {
                    active.status = Set(LineStatus::Reversed.into());
                }
                active.updated_at = Set(Utc::now());
                active.update(db).await?;
                touched.push(earned.partner_id);
            }
            Some(LineStatus::Paid) => {
                let clawed: i64 = lines
                    .iter()
                    .filter(|line| {
                        line.kind == Kind::Clawback && line.partner_id == earned.partner_id
                    })
                    .map(|line| line.commission_cents)
                    .sum();
                let owed = target - (earned.commission_cents + clawed);
                if owed < 0 {
                    insert_line(
                        db,
                        payment,
                        NewLine {
                            partner_id: earned.partner_id,
                            kind: Kind::Clawback,
                            amount_cents: earned.amount_cents,
                            rate: earned.rate,
                            commission_cents: owed,
                            refund_level_cents: payment.refunded_cents,
                            // Deducted from the very next payout.
                            payable_at: Utc::now(),
                        },
                    )
                    .await?;
                    touched.push(earned.partner_id);
                }
            }
            _ => {}
        }
    }
    Ok(touched)
}

/// `CAST(COALESCE(SUM(column), 0) AS BIGINT)`: PostgreSQL sums a bigint
/// into a numeric, SQLite into an integer; both come back as i64.
pub(super) fn sum_of(column: &str) -> Expr {
    Expr::cust(format!("CAST(COALESCE(SUM({column}), 0) AS BIGINT)"))
}

/// The sum of `commission_cents` over the partner's lines that `filter`
/// keeps.
pub async fn commission_sum(
    db: &impl ConnectionTrait,
    filter: sea_orm::Condition,
) -> Result<i64, DbErr> {
    let sum: Option<i64> = line::Entity::find()
        .select_only()
        .column_as(sum_of("commission_cents"), "total")
        .filter(filter)
        .into_tuple()
        .one(db)
        .await?;
    Ok(sum.unwrap_or(0))
}

/// Recomputes the partner's stored conversions and earnings from the ledger
/// (clicks are a counter kept by the referral link).
pub async fn refresh_totals(db: &impl ConnectionTrait, partner_id: Uuid) -> Result<(), DbErr> {
    let conversions = line::Entity::find()
        .filter(line::Column::PartnerId.eq(partner_id))
        .filter(line::Column::Kind.eq(Kind::Sale))
        .filter(line::Column::Status.ne(LineStatus::Reversed))
        .count(db)
        .await?;
    let earned = commission_sum(
        db,
        sea_orm::Condition::all()
            .add(line::Column::PartnerId.eq(partner_id))
            .add(line::Column::Status.ne(LineStatus::Reversed)),
    )
    .await?;
    account::Entity::update_many()
        .col_expr(
            account::Column::TotalConversions,
            Expr::value(conversions as i64),
        )
        .col_expr(
            account::Column::TotalEarnedCents,
            Expr::value(earned.max(0)),
        )
        .col_expr(account::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(account::Column::Id.eq(partner_id))
        .exec(db)
        .await?;
    Ok(())
}
