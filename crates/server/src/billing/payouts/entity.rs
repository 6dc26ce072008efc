//! `payout_accounts` and `earning_lines` (`m20261128_7300_payouts`).

use sea_orm::entity::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// A line's stored state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum, Serialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "Text")]
#[serde(rename_all = "snake_case")]
pub enum LineStatus {
    /// The requester's hold is placed; nothing is charged yet.
    #[sea_orm(string_value = "held")]
    Held,
    /// Charged: payable once the refund window after `captured_at` passes.
    #[sea_orm(string_value = "captured")]
    Captured,
    /// Sent to the payee's payout account.
    #[sea_orm(string_value = "transferred")]
    Transferred,
    /// The hold was let go (denied, expired, blocked): nothing earned.
    #[sea_orm(string_value = "released")]
    Released,
    /// Refunded or disputed before it was sent: nothing owed.
    #[sea_orm(string_value = "canceled")]
    Canceled,
    /// Refunded or disputed after it was sent: the transfer was taken back.
    #[sea_orm(string_value = "reversed")]
    Reversed,
}

crate::stored_enum! {
    /// Why a payee's share was taken back (`earning_lines.reason`), as the
    /// earnings page and the mails say it.
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum TakenBack {
        /// The buyer was refunded.
        Refund = "refund",
        /// The buyer disputed the charge with their bank.
        Dispute = "dispute",
        /// The payee did not write within the reply window after approving,
        /// so the buyer was refunded in full.
        NoReply = "no_reply",
    }
}

crate::stored_enum! {
    /// A payout account's state (`payout_accounts.status`, and as the API
    /// says it).
    #[derive(Serialize, ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum AccountStatus {
        /// Onboarding is not finished: nothing can be sent yet.
        Onboarding = "onboarding",
        /// The provider may send it transfers.
        Enabled = "enabled",
    }
}

impl AccountStatus {
    /// The stored state; anything else is not ready.
    pub fn of(stored: &str) -> Self {
        Self::parse(stored).unwrap_or(Self::Onboarding)
    }

    pub fn ready(ready: bool) -> Self {
        if ready {
            Self::Enabled
        } else {
            Self::Onboarding
        }
    }
}

pub mod account {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "payout_accounts")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Uuid,
        /// `sandbox` or `stripe`.
        pub provider: String,
        /// The provider's account (`acct_…`).
        pub account_id: String,
        /// `onboarding` or `enabled`.
        pub status: String,
        pub enabled_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod line {
    use sea_orm::entity::prelude::*;

    use super::LineStatus;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "earning_lines")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub payee_id: Uuid,
        /// One line per payment.
        pub payment_id: Uuid,
        /// What was paid for (a contact request's id).
        pub reference: Option<Uuid>,
        pub description: String,
        /// What the buyer paid.
        pub fee_cents: i64,
        /// The payee's share of it.
        pub amount_cents: i64,
        pub currency: String,
        pub status: LineStatus,
        pub captured_at: Option<DateTimeUtc>,
        /// Refunded or disputed while being sent or after: the transfer job
        /// takes the transfer back.
        pub reverse_owed: bool,
        pub claimed_at: Option<DateTimeUtc>,
        pub attempts: i64,
        pub last_error: Option<String>,
        pub transfer_id: Option<String>,
        pub transferred_at: Option<DateTimeUtc>,
        pub reversal_id: Option<String>,
        pub reversed_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
        /// When the payee first wrote in the conversation paid for: the
        /// share is payable only once they have (`m20261208_8251_money_mail`).
        pub replied_at: Option<DateTimeUtc>,
        /// Why the line was taken back, once it is: a [`super::TakenBack`].
        pub reason: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
