//! Subscriptions and their invoices, and the rule of one active Premium
//! subscription per user.

use chrono::{DateTime, Months, Utc};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait,
    QueryFilter,
};
use uuid::Uuid;

use super::{Context, PaymentReport, PaymentStatus};
use crate::billing::PREMIUM_EDITING;
use crate::billing::entity::{self as subscription, Status};
use crate::billing::refunds::{self, SUBSCRIPTION};
use crate::billing::rules::Purchase;
use crate::providers::payments::SubscriptionState;
use crate::providers::payments::events::{Invoice, SubscriptionChange};

/// A new subscription row, as an event first tells of it.
struct NewSubscription<'a> {
    user_id: Uuid,
    subscription_id: &'a str,
    customer: Option<&'a str>,
    status: Status,
    expires_at: Option<DateTime<Utc>>,
    cancel_at_period_end: bool,
    last_event_at: Option<DateTime<Utc>>,
}

impl Context<'_> {
    async fn find_subscription(&self, id: &str) -> Result<Option<subscription::Model>, DbErr> {
        subscription::Entity::find()
            .filter(subscription::Column::ProviderSubscriptionId.eq(id))
            .filter(subscription::Column::Provider.eq(self.provider))
            .one(self.txn)
            .await
    }

    async fn insert_subscription(&self, new: NewSubscription<'_>) -> Result<(), DbErr> {
        let now = Utc::now();
        subscription::ActiveModel {
            id: Set(Uuid::now_v7()),
            user_id: Set(new.user_id),
            status: Set(new.status.as_str().to_owned()),
            plan_type: Set(PREMIUM_EDITING.to_owned()),
            provider: Set(self.provider.to_owned()),
            provider_customer_id: Set(new.customer.map(str::to_owned)),
            provider_subscription_id: Set(Some(new.subscription_id.to_owned())),
            expires_at: Set(new.expires_at),
            created_at: Set(now),
            updated_at: Set(now),
            cancel_at_period_end: Set(new.cancel_at_period_end),
            last_event_at: Set(new.last_event_at),
        }
        .insert(self.txn)
        .await?;
        Ok(())
    }

    /// The row for a subscription a checkout paid for: made active for its
    /// first month if no subscription event has made it yet; left alone if
    /// one has (its state is newer than anything a checkout says).
    pub(super) async fn ensure_subscription(
        &self,
        user_id: Uuid,
        subscription_id: &str,
        customer: Option<&str>,
    ) -> Result<(), DbErr> {
        if self.find_subscription(subscription_id).await?.is_some() {
            return Ok(());
        }
        self.insert_subscription(NewSubscription {
            user_id,
            subscription_id,
            customer,
            status: Status::Active,
            expires_at: self.created.checked_add_months(Months::new(1)),
            cancel_at_period_end: false,
            last_event_at: None,
        })
        .await
    }

    pub(super) async fn subscription_changed(
        &self,
        change: &SubscriptionChange,
    ) -> Result<(), DbErr> {
        let state = &change.state;
        let period_end = state
            .current_period_end
            .and_then(|secs| DateTime::from_timestamp(secs, 0));
        match self.find_subscription(&state.id).await? {
            Some(row) => {
                if row.last_event_at.is_some_and(|last| last > self.created) {
                    return Ok(());
                }
                apply_state(self.txn, row, state, period_end, Some(self.created)).await
            }
            None => {
                let Some(user_id) = self.user(change.user_id).await? else {
                    tracing::warn!(subscription = state.id, "a subscription of no known user");
                    return Ok(());
                };
                self.insert_subscription(NewSubscription {
                    user_id,
                    subscription_id: &state.id,
                    customer: change.customer.as_deref(),
                    status: state.status,
                    expires_at: period_end,
                    cancel_at_period_end: state.cancel_at_period_end,
                    last_event_at: Some(self.created),
                })
                .await
            }
        }
    }

    pub(super) async fn invoice_paid(&self, invoice: &Invoice) -> Result<(), DbErr> {
        let mut user_id = self.user(invoice.user_id).await?;
        if let Some(subscription_id) = &invoice.subscription {
            match self.find_subscription(subscription_id).await? {
                Some(row) => {
                    user_id = Some(row.user_id);
                    // A late invoice does not bring back an ended subscription.
                    if row.state() != Some(Status::Canceled) {
                        let expires_at = match (row.expires_at, invoice.period_end) {
                            (Some(current), Some(paid)) => Some(current.max(paid)),
                            (current, paid) => paid.or(current),
                        };
                        let mut active: subscription::ActiveModel = row.into();
                        active.status = Set(Status::Active.as_str().to_owned());
                        active.expires_at = Set(expires_at);
                        active.updated_at = Set(Utc::now());
                        active.update(self.txn).await?;
                    }
                }
                None => {
                    if let Some(user_id) = user_id {
                        self.insert_subscription(NewSubscription {
                            user_id,
                            subscription_id,
                            customer: invoice.customer.as_deref(),
                            status: Status::Active,
                            expires_at: invoice.period_end,
                            cancel_at_period_end: false,
                            last_event_at: None,
                        })
                        .await?;
                    }
                }
            }
        }
        self.record_payment(self.invoice_payment(
            invoice,
            user_id,
            invoice.amount_paid,
            PaymentStatus::Succeeded,
        ))
        .await
    }

    pub(super) async fn invoice_failed(&self, invoice: &Invoice) -> Result<(), DbErr> {
        let mut user_id = None;
        if let Some(subscription_id) = &invoice.subscription
            && let Some(row) = self.find_subscription(subscription_id).await?
        {
            user_id = Some(row.user_id);
            if row.is_active() {
                let mut active: subscription::ActiveModel = row.into();
                active.status = Set(Status::PastDue.as_str().to_owned());
                active.updated_at = Set(Utc::now());
                active.update(self.txn).await?;
            }
        }
        self.record_payment(self.invoice_payment(
            invoice,
            user_id,
            invoice.amount_due,
            PaymentStatus::Failed,
        ))
        .await
    }

    fn invoice_payment<'v>(
        &self,
        invoice: &'v Invoice,
        user_id: Option<Uuid>,
        amount_cents: i64,
        status: PaymentStatus,
    ) -> PaymentReport<'v> {
        PaymentReport {
            intent: invoice.payment_intent.as_deref(),
            invoice: invoice.id.as_deref(),
            user_id,
            checkout_id: None,
            contact_request_id: None,
            purpose: Purchase::Subscription,
            amount_cents,
            currency: invoice.currency.clone().unwrap_or_else(|| "usd".to_owned()),
            status,
            subscription: invoice.subscription.as_deref(),
            purchase_ref: None,
        }
    }

    /// A subscription that became active while its user has another one is
    /// a second purchase: it is owed ending and a full refund ([`refunds`]),
    /// and no longer counts as active here.
    pub(super) async fn one_subscription(&self, subscription_id: &str) -> Result<(), DbErr> {
        let Some(row) = self.find_subscription(subscription_id).await? else {
            return Ok(());
        };
        if row.plan_type != PREMIUM_EDITING {
            return Ok(());
        }
        self.lock_user(row.user_id).await?;
        let duplicate = if self.refund_owed(SUBSCRIPTION, subscription_id).await? {
            true
        } else if !row.is_active() {
            false
        } else {
            let others = subscription::Entity::find()
                .filter(subscription::Column::UserId.eq(row.user_id))
                .filter(subscription::Column::PlanType.eq(PREMIUM_EDITING))
                .filter(subscription::Column::Status.eq(Status::Active.as_str()))
                .filter(subscription::Column::Id.ne(row.id))
                .all(self.txn)
                .await?;
            let mut kept = false;
            for other in others {
                if other.expires_at.is_some_and(|end| end <= Utc::now()) {
                    continue;
                }
                let owed = match &other.provider_subscription_id {
                    Some(id) => self.refund_owed(SUBSCRIPTION, id).await?,
                    None => false,
                };
                if !owed {
                    kept = true;
                    break;
                }
            }
            if kept {
                tracing::warn!(
                    subscription = subscription_id,
                    "a second Premium subscription: ended and refunded"
                );
                refunds::owe(
                    self.txn,
                    Some(row.user_id),
                    self.provider,
                    SUBSCRIPTION,
                    subscription_id,
                    "A second Premium subscription of a member",
                )
                .await?;
            }
            kept
        };
        if duplicate && row.state() != Some(Status::Canceled) {
            let mut active: subscription::ActiveModel = row.into();
            active.status = Set(Status::Canceled.as_str().to_owned());
            active.cancel_at_period_end = Set(false);
            active.updated_at = Set(Utc::now());
            active.update(self.txn).await?;
        }
        Ok(())
    }
}

/// Writes a subscription's provider state onto its row.
pub(in crate::billing) async fn apply_state(
    db: &impl ConnectionTrait,
    row: subscription::Model,
    state: &SubscriptionState,
    period_end: Option<DateTime<Utc>>,
    event_at: Option<DateTime<Utc>>,
) -> Result<(), DbErr> {
    let mut active: subscription::ActiveModel = row.into();
    active.status = Set(state.status.as_str().to_owned());
    if period_end.is_some() {
        active.expires_at = Set(period_end);
    }
    active.cancel_at_period_end = Set(state.cancel_at_period_end);
    if event_at.is_some() {
        active.last_event_at = Set(event_at);
    }
    active.updated_at = Set(Utc::now());
    active.update(db).await?;
    Ok(())
}
