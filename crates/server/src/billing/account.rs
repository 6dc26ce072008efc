//! Billing's share of a user's data: their subscriptions, payments, payout
//! account and earnings in the account export. Deleting the account deletes
//! the subscriptions, the payout account and the earnings lines (cascade;
//! nothing more is sent to a deleted user); payments are kept without the
//! user (`SET NULL`), as accounting history.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use uuid::Uuid;

use super::entity::{self as subscriptions, payment};
use super::payouts::entity as payout_entity;
use super::subscription::payment_item;
use crate::http::AppState;
use crate::http::user_data::UserData;

pub struct BillingData;

#[async_trait::async_trait]
impl UserData for BillingData {
    fn name(&self) -> &'static str {
        "billing"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let subscriptions: Vec<Value> = subscriptions::Entity::find()
            .filter(subscriptions::Column::UserId.eq(user_id))
            .order_by_asc(subscriptions::Column::CreatedAt)
            .all(&state.db)
            .await?
            .into_iter()
            .map(|row| {
                json!({
                    "plan": row.plan_type,
                    "status": row.status,
                    "provider": row.provider,
                    "expires_at": row.expires_at,
                    "cancel_at_period_end": row.cancel_at_period_end,
                    "created_at": row.created_at,
                })
            })
            .collect();
        let payments = payment::Entity::find()
            .filter(payment::Column::UserId.eq(user_id))
            .order_by_asc(payment::Column::CreatedAt)
            .all(&state.db)
            .await?
            .into_iter()
            .map(payment_item)
            .collect::<Vec<_>>();
        let payout_accounts: Vec<Value> = payout_entity::account::Entity::find()
            .filter(payout_entity::account::Column::UserId.eq(user_id))
            .all(&state.db)
            .await?
            .into_iter()
            .map(|row| {
                json!({
                    "provider": row.provider,
                    "account_id": row.account_id,
                    "status": row.status,
                    "enabled_at": row.enabled_at,
                    "created_at": row.created_at,
                })
            })
            .collect();
        let earnings: Vec<Value> = super::payouts::ledger::lines_of(&state.db, user_id)
            .await?
            .into_iter()
            .map(|row| {
                json!({
                    "description": row.description,
                    "fee_cents": row.fee_cents,
                    "amount_cents": row.amount_cents,
                    "status": row.status,
                    "captured_at": row.captured_at,
                    "transferred_at": row.transferred_at,
                    "reversed_at": row.reversed_at,
                    "created_at": row.created_at,
                })
            })
            .collect();
        Ok(Some(json!({
            "subscriptions": subscriptions,
            "payments": payments,
            "payout_accounts": payout_accounts,
            "earnings": earnings,
        })))
    }
}
