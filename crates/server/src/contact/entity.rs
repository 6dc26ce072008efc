//! `contact_requests` (`m20261121_000006_contact`, `closed_at` from
//! `m20261124_006100_conversations`) and `contact_blocks`
//! (`m20261126_006500_contact`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "contact_requests")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub requester_id: Uuid,
    pub contestant_id: Uuid,
    pub photo_id: Option<Uuid>,
    pub rank_at_request: i32,
    pub fee_amount_cents: i64,
    pub platform_share_cents: i64,
    pub contestant_share_cents: i64,
    pub message_preview: String,
    /// The hold is confirmed (set by billing's fulfilment).
    pub paid: bool,
    /// `pending_payment` before any payment, then the payment's
    /// ([`crate::billing::entity::payment::Status`]).
    pub payment_status: String,
    /// [`Status`]: `pending`, `approved` or `denied`.
    pub status: String,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// The conversation closed (block or report); the request stays as it was.
    pub closed_at: Option<DateTimeUtc>,
    /// The contestant was mailed that the paid request waits for them
    /// (`m20261127_7201_contact_mail`).
    pub held_mailed_at: Option<DateTimeUtc>,
    /// The contestant was reminded 24 hours before the hold expires.
    pub reminded_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

crate::stored_enum! {
    /// Where a request stands with its contestant. It starts pending; the
    /// contestant approves (the hold is captured, the chat opens) or denies
    /// (the hold is released), and an unanswered one is denied after seven
    /// days.
    pub enum Status {
        Pending = "pending",
        Approved = "approved",
        Denied = "denied",
    }
}

/// `contact_blocks`: a contestant no longer takes requests from a requester.
pub mod block {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "contact_blocks")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub contestant_id: Uuid,
        pub requester_id: Uuid,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
