//! The billing tables: `subscriptions` (created by `m20261121_000007_premium`,
//! with `cancel_at_period_end` and `last_event_at` from
//! `m20261123_002001_billing`), and in [`checkout`] and [`payment`] the
//! checkout sessions and payments.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "subscriptions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    /// Stripe's subscription states ([`Status`]): `active`, `trialing`, `past_due`, `canceled`, …
    pub status: String,
    /// `premium_editing` or `pay_per_view`.
    pub plan_type: String,
    /// `sandbox` or `stripe`.
    pub provider: String,
    pub provider_customer_id: Option<String>,
    pub provider_subscription_id: Option<String>,
    /// The end of the paid period, if it has one.
    pub expires_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// Ends at `expires_at` instead of renewing.
    pub cancel_at_period_end: bool,
    /// The `created` time of the newest provider event applied: an older
    /// event arriving late changes nothing.
    pub last_event_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// The stored status is the provider's.
pub use crate::providers::payments::SubscriptionStatus as Status;

impl Model {
    /// The stored status (`None` for a value no provider sends).
    pub fn state(&self) -> Option<Status> {
        Status::parse(&self.status)
    }

    /// Active at the provider (its paid period may still have ended).
    pub fn is_active(&self) -> bool {
        self.state() == Some(Status::Active)
    }
}

/// `checkout_sessions` (`m20261121_000002_payments`).
pub mod checkout {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "checkout_sessions")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Option<Uuid>,
        pub idempotency_key: String,
        pub provider: String,
        pub provider_session_id: Option<String>,
        /// `subscription`, `personality_detailed` or `contact_request`.
        pub purpose: String,
        pub price_id: String,
        pub amount_cents: i64,
        pub currency: String,
        /// [`Status`]: `open`, `complete` or `expired`.
        pub status: String,
        pub url: Option<String>,
        pub metadata: Json,
        pub completed_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
        /// The one thing bought (`premium`, a personality result's id):
        /// one open checkout per user and thing
        /// (`checkout_sessions_open_purchase_key`, `m20261127_7200_one_purchase`).
        pub purchase_ref: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}

    /// A checkout's state: open until paid (`Complete`) or given up
    /// (`Expired`: it timed out, was cancelled, or a newer price replaced it).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Status {
        Open,
        Complete,
        Expired,
    }

    impl Status {
        pub const fn as_str(self) -> &'static str {
            match self {
                Self::Open => "open",
                Self::Complete => "complete",
                Self::Expired => "expired",
            }
        }
    }
}

