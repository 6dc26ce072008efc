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

use chrono::{DateTime, Months, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    DatabaseTransaction, DbErr, EntityTrait, QueryFilter, TransactionTrait,
};
use serde_json::Value;
use uuid::Uuid;

use super::PREMIUM_EDITING;
use super::entity::payment::Status as PaymentStatus;
use super::entity::{self as subscription, checkout, payment, processed_event, refund};
use super::refunds::{self, PAYMENT, SUBSCRIPTION};
use super::rules::Purchase;
use crate::db::entities::users;
use crate::http::hooks::HookRegistry;
use crate::providers::payments::{Event, SubscriptionState};

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
    hooks: &HookRegistry,
    provider: &str,
    event: &Event,
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
        created: DateTime::from_timestamp(event.created, 0).unwrap_or_else(Utc::now),
    };
    context.apply(&event.kind, &event.data.object).await?;
    txn.commit().await?;
    Ok(Outcome::Applied)
}

struct Context<'a> {
    txn: &'a DatabaseTransaction,
    /// Told of every payment recorded or advanced (the partner ledger).
    hooks: &'a HookRegistry,
    provider: &'a str,
    /// When the provider made the event.
    created: DateTime<Utc>,
}

fn text<'v>(object: &'v Value, pointer: &str) -> Option<&'v str> {
    object
        .pointer(pointer)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// A field that Stripe sends as an id or, expanded, as an object with one.
fn id_of<'v>(object: &'v Value, pointer: &str) -> Option<&'v str> {
    let value = object.pointer(pointer)?;
    value
        .as_str()
        .or_else(|| value.get("id").and_then(Value::as_str))
}

fn uuid_at(object: &Value, pointer: &str) -> Option<Uuid> {
    text(object, pointer).and_then(|s| Uuid::parse_str(s).ok())
}

fn amount(object: &Value, pointer: &str) -> i64 {
    object
        .pointer(pointer)
        .and_then(Value::as_i64)
        .unwrap_or(0)
        .max(0)
}

fn timestamp(object: &Value, pointer: &str) -> Option<DateTime<Utc>> {
    object
        .pointer(pointer)
        .and_then(Value::as_i64)
        .and_then(|secs| DateTime::from_timestamp(secs, 0))
}

