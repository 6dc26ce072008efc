//! Fulfilment: what a provider event changes. Both providers' events come
//! here: Stripe's through the webhook, the sandbox's from its event log.
//!
//! - **Once.** The event id is inserted into `processed_webhook_events` in the
//!   same transaction as the event's effect; a redelivered event finds its id
//!   taken and changes nothing (two deliveries at once: the second waits on the
//!   unique key, then finds it taken).
//! - **Any order.** Subscription objects carry their state, and an event
//!   older than the newest one applied to the row (`last_event_at`) is
//!   ignored; `checkout.session.completed` creates a subscription row only if
//!   no subscription event did first, and never overwrites one; invoices only
//!   extend the paid period; a payment's status only moves forward
//!   (pending → held/failed → succeeded/canceled → refunded).
//! - **From events only.** The browser's return to a success page grants
//!   nothing.
//!
//! The provider's JSON is read once ([`Event::read`]); each kind of event
//! has its file: [`checkout`] (Checkout Sessions), [`subscription`]
//! (subscriptions and their invoices, one active subscription per user),
//! [`charges`] (PaymentIntents, refunds and disputes). This file records the
//! event and the payment it reports, and keeps one purchase per thing.

mod charges;
mod checkout;
mod subscription;

pub(super) use subscription::apply_state;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, DatabaseTransaction,
    DbErr, EntityTrait, QueryFilter, TransactionTrait,
};
use uuid::Uuid;

use super::entity::payment::Status as PaymentStatus;
use super::entity::{payment, processed_event, refund};
use super::holds;
use super::refunds::{self, PAYMENT};
use super::rules::Purchase;
use crate::db::entities::users;
use crate::http::AppHooks;
use crate::providers::payments::Event;
use crate::providers::payments::events::PaymentEvent;

/// What a delivery did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The event's effect was applied (or it needed none) and it is recorded.
    Applied,
    /// The event was processed before; nothing changed.
    Duplicate,
}

/// Applies `event` from `provider` (`sandbox` or `stripe`) once.
pub async fn fulfil(
    db: &DatabaseConnection,
    hooks: &AppHooks,
    provider: &str,
    event: &Event,
) -> Result<Outcome, DbErr> {
    fulfil_paid_with(db, hooks, provider, event, None).await
}

