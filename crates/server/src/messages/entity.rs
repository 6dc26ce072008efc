//! `messages` (`m20261121_000006_contact`): keyed by `seq`, an
//! auto-increment that orders every conversation and is its stream's
//! cursor; `id` is the client-chosen unique id that makes a send idempotent.
//! And `message_reads` (`m20261126_006500_contact`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "messages")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub seq: i64,
    pub id: Uuid,
    pub contact_request_id: Uuid,
    pub sender_id: Uuid,
    pub receiver_id: Uuid,
    pub content: String,
    pub created_at: DateTimeUtc,
    /// Taken down after a report (`m20261208_8401_reports`): shown as "This
    /// message was removed", its words gone.
    pub removed_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// `message_reads`: the last `seq` a party of a conversation has read.
pub mod read {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "message_reads")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub contact_request_id: Uuid,
        pub user_id: Uuid,
        pub last_read_seq: i64,
        pub updated_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
