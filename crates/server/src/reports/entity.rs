//! The tables of `m20261208_8401_reports`: `reports`, `moderation_decisions`
//! and `moderation_appeals`.

/// One notice about one thing.
pub mod report {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "reports")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        /// `photo`, `message`, `conversation` or `user`.
        pub target_kind: String,
        pub target_id: String,
        /// The kind the reporter named (`share`, `contest_entry`, …).
        pub reported_as: String,
        pub affected_user_id: Option<Uuid>,
        pub reporter_id: Option<Uuid>,
        pub reporter_email: Option<String>,
        pub reason: String,
        pub details: String,
        pub good_faith: bool,
        /// `open` or `decided`.
        pub status: String,
        pub decision_id: Option<Uuid>,
        pub due_at: DateTimeUtc,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// What an admin decided about one thing.
pub mod decision {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "moderation_decisions")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub target_kind: String,
        pub target_id: String,
        pub target_label: String,
        pub affected_user_id: Option<Uuid>,
        /// `dismiss`, `remove`, `suspend` or `ban`.
        pub action: String,
        /// The reason of the reports it answers (the most urgent one).
        pub reason: String,
        /// The rule of /guidelines (`g1`…).
        pub rule: String,
        /// The admin's statement of reasons.
        pub statement: String,
        pub suspend_days: Option<i32>,
        pub decided_by: Option<Uuid>,
        pub evidence_keys: Json,
        pub evidence_text: Option<String>,
        pub evidence_until: Option<DateTimeUtc>,
        /// SHA-256 (hex) of the appeal link's token mailed to the affected user.
        pub appeal_token_hash: String,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// The affected user's one appeal of a decision.
pub mod appeal {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "moderation_appeals")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub decision_id: Uuid,
        pub user_id: Option<Uuid>,
        pub statement: String,
        /// `open`, `upheld` or `reversed`.
        pub status: String,
        pub answer: Option<String>,
        pub decided_by: Option<Uuid>,
        pub decided_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
