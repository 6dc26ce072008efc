//! Payments behind one small interface, [`PaymentProvider`], with two
//! implementations chosen by `payments.provider`:
//!
//! - [`sandbox::Sandbox`], the embedded default: a built-in test checkout
//!   where no money moves. It keeps its objects in the database and writes
//!   every event it emits, in Stripe's JSON shape, to an event log that the
//!   billing domain runs through the same fulfilment code as Stripe's
//!   webhooks.
//! - [`stripe::Stripe`]: a thin form-encoded client over the handful of
//!   Stripe API calls used (Checkout Sessions, PaymentIntents with manual
//!   capture, refunds, subscription updates, and for payouts Connect's
//!   Express accounts, account links, transfers and transfer reversals). Stripe's events come back
//!   through `POST /api/v1/billing/webhook`, checked with
//!   [`stripe::verify_signature`].
//!
//! Fulfilment never trusts what these calls return to grant anything: rights
//! come from events only. Amounts are whole cents.

pub mod events;
pub mod sandbox;
pub mod stripe;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::{PaymentProviderKind, PaymentsConfig};

/// What a checkout sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckoutMode {
    /// A monthly subscription.
    Subscription,
    /// A one-time payment, captured at once.
    Payment,
    /// A one-time payment that is only authorised (a hold), captured or
    /// released later.
    Hold,
}

/// A checkout to open at the provider.
#[derive(Debug, Clone)]
pub struct CheckoutRequest {
    pub mode: CheckoutMode,
    pub amount_cents: i64,
    pub currency: String,
    /// What the buyer sees, e.g. `Premium Editing (monthly)`.
    pub product_name: String,
    pub customer_email: Option<String>,
    /// Our user id (Stripe's `client_reference_id`).
    pub client_reference_id: String,
    /// Copied onto the session and onto the PaymentIntent or subscription it
    /// creates, so every later event can be tied back to the user and
    /// purchase: `checkout_id`, `user_id`, `purpose`, maybe
    /// `contact_request_id`.
    pub metadata: BTreeMap<String, String>,
    /// Absolute (Stripe) or relative (sandbox) URLs for the buyer's return.
    pub success_url: String,
    pub cancel_url: String,
    /// Sent as `Idempotency-Key`: a retried request opens no second session.
    pub idempotency_key: String,
    /// A promo code's discount, in percent, on the first payment only
    /// (renewals are charged `amount_cents`).
    pub discount_percent: Option<u8>,
}

impl CheckoutRequest {
    /// What the first payment charges.
    pub fn first_payment_cents(&self) -> i64 {
        discounted_cents(self.amount_cents, self.discount_percent)
    }
}

/// `amount_cents` less `percent` off, the discount rounded to the nearest
/// cent as Stripe rounds a `percent_off` coupon.
pub fn discounted_cents(amount_cents: i64, percent: Option<u8>) -> i64 {
    let percent = i64::from(percent.unwrap_or(0).min(100));
    amount_cents - (amount_cents * percent + 50) / 100
}

/// A checkout opened at the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutSession {
    /// `cs_…`
    pub id: String,
    /// Where the buyer pays.
    pub url: String,
}

/// A hold to place: a PaymentIntent with manual capture.
#[derive(Debug, Clone)]
pub struct HoldRequest {
    pub amount_cents: i64,
    pub currency: String,
    pub customer: Option<String>,
    /// A payment method to confirm with at once (server-side flows and
    /// tests); without it the intent waits for the buyer.
    pub payment_method: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub idempotency_key: String,
}

/// A PaymentIntent, as far as we read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentIntent {
    pub id: String,
    /// `requires_payment_method`, `requires_capture`, `succeeded`, `canceled`, …
    pub status: String,
    pub amount: i64,
    #[serde(default)]
    pub amount_capturable: i64,
    #[serde(default)]
    pub amount_received: i64,
}

/// A refund, as far as we read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refund {
    pub id: String,
    /// `pending`, `succeeded`, `failed`, `canceled`, `requires_action`.
    pub status: String,
    pub amount: i64,
}

/// A subscription's status at the provider: Stripe's states, which the
/// `subscriptions` table stores as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionStatus {
    Incomplete,
    IncompleteExpired,
    Trialing,
    Active,
    PastDue,
    Canceled,
    Unpaid,
    Paused,
}

