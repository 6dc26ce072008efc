//! A payment's own events: its PaymentIntent's state (held, charged,
//! canceled, failed), refunds and disputes.

use chrono::Utc;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter};

use super::{Context, PaymentReport, PaymentStatus};
use crate::billing::entity::{checkout, payment};
use crate::billing::payouts::entity::TakenBack;
use crate::billing::payouts::ledger;
use crate::billing::rules::Purchase;
use crate::providers::payments::events::{Charge, Dispute, Intent, IntentChange};

impl Context<'_> {
    async fn payment_by_intent(&self, intent: &str) -> Result<Option<payment::Model>, DbErr> {
        payment::Entity::find()
            .filter(payment::Column::Provider.eq(self.provider))
            .filter(payment::Column::ProviderPaymentIntentId.eq(intent))
            .one(self.txn)
            .await
    }

    pub(super) async fn intent(&self, change: IntentChange, intent: &Intent) -> Result<(), DbErr> {
        let status = match change {
            IntentChange::Held => PaymentStatus::Held,
            IntentChange::Succeeded => PaymentStatus::Succeeded,
            IntentChange::Canceled => PaymentStatus::Canceled,
            IntentChange::Failed => PaymentStatus::Failed,
        };
        let purpose = intent
            .purpose
            .as_deref()
            .and_then(Purchase::parse)
            .unwrap_or(Purchase::ContactRequest);
        let user_id = self.user(intent.user_id).await?;
        let contact_request_id = self.reference(purpose, intent.contact_request_id).await?;
        let checkout_id = match intent.checkout_id {
            Some(id) => checkout::Entity::find_by_id(id)
                .one(self.txn)
                .await?
                .map(|found| found.id),
            None => None,
        };
        let amount_cents = match status {
            PaymentStatus::Succeeded => intent.amount_received.max(intent.amount),
            _ => intent.amount,
        };
        self.record_payment(PaymentReport {
            intent: intent.id.as_deref(),
            invoice: None,
            user_id,
            checkout_id,
            contact_request_id,
            purpose,
            amount_cents,
            currency: intent.currency.clone().unwrap_or_else(|| "usd".to_owned()),
            status,
            subscription: None,
            purchase_ref: intent.purchase_ref.clone(),
        })
        .await
    }

    pub(super) async fn charge_refunded(&self, charge: &Charge) -> Result<(), DbErr> {
        let mut found = None;
        if let Some(intent) = &charge.payment_intent {
            found = self.payment_by_intent(intent).await?;
        }
        if found.is_none()
            && let Some(invoice) = &charge.invoice
        {
            found = payment::Entity::find()
                .filter(payment::Column::Provider.eq(self.provider))
                .filter(payment::Column::ProviderInvoiceId.eq(invoice))
                .one(self.txn)
                .await?;
        }
        let Some(row) = found else {
            tracing::warn!(charge = ?charge.id, "a refund of a payment we do not know");
            return Ok(());
        };
        let charged = charge.amount.max(row.amount_cents);
        let full = charge.refunded || charge.amount_refunded >= charged;
        let status = if full {
            PaymentStatus::Refunded
        } else {
            PaymentStatus::PartiallyRefunded
        };
        let payment_id = row.id;
        let mut active: payment::ActiveModel = row.into();
        active.refunded_cents = Set(charge.amount_refunded);
        active.status = Set(status.as_str().to_owned());
        active.updated_at = Set(Utc::now());
        active.update(self.txn).await?;
        self.payment_changed(payment_id).await
    }

    /// A dispute opened on a payment: the payee's share of it is owed back
    /// (canceled before it is sent, reversed after). Partner commissions
    /// follow the refund that a lost dispute brings.
    pub(super) async fn dispute_created(&self, dispute: &Dispute) -> Result<(), DbErr> {
        let Some(intent) = &dispute.payment_intent else {
            return Ok(());
        };
        match self.payment_by_intent(intent).await? {
            Some(paid) => {
                ledger::take_back_because(self.txn, paid.id, TakenBack::Dispute).await?;
                // The listeners hear of it too (the payee's reversal mail).
                self.hooks.payment_changed(self.txn, paid.id).await
            }
            None => {
                tracing::warn!(dispute = ?dispute.id, "a dispute of a payment we do not know");
                Ok(())
            }
        }
    }
}
