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
    /// Stripe's subscription states: `active`, `trialing`, `past_due`, `canceled`, …
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
        /// `open`, `complete` or `expired`.
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
        /// `pending`, `held`, `succeeded`, `failed`, `canceled`, `refunded`,
        /// `partially_refunded`.
        pub status: String,
        pub provider_payment_intent_id: Option<String>,
        pub provider_invoice_id: Option<String>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
        /// The thing bought, as on its checkout (`m20261127_7200_one_purchase`).
        pub purchase_ref: Option<String>,
        /// The subscription a subscription payment paid for.
        pub provider_subscription_id: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
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