impl SubscriptionStatus {
    const ALL: [Self; 8] = [
        Self::Incomplete,
        Self::IncompleteExpired,
        Self::Trialing,
        Self::Active,
        Self::PastDue,
        Self::Canceled,
        Self::Unpaid,
        Self::Paused,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Incomplete => "incomplete",
            Self::IncompleteExpired => "incomplete_expired",
            Self::Trialing => "trialing",
            Self::Active => "active",
            Self::PastDue => "past_due",
            Self::Canceled => "canceled",
            Self::Unpaid => "unpaid",
            Self::Paused => "paused",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == value)
    }
}

/// A subscription's state at the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionState {
    pub id: String,
    pub status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    /// Unix seconds.
    pub current_period_end: Option<i64>,
}

impl SubscriptionState {
    /// Reads a Stripe subscription object (`None` without an id or with a
    /// status Stripe does not have). Since API version 2025-03-31 the period
    /// end lives on the items, not on the subscription.
    pub fn from_object(object: &Value) -> Option<Self> {
        Some(Self {
            id: object.get("id")?.as_str()?.to_owned(),
            status: SubscriptionStatus::parse(object.get("status")?.as_str()?)?,
            cancel_at_period_end: object
                .get("cancel_at_period_end")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            current_period_end: object
                .get("current_period_end")
                .and_then(Value::as_i64)
                .or_else(|| {
                    object
                        .pointer("/items/data/0/current_period_end")
                        .and_then(Value::as_i64)
                }),
        })
    }
}

/// A provider event, in Stripe's shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// `evt_…`: events are deduplicated by it.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// Unix seconds.
    pub created: i64,
    pub data: EventData,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventData {
    pub object: Value,
}

/// An account that receives payouts (a Stripe Connect Express account).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectedAccount {
    /// `acct_…`
    pub id: String,
    /// Stripe may send it transfers and pay them out: onboarding is done.
    pub payouts_enabled: bool,
    pub details_submitted: bool,
}

impl ConnectedAccount {
    /// Reads a Stripe account object (also `account.updated`'s).
    pub fn from_object(object: &Value) -> Option<Self> {
        let flag = |key: &str| object.get(key).and_then(Value::as_bool).unwrap_or(false);
        Some(Self {
            id: object.get("id")?.as_str()?.to_owned(),
            payouts_enabled: flag("payouts_enabled"),
            details_submitted: flag("details_submitted"),
        })
    }

    /// Onboarding is finished and money can be sent.
    pub fn ready(&self) -> bool {
        self.payouts_enabled && self.details_submitted
    }
}

/// Money to send to a connected account.
#[derive(Debug, Clone)]
pub struct TransferRequest {
    pub amount_cents: i64,
    pub currency: String,
    /// The connected account (`acct_…`).
    pub destination: String,
    /// Ties the transfer to what it pays for (a contact request, a payout).
    pub transfer_group: String,
    pub metadata: BTreeMap<String, String>,
    /// Sent as `Idempotency-Key`: one transfer per ledger line or payout,
    /// however often it is retried.
    pub idempotency_key: String,
}

/// A transfer to a connected account, as far as we read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    /// `tr_…`
    pub id: String,
    pub amount: i64,
    #[serde(default)]
    pub amount_reversed: i64,
}

