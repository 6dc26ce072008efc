//! The partner programme's tables: `partner_accounts` and `partner_payouts`
//! (`m20261121_000003_partners`), the ledger `partner_conversions` and
//! `partner_clicks` (`m20261126_006400_partner_ledger`).

/// `partner_accounts`: one per user.
pub mod account {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "partner_accounts")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Uuid,
        pub display_name: String,
        pub code: String,
        pub promo_code: Option<String>,
        /// `pending`, `approved` or `suspended`.
        pub status: String,
        /// `starter`, `pro` or `elite`.
        pub tier: String,
        pub commission_rate: f64,
        /// Derived from `partner_clicks`, kept in the same transaction.
        pub total_clicks: i64,
        /// Derived from the ledger, kept in the same transaction.
        pub total_conversions: i64,
        pub total_earned_cents: i64,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}

    crate::stored_enum! {
        /// A partner's standing: applied, approved (their link and code
        /// earn), or suspended by an admin.
        pub enum Status {
            Pending = "pending",
            Approved = "approved",
            Suspended = "suspended",
        }
    }
}

/// `partner_conversions`: the ledger, one line per (payment, partner, kind,
/// refund level).
pub mod line {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "partner_conversions")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub partner_id: Uuid,
        /// `sale`, `parent` or `clawback`.
        pub kind: String,
        pub payment_id: Uuid,
        pub referred_user_id: Option<Uuid>,
        pub amount_cents: i64,
        pub rate: f64,
        pub commission_cents: i64,
        pub refund_level_cents: i64,
        /// `unpaid`, `paid` or `reversed`.
        pub status: String,
        pub payable_at: DateTimeUtc,
        pub payout_id: Option<Uuid>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}

    crate::stored_enum! {
        /// What a line earns for: a sale to a referred buyer, a share of a
        /// partner one referred (`Parent`), or a take-back after a refund of
        /// a line already paid out.
        pub enum Kind {
            Sale = "sale",
            Parent = "parent",
            Clawback = "clawback",
        }
    }

    crate::stored_enum! {
        /// Whether a line was paid out: unpaid, paid, or reversed (refunded
        /// before it was paid).
        pub enum Status {
            Unpaid = "unpaid",
            Paid = "paid",
            Reversed = "reversed",
        }
    }
}

/// `partner_clicks`: one per partner, visitor and day.
pub mod click {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "partner_clicks")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub partner_id: Uuid,
        /// A keyed digest of the visitor's address and browser.
        pub visitor: String,
        pub day: Date,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// `partner_payouts`: one per Mark as Paid or Pay through Stripe.
pub mod payout {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "partner_payouts")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub partner_id: Option<Uuid>,
        pub period_start: Date,
        pub period_end: Date,
        pub total_amount_cents: i64,
        /// `sent`.
        pub status: String,
        pub created_at: DateTimeUtc,
        /// `manual` (Mark as Paid) or `stripe` (Pay through Stripe),
        /// `m20261128_7300_payouts`.
        pub method: String,
        /// The provider's transfer; a `stripe` payout without one is not
        /// confirmed yet.
        pub transfer_id: Option<String>,
        /// While a Pay through Stripe request sends it.
        pub claimed_at: Option<DateTimeUtc>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
