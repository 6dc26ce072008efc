//! Checkout Sessions: completed (a payment, and for Premium its
//! subscription), failed, expired.

use chrono::Utc;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter};
use serde_json::Value;
use uuid::Uuid;

use super::{Context, PaymentReport, PaymentStatus};
use crate::billing::entity::checkout;
use crate::billing::rules::Purchase;
use crate::providers::payments::events::CheckoutSession;

impl Context<'_> {
    /// Our checkout for a session: by the provider's session id, else by the
    /// id we put in its metadata (a session completed before we stored its
    /// id).
    async fn find_checkout(
        &self,
        session: &CheckoutSession,
    ) -> Result<Option<checkout::Model>, DbErr> {
        if let Some(id) = &session.id {
            let found = checkout::Entity::find()
                .filter(checkout::Column::Provider.eq(self.provider))
                .filter(checkout::Column::ProviderSessionId.eq(id))
                .one(self.txn)
                .await?;
            if found.is_some() {
                return Ok(found);
            }
        }
        match session.checkout_id {
            Some(id) => Ok(checkout::Entity::find_by_id(id)
                .one(self.txn)
                .await?
                .filter(|found| found.provider == self.provider)),
            None => Ok(None),
        }
    }

    pub(super) async fn session_completed(&self, session: &CheckoutSession) -> Result<(), DbErr> {
        let Some(found) = self.find_checkout(session).await? else {
            tracing::warn!(session = ?session.id, "a completed checkout we did not open");
            return Ok(());
        };
        let purpose = Purchase::parse(&found.purpose).unwrap_or(Purchase::Subscription);
        let mut row: checkout::ActiveModel = found.clone().into();
        row.status = Set(checkout::Status::Complete.as_str().to_owned());
        row.completed_at = Set(Some(self.created));
        if found.provider_session_id.is_none() {
            row.provider_session_id = Set(session.id.clone());
        }
        row.updated_at = Set(Utc::now());
        row.update(self.txn).await?;

        let user_id = self.user(found.user_id).await?;
        if purpose == Purchase::Subscription
            && session.paid
            && let (Some(user_id), Some(subscription_id)) = (user_id, &session.subscription)
        {
            self.ensure_subscription(user_id, subscription_id, session.customer.as_deref())
                .await?;
        }
        let contact_request_id = self.reference(purpose, contact_request_of(&found)).await?;
        // A hold is "unpaid" until captured: its PaymentIntent events say
        // when it is held.
        let status = if session.paid {
            PaymentStatus::Succeeded
        } else {
            PaymentStatus::Pending
        };
        self.record_payment(PaymentReport {
            intent: session.payment_intent.as_deref(),
            invoice: session.invoice.as_deref(),
            user_id,
            checkout_id: Some(found.id),
            contact_request_id,
            purpose,
            amount_cents: session.amount_total.max(found.amount_cents),
            currency: found.currency.clone(),
            status,
            subscription: session
                .subscription
                .as_deref()
                .filter(|_| purpose == Purchase::Subscription),
            purchase_ref: found.purchase_ref.clone(),
        })
        .await
    }

    pub(super) async fn session_payment_failed(
        &self,
        session: &CheckoutSession,
    ) -> Result<(), DbErr> {
        let Some(found) = self.find_checkout(session).await? else {
            return Ok(());
        };
        let user_id = self.user(found.user_id).await?;
        self.record_payment(PaymentReport {
            intent: session.payment_intent.as_deref(),
            invoice: session.invoice.as_deref(),
            user_id,
            checkout_id: Some(found.id),
            contact_request_id: None,
            purpose: Purchase::parse(&found.purpose).unwrap_or(Purchase::Subscription),
            amount_cents: found.amount_cents,
            currency: found.currency.clone(),
            status: PaymentStatus::Failed,
            subscription: session.subscription.as_deref(),
            purchase_ref: found.purchase_ref.clone(),
        })
        .await
    }

    pub(super) async fn session_expired(&self, session: &CheckoutSession) -> Result<(), DbErr> {
        let Some(found) = self.find_checkout(session).await? else {
            return Ok(());
        };
        if found.status == checkout::Status::Open.as_str() {
            let mut row: checkout::ActiveModel = found.into();
            row.status = Set(checkout::Status::Expired.as_str().to_owned());
            row.updated_at = Set(Utc::now());
            row.update(self.txn).await?;
        }
        Ok(())
    }
}

/// The contact request a checkout was opened for (in the metadata we wrote).
fn contact_request_of(found: &checkout::Model) -> Option<Uuid> {
    found
        .metadata
        .get("contact_request_id")
        .and_then(Value::as_str)
        .and_then(|id| Uuid::parse_str(id).ok())
}
