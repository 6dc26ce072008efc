//! A provider event read once into what it says. Stripe's JSON (and the
//! sandbox's, which has Stripe's shape) is taken apart here and nowhere
//! else: fulfilment matches on [`PaymentEvent`] and reads typed fields.
//!
//! Stripe sends some fields as an id or, when expanded, as an object with
//! one ([`id_of`]); API versions from 2025 moved a few of them (a
//! subscription's period end onto its items, an invoice's subscription under
//! `parent`). Both shapes are read here.

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::{ConnectedAccount, Event, SubscriptionState};

/// What an event reports, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum PaymentEvent {
    /// `checkout.session.completed` and `…async_payment_succeeded`.
    CheckoutCompleted(CheckoutSession),
    /// `checkout.session.async_payment_failed`.
    CheckoutFailed(CheckoutSession),
    /// `checkout.session.expired`.
    CheckoutExpired(CheckoutSession),
    /// `customer.subscription.created`, `.updated` and (`deleted`) `.deleted`.
    SubscriptionChanged {
        change: SubscriptionChange,
        deleted: bool,
    },
    /// `invoice.paid` and `invoice.payment_succeeded`.
    InvoicePaid(Invoice),
    /// `invoice.payment_failed`.
    InvoiceFailed(Invoice),
    /// `charge.refunded`.
    ChargeRefunded(Charge),
    /// `charge.dispute.created`.
    DisputeCreated(Dispute),
    /// `account.updated` (a connected account's onboarding).
    AccountUpdated(ConnectedAccount),
    /// `payment_intent.*`: a payment's own state.
    Intent(IntentChange, Intent),
    /// A kind we do not act on.
    Ignored { kind: String },
    /// A kind we act on, with an object that lacks what we need.
    Unreadable { kind: String, why: &'static str },
}

/// A Checkout Session, as far as fulfilment reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckoutSession {
    /// `cs_…`
    pub id: Option<String>,
    /// Ours, from `metadata.checkout_id`.
    pub checkout_id: Option<Uuid>,
    /// `payment_status` is `paid` or `no_payment_required`; a hold is not
    /// paid until it is captured.
    pub paid: bool,
    pub amount_total: i64,
    pub payment_intent: Option<String>,
    pub invoice: Option<String>,
    pub subscription: Option<String>,
    pub customer: Option<String>,
}

/// A subscription object of a `customer.subscription.*` event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionChange {
    pub state: SubscriptionState,
    pub customer: Option<String>,
    /// Ours, from `metadata.user_id`.
    pub user_id: Option<Uuid>,
}

/// An invoice of a subscription.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Invoice {
    /// `in_…`
    pub id: Option<String>,
    pub subscription: Option<String>,
    pub customer: Option<String>,
    pub payment_intent: Option<String>,
    pub amount_paid: i64,
    pub amount_due: i64,
    pub currency: Option<String>,
    /// The end of the period it pays for.
    pub period_end: Option<DateTime<Utc>>,
    /// Ours, from the subscription's metadata.
    pub user_id: Option<Uuid>,
}

/// A charge (of a `charge.refunded` event).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Charge {
    /// `ch_…`
    pub id: Option<String>,
    pub payment_intent: Option<String>,
    pub invoice: Option<String>,
    pub amount: i64,
    pub amount_refunded: i64,
    /// Refunded in full.
    pub refunded: bool,
}

/// A dispute opened by the card holder's bank.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dispute {
    /// `dp_…`
    pub id: Option<String>,
    pub payment_intent: Option<String>,
}

/// What a `payment_intent.*` event says happened to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentChange {
    /// `amount_capturable_updated`: authorised, waiting for capture.
    Held,
    Succeeded,
    Canceled,
    Failed,
}

/// A PaymentIntent, with the metadata we put on it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Intent {
    /// `pi_…`
    pub id: Option<String>,
    pub amount: i64,
    pub amount_received: i64,
    pub currency: Option<String>,
    /// What it pays for (`metadata.purpose`).
    pub purpose: Option<String>,
    pub user_id: Option<Uuid>,
    pub checkout_id: Option<Uuid>,
    pub contact_request_id: Option<Uuid>,
    pub purchase_ref: Option<String>,
}