/// `payments` (`m20261123_002001_billing`).
pub mod payment {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "payments")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Option<Uuid>,
        pub checkout_session_id: Option<Uuid>,
        pub contact_request_id: Option<Uuid>,
        pub provider: String,
        pub purpose: String,
        pub description: String,
        pub amount_cents: i64,
        pub refunded_cents: i64,
        pub currency: String,
        /// A [`Status`], as its `as_str`.
        pub status: String,
        pub provider_payment_intent_id: Option<String>,
        pub provider_invoice_id: Option<String>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
        /// The thing bought, as on its checkout (`m20261127_7200_one_purchase`).
        pub purchase_ref: Option<String>,
        /// The subscription a subscription payment paid for.
        pub provider_subscription_id: Option<String>,
        /// The payment that already held or had captured the money for the
        /// same contact request when this one was authorised: this one is
        /// given back at once and never counts (`m20261208_8100_one_hold`).
        pub duplicate_of: Option<Uuid>,
        /// The card as a receipt names it ("Visa ending in 4242"), when the
        /// provider said (`m20261208_8500_payment_card`).
        pub card: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}

    impl Model {
        /// The stored status; an unknown one reads as `Pending`.
        pub fn state(&self) -> Status {
            Status::parse(&self.status).unwrap_or(Status::Pending)
        }
    }

    /// A payment's state, in the order it may move: an older provider event
    /// never moves a payment back ([`Status::rank`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Status {
        /// A checkout completed, the charge not confirmed yet.
        Pending,
        /// Authorised, not captured (a contact fee's hold).
        Held,
        Failed,
        /// Charged.
        Succeeded,
        /// A hold released, or a payment that never went through.
        Canceled,
        PartiallyRefunded,
        Refunded,
    }

    impl Status {
        /// Charged and not refunded in full: what a purchase keeps.
        pub const KEPT: [Self; 2] = [Self::Succeeded, Self::PartiallyRefunded];
        /// Charged, whatever came back since: what earns a commission (a
        /// refund then reverses it).
        pub const CHARGED: [Self; 3] = [Self::Succeeded, Self::PartiallyRefunded, Self::Refunded];

        pub const fn as_str(self) -> &'static str {
            match self {
                Self::Pending => "pending",
                Self::Held => "held",
                Self::Failed => "failed",
                Self::Succeeded => "succeeded",
                Self::Canceled => "canceled",
                Self::PartiallyRefunded => "partially_refunded",
                Self::Refunded => "refunded",
            }
        }

        pub fn parse(value: &str) -> Option<Self> {
            [
                Self::Pending,
                Self::Held,
                Self::Failed,
                Self::Succeeded,
                Self::Canceled,
                Self::PartiallyRefunded,
                Self::Refunded,
            ]
            .into_iter()
            .find(|status| status.as_str() == value)
        }

        /// How far along it is; a report replaces a status of lower or
        /// equal rank only.
        pub const fn rank(self) -> u8 {
            match self {
                Self::Pending => 0,
                Self::Held | Self::Failed => 1,
                Self::Succeeded | Self::Canceled => 2,
                Self::PartiallyRefunded => 3,
                Self::Refunded => 4,
            }
        }

        pub fn is_kept(self) -> bool {
            Self::KEPT.contains(&self)
        }

        /// The stored values of `statuses`, for a filter.
        pub fn stored(statuses: &[Self]) -> Vec<&'static str> {
            statuses.iter().map(|status| status.as_str()).collect()
        }
    }
    #[cfg(test)]
    mod tests {
        use super::Status;

        #[test]
        fn every_status_reads_back_and_a_payment_only_moves_forward() {
            for status in [
                Status::Pending,
                Status::Held,
                Status::Failed,
                Status::Succeeded,
                Status::Canceled,
                Status::PartiallyRefunded,
                Status::Refunded,
            ] {
                assert_eq!(Status::parse(status.as_str()), Some(status));
            }
            assert_eq!(Status::parse("disputed"), None);
            assert!(Status::Held.rank() < Status::Succeeded.rank());
            assert!(Status::Succeeded.rank() < Status::PartiallyRefunded.rank());
            assert!(Status::PartiallyRefunded.rank() < Status::Refunded.rank());
            assert_eq!(Status::Succeeded.rank(), Status::Canceled.rank());
            assert!(Status::Succeeded.is_kept() && !Status::Refunded.is_kept());
        }
    }
}

/// `processed_webhook_events` (`m20261121_000002_payments`): each provider
/// event id once, written in the transaction of its effect.
pub mod processed_event {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "processed_webhook_events")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub provider: String,
        pub event_id: String,
        pub event_type: String,
        pub processed_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// `billing_refunds` (`m20261127_7200_one_purchase`): a refund owed because
/// a thing was paid for twice, done once by [`crate::billing::refunds`].
pub mod refund {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "billing_refunds")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Option<Uuid>,
        pub provider: String,
        /// `subscription` (cancel it now and refund its payments) or
        /// `payment` (refund that payment).
        pub kind: String,
        /// The provider's subscription id, or our payment id.
        pub target: String,
        pub reason: String,
        pub attempts: i64,
        pub last_error: Option<String>,
        /// The subscription was ended at the provider.
        pub ended_at: Option<DateTimeUtc>,
        pub claimed_at: Option<DateTimeUtc>,
        pub done_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