/// [`fulfil`], knowing the card the event's payment was made with (read
/// from the provider before the transaction): the payment keeps it for its
/// receipt.
pub async fn fulfil_paid_with(
    db: &DatabaseConnection,
    hooks: &AppHooks,
    provider: &str,
    event: &Event,
    card: Option<&str>,
) -> Result<Outcome, DbErr> {
    let txn = db.begin().await?;
    let recorded = processed_event::Entity::insert(processed_event::ActiveModel {
        id: Set(Uuid::now_v7()),
        provider: Set(provider.to_owned()),
        event_id: Set(event.id.clone()),
        event_type: Set(event.kind.clone()),
        processed_at: Set(Utc::now()),
    })
    .on_conflict(
        OnConflict::columns([
            processed_event::Column::Provider,
            processed_event::Column::EventId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    if recorded == 0 {
        txn.rollback().await?;
        return Ok(Outcome::Duplicate);
    }
    let context = Context {
        txn: &txn,
        hooks,
        provider,
        created: event.created_at(),
        card,
    };
    context.apply(&event.read()).await?;
    txn.commit().await?;
    Ok(Outcome::Applied)
}

struct Context<'a> {
    txn: &'a DatabaseTransaction,
    /// Told of every payment recorded or advanced (the partner ledger).
    hooks: &'a AppHooks,
    provider: &'a str,
    /// When the provider made the event.
    created: DateTime<Utc>,
    /// The card the event's payment was made with, when known.
    card: Option<&'a str>,
}

/// A payment as an event reports it.
struct PaymentReport<'v> {
    intent: Option<&'v str>,
    invoice: Option<&'v str>,
    user_id: Option<Uuid>,
    checkout_id: Option<Uuid>,
    contact_request_id: Option<Uuid>,
    purpose: Purchase,
    amount_cents: i64,
    currency: String,
    status: PaymentStatus,
    /// The subscription a subscription payment paid for.
    subscription: Option<&'v str>,
    /// The one thing bought (`premium`, a personality result's id).
    purchase_ref: Option<String>,
}

impl Context<'_> {
    async fn apply(&self, event: &PaymentEvent) -> Result<(), DbErr> {
        match event {
            PaymentEvent::CheckoutCompleted(session) => self.session_completed(session).await,
            PaymentEvent::CheckoutFailed(session) => self.session_payment_failed(session).await,
            PaymentEvent::CheckoutExpired(session) => self.session_expired(session).await,
            PaymentEvent::SubscriptionChanged { change, .. } => {
                self.subscription_changed(change).await
            }
            PaymentEvent::InvoicePaid(invoice) => self.invoice_paid(invoice).await,
            PaymentEvent::InvoiceFailed(invoice) => self.invoice_failed(invoice).await,
            PaymentEvent::ChargeRefunded(charge) => self.charge_refunded(charge).await,
            PaymentEvent::DisputeCreated(dispute) => self.dispute_created(dispute).await,
            PaymentEvent::AccountUpdated(account) => {
                super::payouts::account_updated(self.txn, self.provider, account).await
            }
            PaymentEvent::Intent(change, intent) => self.intent(*change, intent).await,
            PaymentEvent::Ignored { kind } => {
                tracing::debug!(event = kind, "a payment event we do not act on");
                Ok(())
            }
            PaymentEvent::Unreadable { kind, why } => {
                tracing::warn!(event = kind, why, "a payment event we cannot read");
                Ok(())
            }
        }?;
        // One user, one active subscription: whatever the order of events.
        let subscription = match event {
            PaymentEvent::CheckoutCompleted(session) => session.subscription.as_deref(),
            PaymentEvent::SubscriptionChanged {
                change,
                deleted: false,
            } => Some(change.state.id.as_str()),
            PaymentEvent::InvoicePaid(invoice) => invoice.subscription.as_deref(),
            _ => None,
        };
        match subscription {
            Some(id) => self.one_subscription(id).await,
            None => Ok(()),
        }
    }

    /// Takes the user's row lock (PostgreSQL; SQLite has one writer): the
    /// checks for a second purchase of one user run one after another, and
    /// each sees what the one before it committed.
    async fn lock_user(&self, user_id: Uuid) -> Result<(), DbErr> {
        users::Entity::update_many()
            .col_expr(
                users::Column::UpdatedAt,
                Expr::col(users::Column::UpdatedAt),
            )
            .filter(users::Column::Id.eq(user_id))
            .exec(self.txn)
            .await?;
        Ok(())
    }

    async fn refund_owed(&self, kind: &str, target: &str) -> Result<bool, DbErr> {
        Ok(refund::Entity::find()
            .filter(refund::Column::Provider.eq(self.provider))
            .filter(refund::Column::Kind.eq(kind))
            .filter(refund::Column::Target.eq(target))
            .one(self.txn)
            .await?
            .is_some())
    }

    /// A detailed analysis paid again for a result bought before is owed a
    /// full refund; the first payment keeps it.
    async fn one_purchase(&self, paid: &payment::Model) -> Result<(), DbErr> {
        let (Some(reference), Some(user_id)) = (&paid.purchase_ref, paid.user_id) else {
            return Ok(());
        };
        if paid.purpose != Purchase::PersonalityDetailed.as_str() || !paid.state().is_kept() {
            return Ok(());
        }
        self.lock_user(user_id).await?;
        if self.refund_owed(PAYMENT, &paid.id.to_string()).await? {
            return Ok(());
        }
        let others = payment::Entity::find()
            .filter(payment::Column::Purpose.eq(paid.purpose.clone()))
            .filter(payment::Column::PurchaseRef.eq(reference.clone()))
            .filter(payment::Column::Status.is_in(PaymentStatus::stored(&PaymentStatus::KEPT)))
            .filter(payment::Column::Id.ne(paid.id))
            .all(self.txn)
            .await?;
        for other in others {
            if !self.refund_owed(PAYMENT, &other.id.to_string()).await? {
                tracing::warn!(payment = %paid.id, "a thing bought twice: the second payment is refunded");
                return refunds::owe(
                    self.txn,
                    Some(user_id),
                    self.provider,
                    PAYMENT,
                    &paid.id.to_string(),
                    "The detailed analysis of this result was bought before",
                )
                .await;
            }
        }
        Ok(())
    }

    /// One contact request holds money once: a payment authorised while
    /// another payment for the same request holds or has captured the money
    /// (refunded since, maybe) is marked a duplicate of that one and owed back at
    /// once (released; refunded if it was captured meanwhile). The buyer's
    /// row lock orders the payments of one request, so the first authorised
    /// is the request's payment, whatever the order of clicks and events.
    async fn one_hold(
        &self,
        paid: &payment::Model,
        before: Option<PaymentStatus>,
    ) -> Result<(), DbErr> {
        let (Some(reference), Some(user_id)) = (paid.contact_request_id, paid.user_id) else {
            return Ok(());
        };
        // Only the event that authorised it: a later event of the request's
        // own payment (its capture) never makes it a duplicate.
        let authorised_now =
            paid.state() == PaymentStatus::Held && before != Some(PaymentStatus::Held);
        if paid.duplicate_of.is_some() || !authorised_now {
            return Ok(());
        }
        self.lock_user(user_id).await?;
        let Some(live) = holds::other_live_payment(self.txn, reference, paid.id).await? else {
            return Ok(());
        };
        tracing::warn!(payment = %paid.id, live = %live, "a contact request paid twice: the second hold is released");
        holds::mark_duplicate(self.txn, paid.id, live).await?;
        refunds::owe(
            self.txn,
            Some(user_id),
            self.provider,
            PAYMENT,
            &paid.id.to_string(),
            holds::PAID_TWICE,
        )
        .await
    }

    /// A user id from an event, if that user still exists.
    async fn user(&self, id: Option<Uuid>) -> Result<Option<Uuid>, DbErr> {
        let Some(id) = id else { return Ok(None) };
        Ok(users::Entity::find_by_id(id)
            .one(self.txn)
            .await?
            .map(|user| user.id))
    }

    /// What a payment for `purpose` bought (a contact request's id), if it
    /// still exists: a payment only points at what does.
    async fn reference(&self, purpose: Purchase, id: Option<Uuid>) -> Result<Option<Uuid>, DbErr> {
        let Some(id) = id else { return Ok(None) };
        let exists = self
            .hooks
            .reference_exists(self.txn, purpose.as_str(), id)
            .await?;
        Ok(exists.then_some(id))
    }

    /// Creates or advances the payment an event reports, found by its
    /// PaymentIntent or invoice id.
    async fn record_payment(&self, report: PaymentReport<'_>) -> Result<(), DbErr> {
        let mut existing = None;
        if let Some(intent) = report.intent {
            existing = payment::Entity::find()
                .filter(payment::Column::Provider.eq(self.provider))
                .filter(payment::Column::ProviderPaymentIntentId.eq(intent))
                .one(self.txn)
                .await?;
        }
        if existing.is_none()
            && let Some(invoice) = report.invoice
        {
            existing = payment::Entity::find()
                .filter(payment::Column::Provider.eq(self.provider))
                .filter(payment::Column::ProviderInvoiceId.eq(invoice))
                .one(self.txn)
                .await?;
        }
        let now = Utc::now();
        let before = existing.as_ref().map(payment::Model::state);
        let saved = match existing {
            Some(row) => {
                let mut active: payment::ActiveModel = row.clone().into();
                if report.status.rank() >= row.state().rank() {
                    active.status = Set(report.status.as_str().to_owned());
                }
                if row.provider_payment_intent_id.is_none() && report.intent.is_some() {
                    active.provider_payment_intent_id = Set(report.intent.map(str::to_owned));
                }
                if row.provider_invoice_id.is_none() && report.invoice.is_some() {
                    active.provider_invoice_id = Set(report.invoice.map(str::to_owned));
                }
                if row.user_id.is_none() {
                    active.user_id = Set(report.user_id);
                }
                if row.checkout_session_id.is_none() {
                    active.checkout_session_id = Set(report.checkout_id);
                }
                if row.contact_request_id.is_none() {
                    active.contact_request_id = Set(report.contact_request_id);
                }
                if row.amount_cents == 0 {
                    active.amount_cents = Set(report.amount_cents);
                }
                if row.purchase_ref.is_none() && report.purchase_ref.is_some() {
                    active.purchase_ref = Set(report.purchase_ref.clone());
                }
                if row.provider_subscription_id.is_none() && report.subscription.is_some() {
                    active.provider_subscription_id = Set(report.subscription.map(str::to_owned));
                }
                if row.card.is_none() && self.card.is_some() {
                    active.card = Set(self.card.map(str::to_owned));
                }
                active.updated_at = Set(now);
                active.update(self.txn).await?
            }
            None => {
                payment::ActiveModel {
                    id: Set(Uuid::now_v7()),
                    user_id: Set(report.user_id),
                    checkout_session_id: Set(report.checkout_id),
                    contact_request_id: Set(report.contact_request_id),
                    provider: Set(self.provider.to_owned()),
                    purpose: Set(report.purpose.as_str().to_owned()),
                    description: Set(report.purpose.description().to_owned()),
                    amount_cents: Set(report.amount_cents),
                    refunded_cents: Set(0),
                    currency: Set(report.currency),
                    status: Set(report.status.as_str().to_owned()),
                    provider_payment_intent_id: Set(report.intent.map(str::to_owned)),
                    provider_invoice_id: Set(report.invoice.map(str::to_owned)),
                    created_at: Set(now),
                    updated_at: Set(now),
                    purchase_ref: Set(report.purchase_ref.clone()),
                    provider_subscription_id: Set(report.subscription.map(str::to_owned)),
                    duplicate_of: Set(None),
                    card: Set(self.card.map(str::to_owned)),
                }
                .insert(self.txn)
                .await?
            }
        };
        self.one_purchase(&saved).await?;
        self.one_hold(&saved, before).await?;
        self.payment_changed(saved.id).await
    }

    /// Billing's own ledger of what the payment earns its payee, then the
    /// listeners (the partner ledger, mails, wake-ups).
    async fn payment_changed(&self, payment_id: Uuid) -> Result<(), DbErr> {
        super::payouts::ledger::reconcile(self.txn, self.hooks, payment_id).await?;
        self.hooks.payment_changed(self.txn, payment_id).await
    }
}