const SUBSCRIPTION_STATUSES: &[&str] = &[
    "incomplete",
    "incomplete_expired",
    "trialing",
    "active",
    "past_due",
    "canceled",
    "unpaid",
    "paused",
];

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
    async fn apply(&self, kind: &str, object: &Value) -> Result<(), DbErr> {
        match kind {
            "checkout.session.completed" | "checkout.session.async_payment_succeeded" => {
                self.session_completed(object).await
            }
            "checkout.session.async_payment_failed" => self.session_payment_failed(object).await,
            "checkout.session.expired" => self.session_expired(object).await,
            "customer.subscription.created"
            | "customer.subscription.updated"
            | "customer.subscription.deleted" => self.subscription_changed(object).await,
            "invoice.paid" | "invoice.payment_succeeded" => self.invoice_paid(object).await,
            "invoice.payment_failed" => self.invoice_failed(object).await,
            "charge.refunded" => self.charge_refunded(object).await,
            "charge.dispute.created" => self.dispute_created(object).await,
            "account.updated" => {
                super::payouts::account_updated(self.txn, self.provider, object).await
            }
            "payment_intent.amount_capturable_updated" => {
                self.intent(object, PaymentStatus::Held).await
            }
            "payment_intent.succeeded" => self.intent(object, PaymentStatus::Succeeded).await,
            "payment_intent.canceled" => self.intent(object, PaymentStatus::Canceled).await,
            "payment_intent.payment_failed" => self.intent(object, PaymentStatus::Failed).await,
            other => {
                tracing::debug!(event = other, "a payment event we do not act on");
                Ok(())
            }
        }?;
        // One user, one active subscription: whatever the order of events.
        let subscription = match kind {
            "checkout.session.completed" | "checkout.session.async_payment_succeeded" => {
                id_of(object, "/subscription")
            }
            "customer.subscription.created" | "customer.subscription.updated" => {
                text(object, "/id")
            }
            "invoice.paid" | "invoice.payment_succeeded" => invoice_subscription(object),
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

    /// A subscription that became active while its user has another one is
    /// a second purchase: it is owed ending and a full refund ([`refunds`]),
    /// and no longer counts as active here.
    async fn one_subscription(&self, subscription_id: &str) -> Result<(), DbErr> {
        let Some(row) = self.find_subscription(subscription_id).await? else {
            return Ok(());
        };
        if row.plan_type != PREMIUM_EDITING {
            return Ok(());
        }
        self.lock_user(row.user_id).await?;
        let duplicate = if self.refund_owed(SUBSCRIPTION, subscription_id).await? {
            true
        } else if row.status != "active" {
            false
        } else {
            let others = subscription::Entity::find()
                .filter(subscription::Column::UserId.eq(row.user_id))
                .filter(subscription::Column::PlanType.eq(PREMIUM_EDITING))
                .filter(subscription::Column::Status.eq("active"))
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
        if duplicate && row.status != "canceled" {
            let mut active: subscription::ActiveModel = row.into();
            active.status = Set("canceled".to_owned());
            active.cancel_at_period_end = Set(false);
            active.updated_at = Set(Utc::now());
            active.update(self.txn).await?;
        }
        Ok(())
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

    async fn find_checkout(&self, session: &Value) -> Result<Option<checkout::Model>, DbErr> {
        if let Some(id) = text(session, "/id") {
            let found = checkout::Entity::find()
                .filter(checkout::Column::Provider.eq(self.provider))
                .filter(checkout::Column::ProviderSessionId.eq(id))
                .one(self.txn)
                .await?;
            if found.is_some() {
                return Ok(found);
            }
        }
        match uuid_at(session, "/metadata/checkout_id") {
            Some(id) => Ok(checkout::Entity::find_by_id(id)
                .one(self.txn)
                .await?
                .filter(|found| found.provider == self.provider)),
            None => Ok(None),
        }
    }

    async fn session_completed(&self, session: &Value) -> Result<(), DbErr> {
        let Some(found) = self.find_checkout(session).await? else {
            tracing::warn!(session = ?text(session, "/id"), "a completed checkout we did not open");
            return Ok(());
        };
        let purpose = Purchase::parse(&found.purpose).unwrap_or(Purchase::Subscription);
        let paid = matches!(
            text(session, "/payment_status"),
            Some("paid" | "no_payment_required")
        );
        let mut row: checkout::ActiveModel = found.clone().into();
        row.status = Set("complete".to_owned());
        row.completed_at = Set(Some(self.created));
        if found.provider_session_id.is_none() {
            row.provider_session_id = Set(text(session, "/id").map(str::to_owned));
        }
        row.updated_at = Set(Utc::now());
        row.update(self.txn).await?;

        let user_id = self.user(found.user_id).await?;
        if purpose == Purchase::Subscription
            && paid
            && let (Some(user_id), Some(subscription_id)) =
                (user_id, id_of(session, "/subscription"))
        {
            self.ensure_subscription(user_id, subscription_id, id_of(session, "/customer"))
                .await?;
        }
        let contact_request_id = self
            .reference(purpose, uuid_at(&found.metadata, "/contact_request_id"))
            .await?;
        // A hold is "unpaid" until captured: its PaymentIntent events say
        // when it is held.
        let status = if paid {
            PaymentStatus::Succeeded
        } else {
            PaymentStatus::Pending
        };
        self.record_payment(PaymentReport {
            intent: id_of(session, "/payment_intent"),
            invoice: id_of(session, "/invoice"),
            user_id,
            checkout_id: Some(found.id),
            contact_request_id,
            purpose,
            amount_cents: amount(session, "/amount_total").max(found.amount_cents),
            currency: found.currency.clone(),
            status,
            subscription: id_of(session, "/subscription")
                .filter(|_| purpose == Purchase::Subscription),
            purchase_ref: found.purchase_ref.clone(),
        })
        .await
    }

    async fn session_payment_failed(&self, session: &Value) -> Result<(), DbErr> {
        let Some(found) = self.find_checkout(session).await? else {
            return Ok(());
        };
        let user_id = self.user(found.user_id).await?;
        self.record_payment(PaymentReport {
            intent: id_of(session, "/payment_intent"),
            invoice: id_of(session, "/invoice"),
            user_id,
            checkout_id: Some(found.id),
            contact_request_id: None,
            purpose: Purchase::parse(&found.purpose).unwrap_or(Purchase::Subscription),
            amount_cents: found.amount_cents,
            currency: found.currency.clone(),
            status: PaymentStatus::Failed,
            subscription: id_of(session, "/subscription"),
            purchase_ref: found.purchase_ref.clone(),
        })
        .await
    }

    async fn session_expired(&self, session: &Value) -> Result<(), DbErr> {
        let Some(found) = self.find_checkout(session).await? else {
            return Ok(());
        };
        if found.status == "open" {
            let mut row: checkout::ActiveModel = found.into();
            row.status = Set("expired".to_owned());
            row.updated_at = Set(Utc::now());
            row.update(self.txn).await?;
        }
        Ok(())
    }

    async fn find_subscription(&self, id: &str) -> Result<Option<subscription::Model>, DbErr> {
        subscription::Entity::find()
            .filter(subscription::Column::ProviderSubscriptionId.eq(id))
            .filter(subscription::Column::Provider.eq(self.provider))
            .one(self.txn)
            .await
    }

    /// The row for a subscription a checkout paid for: made active for its
    /// first month if no subscription event has made it yet; left alone if
    /// one has (its state is newer than anything a checkout says).
    async fn ensure_subscription(
        &self,
        user_id: Uuid,
        subscription_id: &str,
        customer: Option<&str>,
    ) -> Result<(), DbErr> {
        if self.find_subscription(subscription_id).await?.is_some() {
            return Ok(());
        }
        let now = Utc::now();
        subscription::ActiveModel {
            id: Set(Uuid::now_v7()),
            user_id: Set(user_id),
            status: Set("active".to_owned()),
            plan_type: Set(PREMIUM_EDITING.to_owned()),
            provider: Set(self.provider.to_owned()),
            provider_customer_id: Set(customer.map(str::to_owned)),
            provider_subscription_id: Set(Some(subscription_id.to_owned())),
            expires_at: Set(self.created.checked_add_months(Months::new(1))),
            created_at: Set(now),
            updated_at: Set(now),
            cancel_at_period_end: Set(false),
            last_event_at: Set(None),
        }
        .insert(self.txn)
        .await?;
        Ok(())
    }

    async fn subscription_changed(&self, object: &Value) -> Result<(), DbErr> {
        let Some(state) = SubscriptionState::from_object(object) else {
            tracing::warn!("a subscription event without id or status");
            return Ok(());
        };
        if !SUBSCRIPTION_STATUSES.contains(&state.status.as_str()) {
            tracing::warn!(status = state.status, "an unknown subscription status");
            return Ok(());
        }
        let period_end = state
            .current_period_end
            .and_then(|secs| DateTime::from_timestamp(secs, 0));
        match self.find_subscription(&state.id).await? {
            Some(row) => {
                if row.last_event_at.is_some_and(|last| last > self.created) {
                    return Ok(());
                }
                apply_state(self.txn, row, &state, period_end, Some(self.created)).await
            }
            None => {
                let Some(user_id) = self.user(uuid_at(object, "/metadata/user_id")).await? else {
                    tracing::warn!(subscription = state.id, "a subscription of no known user");
                    return Ok(());
                };
                let now = Utc::now();
                subscription::ActiveModel {
                    id: Set(Uuid::now_v7()),
                    user_id: Set(user_id),
                    status: Set(state.status.clone()),
                    plan_type: Set(PREMIUM_EDITING.to_owned()),
                    provider: Set(self.provider.to_owned()),
                    provider_customer_id: Set(id_of(object, "/customer").map(str::to_owned)),
                    provider_subscription_id: Set(Some(state.id.clone())),
                    expires_at: Set(period_end),
                    created_at: Set(now),
                    updated_at: Set(now),
                    cancel_at_period_end: Set(state.cancel_at_period_end),
                    last_event_at: Set(Some(self.created)),
                }
                .insert(self.txn)
                .await?;
                Ok(())
            }
        }
    }

    async fn invoice_paid(&self, invoice: &Value) -> Result<(), DbErr> {
        let subscription_id = invoice_subscription(invoice);
        let period_end = timestamp(invoice, "/lines/data/0/period/end")
            .or_else(|| timestamp(invoice, "/period_end"));
        let metadata_user = uuid_at(invoice, "/subscription_details/metadata/user_id")
            .or_else(|| uuid_at(invoice, "/parent/subscription_details/metadata/user_id"));
        let mut user_id = self.user(metadata_user).await?;
        if let Some(subscription_id) = subscription_id {
            match self.find_subscription(subscription_id).await? {
                Some(row) => {
                    user_id = Some(row.user_id);
                    // A late invoice does not bring back an ended subscription.
                    if row.status != "canceled" {
                        let expires_at = match (row.expires_at, period_end) {
                            (Some(current), Some(paid)) => Some(current.max(paid)),
                            (current, paid) => paid.or(current),
                        };
                        let mut active: subscription::ActiveModel = row.into();
                        active.status = Set("active".to_owned());
                        active.expires_at = Set(expires_at);
                        active.updated_at = Set(Utc::now());
                        active.update(self.txn).await?;
                    }
                }
                None => {
                    if let Some(user_id) = user_id {
                        let now = Utc::now();
                        subscription::ActiveModel {
                            id: Set(Uuid::now_v7()),
                            user_id: Set(user_id),
                            status: Set("active".to_owned()),
                            plan_type: Set(PREMIUM_EDITING.to_owned()),
                            provider: Set(self.provider.to_owned()),
                            provider_customer_id: Set(
                                id_of(invoice, "/customer").map(str::to_owned)
                            ),
                            provider_subscription_id: Set(Some(subscription_id.to_owned())),
                            expires_at: Set(period_end),
                            created_at: Set(now),
                            updated_at: Set(now),
                            cancel_at_period_end: Set(false),
                            last_event_at: Set(None),
                        }
                        .insert(self.txn)
                        .await?;
                    }
                }
            }
        }
        self.record_payment(PaymentReport {
            intent: id_of(invoice, "/payment_intent"),
            invoice: text(invoice, "/id"),
            user_id,
            checkout_id: None,
            contact_request_id: None,
            purpose: Purchase::Subscription,
            amount_cents: amount(invoice, "/amount_paid"),
            currency: text(invoice, "/currency").unwrap_or("usd").to_owned(),
            status: PaymentStatus::Succeeded,
            subscription: invoice_subscription(invoice),
            purchase_ref: None,
        })
        .await
    }

    async fn invoice_failed(&self, invoice: &Value) -> Result<(), DbErr> {
        let mut user_id = None;
        if let Some(subscription_id) = invoice_subscription(invoice)
            && let Some(row) = self.find_subscription(subscription_id).await?
        {
            user_id = Some(row.user_id);
            if row.status == "active" {
                let mut active: subscription::ActiveModel = row.into();
                active.status = Set("past_due".to_owned());
                active.updated_at = Set(Utc::now());
                active.update(self.txn).await?;
            }
        }
        self.record_payment(PaymentReport {
            intent: id_of(invoice, "/payment_intent"),
            invoice: text(invoice, "/id"),
            user_id,
            checkout_id: None,
            contact_request_id: None,
            purpose: Purchase::Subscription,
            amount_cents: amount(invoice, "/amount_due"),
            currency: text(invoice, "/currency").unwrap_or("usd").to_owned(),
            status: PaymentStatus::Failed,
            subscription: invoice_subscription(invoice),
            purchase_ref: None,
        })
        .await
    }

    async fn charge_refunded(&self, charge: &Value) -> Result<(), DbErr> {
        let mut found = None;
        if let Some(intent) = id_of(charge, "/payment_intent") {
            found = payment::Entity::find()
                .filter(payment::Column::Provider.eq(self.provider))
                .filter(payment::Column::ProviderPaymentIntentId.eq(intent))
                .one(self.txn)
                .await?;
        }
        if found.is_none()
            && let Some(invoice) = id_of(charge, "/invoice")
        {
            found = payment::Entity::find()
                .filter(payment::Column::Provider.eq(self.provider))
                .filter(payment::Column::ProviderInvoiceId.eq(invoice))
                .one(self.txn)
                .await?;
        }
        let Some(row) = found else {
            tracing::warn!(charge = ?text(charge, "/id"), "a refund of a payment we do not know");
            return Ok(());
        };
        let refunded = amount(charge, "/amount_refunded");
        let charged = amount(charge, "/amount").max(row.amount_cents);
        let full = charge.get("refunded") == Some(&Value::Bool(true)) || refunded >= charged;
        let status = if full {
            PaymentStatus::Refunded
        } else {
            PaymentStatus::PartiallyRefunded
        };
        let payment_id = row.id;
        let mut active: payment::ActiveModel = row.into();
        active.refunded_cents = Set(refunded);
        active.status = Set(status.as_str().to_owned());
        active.updated_at = Set(Utc::now());
        active.update(self.txn).await?;
        self.payment_changed(payment_id).await
    }

    async fn intent(&self, intent: &Value, status: PaymentStatus) -> Result<(), DbErr> {
        let purpose = text(intent, "/metadata/purpose")
            .and_then(Purchase::parse)
            .unwrap_or(Purchase::ContactRequest);
        let user_id = self.user(uuid_at(intent, "/metadata/user_id")).await?;
        let contact_request_id = self
            .reference(purpose, uuid_at(intent, "/metadata/contact_request_id"))
            .await?;
        let checkout_id = match uuid_at(intent, "/metadata/checkout_id") {
            Some(id) => checkout::Entity::find_by_id(id)
                .one(self.txn)
                .await?
                .map(|found| found.id),
            None => None,
        };
        let amount_cents = match status {
            PaymentStatus::Succeeded => {
                amount(intent, "/amount_received").max(amount(intent, "/amount"))
            }
            _ => amount(intent, "/amount"),
        };
        self.record_payment(PaymentReport {
            intent: text(intent, "/id"),
            invoice: None,
            user_id,
            checkout_id,
            contact_request_id,
            purpose,
            amount_cents,
            currency: text(intent, "/currency").unwrap_or("usd").to_owned(),
            status,
            subscription: None,
            purchase_ref: text(intent, "/metadata/purchase_ref").map(str::to_owned),
        })
        .await
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
                }
                .insert(self.txn)
                .await?
            }
        };
        self.one_purchase(&saved).await?;
        self.payment_changed(saved.id).await
    }

    /// Billing's own ledger of what the payment earns its payee, then the
    /// listeners (the partner ledger, mails, wake-ups).
    async fn payment_changed(&self, payment_id: Uuid) -> Result<(), DbErr> {
        super::payouts::ledger::reconcile(self.txn, self.hooks, payment_id).await?;
        self.hooks.payment_changed(self.txn, payment_id).await
    }

    /// A dispute opened on a payment: the payee's share of it is owed back
    /// (canceled before it is sent, reversed after). Partner commissions
    /// follow the refund that a lost dispute brings.
    async fn dispute_created(&self, dispute: &Value) -> Result<(), DbErr> {
        let Some(intent) = id_of(dispute, "/payment_intent") else {
            return Ok(());
        };
        let found = payment::Entity::find()
            .filter(payment::Column::Provider.eq(self.provider))
            .filter(payment::Column::ProviderPaymentIntentId.eq(intent))
            .one(self.txn)
            .await?;
        match found {
            Some(paid) => super::payouts::ledger::take_back(self.txn, paid.id).await,
            None => {
                tracing::warn!(dispute = ?text(dispute, "/id"), "a dispute of a payment we do not know");
                Ok(())
            }
        }
    }
}

/// The subscription an invoice is for (before and after Stripe's 2025 API,
/// which moved it under `parent`).
fn invoice_subscription(invoice: &Value) -> Option<&str> {
    id_of(invoice, "/subscription")
        .or_else(|| id_of(invoice, "/parent/subscription_details/subscription"))
}

/// Writes a subscription's provider state onto its row.
pub(super) async fn apply_state(
    db: &impl ConnectionTrait,
    row: subscription::Model,
    state: &SubscriptionState,
    period_end: Option<DateTime<Utc>>,
    event_at: Option<DateTime<Utc>>,
) -> Result<(), DbErr> {
    let mut active: subscription::ActiveModel = row.into();
    active.status = Set(state.status.clone());
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