impl Event {
    /// When the provider made the event.
    pub fn created_at(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.created, 0).unwrap_or_else(Utc::now)
    }

    /// What the event says, read from its object once.
    pub fn read(&self) -> PaymentEvent {
        let object = &self.data.object;
        let unreadable = |why| PaymentEvent::Unreadable {
            kind: self.kind.clone(),
            why,
        };
        match self.kind.as_str() {
            "checkout.session.completed" | "checkout.session.async_payment_succeeded" => {
                PaymentEvent::CheckoutCompleted(CheckoutSession::read(object))
            }
            "checkout.session.async_payment_failed" => {
                PaymentEvent::CheckoutFailed(CheckoutSession::read(object))
            }
            "checkout.session.expired" => {
                PaymentEvent::CheckoutExpired(CheckoutSession::read(object))
            }
            kind @ ("customer.subscription.created"
            | "customer.subscription.updated"
            | "customer.subscription.deleted") => match SubscriptionState::from_object(object) {
                Some(state) => PaymentEvent::SubscriptionChanged {
                    change: SubscriptionChange {
                        state,
                        customer: id_of(object, "/customer"),
                        user_id: uuid_at(object, "/metadata/user_id"),
                    },
                    deleted: kind == "customer.subscription.deleted",
                },
                None => unreadable("a subscription without an id or a known status"),
            },
            "invoice.paid" | "invoice.payment_succeeded" => {
                PaymentEvent::InvoicePaid(Invoice::read(object))
            }
            "invoice.payment_failed" => PaymentEvent::InvoiceFailed(Invoice::read(object)),
            "charge.refunded" => PaymentEvent::ChargeRefunded(Charge {
                id: text(object, "/id"),
                payment_intent: id_of(object, "/payment_intent"),
                invoice: id_of(object, "/invoice"),
                amount: amount(object, "/amount"),
                amount_refunded: amount(object, "/amount_refunded"),
                refunded: object.get("refunded") == Some(&Value::Bool(true)),
            }),
            "charge.dispute.created" => PaymentEvent::DisputeCreated(Dispute {
                id: text(object, "/id"),
                payment_intent: id_of(object, "/payment_intent"),
            }),
            "account.updated" => match ConnectedAccount::from_object(object) {
                Some(account) => PaymentEvent::AccountUpdated(account),
                None => unreadable("an account without an id"),
            },
            "payment_intent.amount_capturable_updated" => {
                PaymentEvent::Intent(IntentChange::Held, Intent::read(object))
            }
            "payment_intent.succeeded" => {
                PaymentEvent::Intent(IntentChange::Succeeded, Intent::read(object))
            }
            "payment_intent.canceled" => {
                PaymentEvent::Intent(IntentChange::Canceled, Intent::read(object))
            }
            "payment_intent.payment_failed" => {
                PaymentEvent::Intent(IntentChange::Failed, Intent::read(object))
            }
            _ => PaymentEvent::Ignored {
                kind: self.kind.clone(),
            },
        }
    }
}

impl CheckoutSession {
    fn read(session: &Value) -> Self {
        Self {
            id: text(session, "/id"),
            checkout_id: uuid_at(session, "/metadata/checkout_id"),
            paid: matches!(
                text(session, "/payment_status").as_deref(),
                Some("paid" | "no_payment_required")
            ),
            amount_total: amount(session, "/amount_total"),
            payment_intent: id_of(session, "/payment_intent"),
            invoice: id_of(session, "/invoice"),
            subscription: id_of(session, "/subscription"),
            customer: id_of(session, "/customer"),
        }
    }
}

impl Invoice {
    fn read(invoice: &Value) -> Self {
        Self {
            id: text(invoice, "/id"),
            subscription: id_of(invoice, "/subscription")
                .or_else(|| id_of(invoice, "/parent/subscription_details/subscription")),
            customer: id_of(invoice, "/customer"),
            payment_intent: id_of(invoice, "/payment_intent"),
            amount_paid: amount(invoice, "/amount_paid"),
            amount_due: amount(invoice, "/amount_due"),
            currency: text(invoice, "/currency"),
            period_end: timestamp(invoice, "/lines/data/0/period/end")
                .or_else(|| timestamp(invoice, "/period_end")),
            user_id: uuid_at(invoice, "/subscription_details/metadata/user_id")
                .or_else(|| uuid_at(invoice, "/parent/subscription_details/metadata/user_id")),
        }
    }
}

impl Intent {
    fn read(intent: &Value) -> Self {
        Self {
            id: text(intent, "/id"),
            amount: amount(intent, "/amount"),
            amount_received: amount(intent, "/amount_received"),
            currency: text(intent, "/currency"),
            purpose: text(intent, "/metadata/purpose"),
            user_id: uuid_at(intent, "/metadata/user_id"),
            checkout_id: uuid_at(intent, "/metadata/checkout_id"),
            contact_request_id: uuid_at(intent, "/metadata/contact_request_id"),
            purchase_ref: text(intent, "/metadata/purchase_ref"),
        }
    }
}

