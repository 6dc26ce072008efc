//! The `opportunity_claims` table (`m20261121_000007_premium`, with
//! `contacted_at` from `m20261124_006200_opportunities`): one application per
//! user, unique on `user_id` (`opportunity_claims_user_id_key`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "opportunity_claims")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub full_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub instagram: Option<String>,
    pub location: String,
    pub bio: Option<String>,
    /// A JSON array of interest options.
    pub interests: Json,
    pub created_at: DateTimeUtc,
    /// When an admin marked it answered; NULL while it waits.
    pub contacted_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
