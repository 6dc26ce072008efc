//! The partner (affiliate) programme (`docs/spec-rules.md` §2 and §9, `/partners…`,
//! `/r/{code}`, `/admin/partners`, `/admin/payouts`), run by the server:
//!
//! - [`apply`]: applying, the partner's portal and the public leaderboard;
//! - [`referral`]: counting clicks, the first-touch referral cookie and
//!   attribution at sign-up;
//! - [`ledger`]: the commission lines a payment earns, with the parent
//!   partner's share, the refund window, reversals and clawbacks;
//! - [`admin`]: approving, suspending, tiers and payouts, behind `AdminUser`.
//!
//! Auth and billing do not know this domain: they announce sign-ups and
//! payment changes through [`crate::http::hooks`], and [`PartnerHooks`]
//! listens (registered in `app::hooks`).

pub mod admin;
pub mod apply;
pub mod entity;
pub mod ledger;
pub mod referral;
pub mod rules;

use sea_orm::{
    ColumnTrait, DatabaseConnection, DatabaseTransaction, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder,
};
use serde_json::{Value, json};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::http::AppState;
use crate::http::hooks::{Hooks, Promo, SignUp};
use crate::http::user_data::UserData;
use entity::{account, line};

/// `/partners…` and `/admin/partners…`, `/admin/payouts…`, under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(apply::apply_partner))
        .routes(routes!(apply::partner_portal))
        .routes(routes!(apply::partner_leaderboard))
        .routes(routes!(admin::admin_partners))
        .routes(routes!(admin::set_partner_status))
        .routes(routes!(admin::set_partner_tier))
        .routes(routes!(admin::admin_payouts))
        .routes(routes!(admin::mark_payout_paid))
        .routes(routes!(admin::pay_through_stripe))
}

/// `/functions/v1/track-referral`.
pub fn function_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(referral::track_referral))
}

/// The programme's answers to sign-ups, payments and promo codes.
pub struct PartnerHooks {
    /// Days a commission waits before it is payable (`partners.commission_hold_days`).
    pub hold_days: u32,
    /// Whether sandbox payments earn commissions: only in development. On a
    /// public server (allowed to take test payments) a fake payment must
    /// never become a payout.
    pub sandbox_earns: bool,
}

#[async_trait::async_trait]
impl Hooks<AppState> for PartnerHooks {
    async fn signed_up(
        &self,
        txn: &DatabaseTransaction,
        sign_up: &SignUp<'_>,
    ) -> Result<(), DbErr> {
        referral::attribute(txn, sign_up).await
    }

    async fn payment_changed(
        &self,
        txn: &DatabaseTransaction,
        payment_id: Uuid,
    ) -> Result<(), DbErr> {
        ledger::reconcile(txn, self.hold_days, self.sandbox_earns, payment_id).await
    }

    /// An approved partner's promo code, for anyone but that partner.
    async fn promo_code(
        &self,
        db: &DatabaseConnection,
        code: &str,
        buyer: Uuid,
    ) -> Result<Option<Promo>, DbErr> {
        let Ok(Some(code)) = rules::promo_code(Some(code)) else {
            return Ok(None);
        };
        let partner = account::Entity::find()
            .filter(account::Column::PromoCode.eq(code.clone()))
            .filter(account::Column::Status.eq(entity::account::Status::Approved))
            .one(db)
            .await?;
        let Some(partner) = partner else {
            return Ok(None);
        };
        // A partner's own code is answered too: checkout tells them they
        // cannot use it.
        Ok(Some(Promo {
            code,
            percent_off: rules::PROMO_PERCENT_OFF,
            partner_id: partner.id,
            buyer_is_owner: ledger::is_partner_themself(db, &partner, buyer).await?,
        }))
    }

    /// An approved partner may connect a payout account for "Pay through
    /// Stripe" before they have earned anything.
    async fn receives_payouts(&self, db: &DatabaseConnection, user: Uuid) -> Result<bool, DbErr> {
        let approved = account::Entity::find()
            .filter(account::Column::UserId.eq(user))
            .filter(account::Column::Status.eq(entity::account::Status::Approved))
            .count(db)
            .await?;
        Ok(approved > 0)
    }
}

/// A partner's account and ledger, in their export. Deleting the account
/// deletes the partner account and its lines by cascade; payouts stay with
/// the partner unset (bookkeeping).
pub struct PartnerData;

#[async_trait::async_trait]
impl UserData for PartnerData {
    fn name(&self) -> &'static str {
        "partner"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let Some(partner) = account::Entity::find()
            .filter(account::Column::UserId.eq(user_id))
            .one(&state.db)
            .await?
        else {
            return Ok(None);
        };
        let lines = line::Entity::find()
            .filter(line::Column::PartnerId.eq(partner.id))
            .order_by_asc(line::Column::CreatedAt)
            .all(&state.db)
            .await?;
        let lines: Vec<Value> = lines
            .into_iter()
            .map(|row| {
                json!({
                    "kind": row.kind,
                    "amount_cents": row.amount_cents,
                    "commission_cents": row.commission_cents,
                    "status": row.status,
                    "payable_at": row.payable_at,
                    "created_at": row.created_at,
                })
            })
            .collect();
        Ok(Some(json!({
            "account": apply::PartnerAccount::from(partner),
            "conversions": lines,
        })))
    }
}
