//! Billing's share of a user's data: their subscriptions and payments in the
//! account export. Deleting the account deletes the subscriptions (cascade);
//! payments are kept without the user (`SET NULL`), as accounting history.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use uuid::Uuid;

use super::entity::{self as subscriptions, payment};
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
        Ok(Some(json!({
            "subscriptions": subscriptions,
            "payments": payments,
        })))
    }
}