/// A non-empty string field.
fn text(object: &Value, pointer: &str) -> Option<String> {
    object
        .pointer(pointer)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// A field that Stripe sends as an id or, expanded, as an object with one.
fn id_of(object: &Value, pointer: &str) -> Option<String> {
    let value = object.pointer(pointer)?;
    value
        .as_str()
        .or_else(|| value.get("id").and_then(Value::as_str))
        .map(str::to_owned)
}

fn uuid_at(object: &Value, pointer: &str) -> Option<Uuid> {
    text(object, pointer).and_then(|s| Uuid::parse_str(&s).ok())
}

/// Whole cents; missing or negative reads as 0.
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::providers::payments::{EventData, SubscriptionStatus};

    fn event(kind: &str, object: Value) -> Event {
        Event {
            id: "evt_1".to_owned(),
            kind: kind.to_owned(),
            created: 1_700_000_000,
            data: EventData { object },
        }
    }

    #[test]
    fn expanded_and_plain_ids_read_the_same() {
        let plain = event(
            "checkout.session.completed",
            json!({ "id": "cs_1", "payment_status": "paid", "subscription": "sub_1",
                    "customer": "cus_1", "amount_total": 999,
                    "metadata": { "checkout_id": "0190b5a0-0000-7000-8000-000000000001" } }),
        );
        let expanded = event(
            "checkout.session.async_payment_succeeded",
            json!({ "id": "cs_1", "payment_status": "paid", "subscription": { "id": "sub_1" },
                    "customer": { "id": "cus_1" }, "amount_total": 999,
                    "metadata": { "checkout_id": "0190b5a0-0000-7000-8000-000000000001" } }),
        );
        assert_eq!(plain.read(), expanded.read());
        let PaymentEvent::CheckoutCompleted(session) = plain.read() else {
            panic!("not a completed checkout: {:?}", plain.read());
        };
        assert!(session.paid);
        assert_eq!(session.subscription.as_deref(), Some("sub_1"));
        assert!(session.checkout_id.is_some());
    }

    #[test]
    fn an_unpaid_hold_is_not_paid_and_bad_amounts_read_as_zero() {
        let read = event(
            "checkout.session.completed",
            json!({ "id": "cs_2", "payment_status": "unpaid", "amount_total": -5 }),
        )
        .read();
        let PaymentEvent::CheckoutCompleted(session) = read else {
            panic!("{read:?}");
        };
        assert!(!session.paid);
        assert_eq!(session.amount_total, 0);
    }

    #[test]
    fn invoices_read_the_subscription_before_and_after_the_2025_api() {
        let old = event(
            "invoice.paid",
            json!({ "id": "in_1", "subscription": "sub_1", "amount_paid": 999,
                    "lines": { "data": [ { "period": { "end": 1_700_100_000 } } ] } }),
        )
        .read();
        let new = event(
            "invoice.payment_succeeded",
            json!({ "id": "in_1", "amount_paid": 999, "period_end": 1_700_100_000,
                    "parent": { "subscription_details": { "subscription": "sub_1" } } }),
        )
        .read();
        assert_eq!(old, new);
        let PaymentEvent::InvoicePaid(invoice) = old else {
            panic!("{old:?}");
        };
        assert_eq!(invoice.subscription.as_deref(), Some("sub_1"));
        assert_eq!(
            invoice.period_end.map(|at| at.timestamp()),
            Some(1_700_100_000)
        );
    }

    #[test]
    fn a_subscription_with_an_unknown_status_is_ignored_and_a_deletion_is_marked() {
        let unknown = event(
            "customer.subscription.updated",
            json!({ "id": "sub_1", "status": "on_fire" }),
        );
        assert!(matches!(unknown.read(), PaymentEvent::Unreadable { .. }));
        let deleted = event(
            "customer.subscription.deleted",
            json!({ "id": "sub_1", "status": "canceled",
                    "items": { "data": [ { "current_period_end": 1_700_100_000 } ] } }),
        )
        .read();
        let PaymentEvent::SubscriptionChanged { change, deleted } = deleted else {
            panic!("{deleted:?}");
        };
        assert!(deleted);
        assert_eq!(change.state.status, SubscriptionStatus::Canceled);
        assert_eq!(change.state.current_period_end, Some(1_700_100_000));
    }

    #[test]
    fn intents_say_what_happened_and_unknown_kinds_are_ignored() {
        let held = event(
            "payment_intent.amount_capturable_updated",
            json!({ "id": "pi_1", "amount": 100_000,
                    "metadata": { "purpose": "contact_request" } }),
        )
        .read();
        let PaymentEvent::Intent(IntentChange::Held, intent) = held else {
            panic!("{held:?}");
        };
        assert_eq!(intent.purpose.as_deref(), Some("contact_request"));
        assert_eq!(intent.amount, 100_000);
        assert!(matches!(
            event("customer.created", json!({})).read(),
            PaymentEvent::Ignored { .. }
        ));
        assert!(matches!(
            event("account.updated", json!({})).read(),
            PaymentEvent::Unreadable { .. }
        ));
    }
}