/// A transfer reversal (`trr_…`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reversal {
    pub id: String,
    pub amount: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum PaymentError {
    /// The card or payment was declined.
    #[error("the payment was declined: {0}")]
    Declined(String),
    /// The provider refused the request (a state that does not allow it, an
    /// unknown id).
    #[error("the payment provider refused the request: {0}")]
    Refused(String),
    /// The provider could not be reached or failed.
    #[error("the payment provider failed: {0}")]
    Unavailable(String),
    #[error("the payment provider is not configured: {0}")]
    NotConfigured(&'static str),
    #[error(transparent)]
    Database(#[from] sea_orm::DbErr),
}

/// An outside service that takes payments.
#[async_trait::async_trait]
pub trait PaymentProvider: Send + Sync + std::fmt::Debug {
    /// `sandbox` or `stripe`, as stored in the `provider` columns.
    fn name(&self) -> &'static str;

    /// Opens a checkout for a subscription or a one-time purchase.
    async fn create_checkout(
        &self,
        request: &CheckoutRequest,
    ) -> Result<CheckoutSession, PaymentError>;

    /// Places a hold: a PaymentIntent with `capture_method=manual`.
    async fn hold(&self, request: &HoldRequest) -> Result<PaymentIntent, PaymentError>;

    /// Captures a held PaymentIntent in full.
    async fn capture(&self, payment_intent: &str) -> Result<PaymentIntent, PaymentError>;

    /// Releases a hold (cancels the PaymentIntent).
    async fn release(&self, payment_intent: &str) -> Result<PaymentIntent, PaymentError>;

    /// The card a payment was made with, as a receipt names it ("Visa
    /// ending in 4242"), from its PaymentIntent or, for a subscription's
    /// first payment, its invoice. `None` when the provider has no card to
    /// name (the sandbox).
    async fn card(
        &self,
        _payment_intent: Option<&str>,
        _invoice: Option<&str>,
    ) -> Result<Option<String>, PaymentError> {
        Ok(None)
    }

    /// Refunds a captured payment, in full or `amount_cents` of it.
    async fn refund(
        &self,
        payment_intent: &str,
        amount_cents: Option<i64>,
    ) -> Result<Refund, PaymentError>;

    /// Ends a subscription now (no renewal, no proration): a subscription
    /// bought twice is ended at once and its payment refunded.
    async fn cancel_now(&self, subscription: &str) -> Result<SubscriptionState, PaymentError>;

    /// Cancels a subscription at the end of its period (`true`) or takes
    /// that back (`false`).
    async fn set_cancel_at_period_end(
        &self,
        subscription: &str,
        cancel: bool,
    ) -> Result<SubscriptionState, PaymentError>;

    /// Opens a payout account for `user_id` (an Express account that may
    /// receive transfers); the key makes a retry open no second one.
    async fn create_connected_account(
        &self,
        email: Option<&str>,
        user_id: &str,
        idempotency_key: &str,
    ) -> Result<ConnectedAccount, PaymentError>;

    /// Where the account's owner finishes (or continues) onboarding: the
    /// provider's hosted page, which sends them back to `return_url`, or to
    /// `refresh_url` when the link expired.
    async fn onboarding_link(
        &self,
        account: &str,
        refresh_url: &str,
        return_url: &str,
    ) -> Result<String, PaymentError>;

    /// Sends money from the platform's balance to a connected account.
    async fn transfer(&self, request: &TransferRequest) -> Result<Transfer, PaymentError>;

    /// Takes a transfer back in full (a refund or dispute after payout).
    async fn reverse_transfer(&self, transfer: &str) -> Result<Reversal, PaymentError>;
}

/// The configured provider, and the sandbox itself when it is the one (its
/// test page and renewals need more than the interface).
#[derive(Clone, Debug)]
pub struct Payments {
    pub provider: Arc<dyn PaymentProvider>,
    pub sandbox: Option<Arc<sandbox::Sandbox>>,
    /// Checks the signatures of Stripe's webhooks, when configured.
    pub webhook_secret: Option<crate::config::Secret>,
}

impl Payments {
    pub fn from_config(
        config: &PaymentsConfig,
        db: sea_orm::DatabaseConnection,
    ) -> anyhow::Result<Self> {
        match config.provider {
            PaymentProviderKind::Sandbox => {
                let sandbox = Arc::new(sandbox::Sandbox::new(db));
                Ok(Self {
                    provider: sandbox.clone(),
                    sandbox: Some(sandbox),
                    webhook_secret: config.stripe.webhook_secret.clone(),
                })
            }
            PaymentProviderKind::Stripe => {
                let stripe = stripe::Stripe::from_config(&config.stripe)?;
                if config.stripe.webhook_secret.is_none() {
                    anyhow::bail!(
                        "payments.stripe.webhook_secret is required with the Stripe provider: fulfilment comes from its webhooks"
                    );
                }
                Ok(Self {
                    provider: Arc::new(stripe),
                    sandbox: None,
                    webhook_secret: config.stripe.webhook_secret.clone(),
                })
            }
        }
    }
}
