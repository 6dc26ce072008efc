//! The `photos` table (created by `m20261121_000005_photos`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "photos")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    /// The media path of the stored original, e.g. `/media/photos/<user>/<id>/original.jpg` (or `.png`).
    pub original_image_url: String,
    pub edited_image_url: Option<String>,
    pub score: f64,
    pub rating_label: String,
    pub breakdown: Json,
    pub photo_type: String,
    pub public_listing: bool,
    pub featured: bool,
    pub is_verified: bool,
    pub display_name: Option<String>,
    pub bio: Option<String>,
    /// Set once the owner shares the result: the public page is `/s/<slug>`.
    pub share_slug: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
