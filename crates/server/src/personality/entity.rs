//! The `personality_results` table (`m20261121_000007_premium`, with
//! `payment_id` from `m20261124_006300_personality`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "personality_results")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    /// `basic` or `detailed`.
    pub quiz_type: String,
    /// Question index to option value.
    pub answers: Json,
    pub score: i32,
    pub personality_type: String,
    pub analysis: String,
    pub paid: bool,
    pub created_at: DateTimeUtc,
    /// The payment a detailed analysis was bought with (one each).
    pub payment_id: Option<Uuid>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
