//! The `verification_requests` table (`m20261121_000008_verification`): one
//! request per user (`verification_requests_user_id_key`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "verification_requests")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub full_name: String,
    pub reason: String,
    pub instagram_handle: Option<String>,
    pub other_social: Option<String>,
    /// [`Status`]: `pending`, `approved` or `rejected`.
    pub status: String,
    pub admin_notes: Option<String>,
    pub reviewed_by: Option<Uuid>,
    pub reviewed_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

crate::stored_enum! {
    /// Where a request stands: waiting for an admin, or decided once.
    pub enum Status {
        Pending = "pending",
        Approved = "approved",
        Rejected = "rejected",
    }
}
