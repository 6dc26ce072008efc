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
    /// When the share link stops working; None: when the owner revokes it
    /// (`m20261207_7701_share_expiry`).
    pub share_expires_at: Option<DateTimeUtc>,
    /// Where a leaderboard listing request stands ([`ListingStatus`]): `pending`, `approved`
    /// (is_verified), `rejected` (with `rejection_reason`) or `unlisted`;
    /// None for a photo never put forward (`m20261123_006001_leaderboard`).
    pub listing_status: Option<String>,
    pub rejection_reason: Option<String>,
    pub reviewed_by: Option<Uuid>,
    pub reviewed_at: Option<DateTimeUtc>,
    /// The ranking contest month (`YYYY-MM`) the photo was entered in.
    pub contest_month: Option<String>,
    pub contest_entered_at: Option<DateTimeUtc>,
    /// The entrant's attestation: 18 or older, and an original photo of themselves.
    pub attested_adult: bool,
    pub attested_original: bool,
    /// The nudity check's last result: the image it screened and the classifier's
    /// five scores (`photos::screening`); None until the photo is first made public
    /// (`m20261207_7600_photo_screening`).
    pub screening: Option<Json>,
    /// Flagged by the check and not yet released by an admin: nothing of the photo
    /// is public while this is set.
    pub screening_held: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

crate::stored_enum! {
    /// Where a photo put forward for the leaderboard stands: waiting for a
    /// moderator, listed, refused (with a reason), or taken off after being
    /// listed.
    pub enum ListingStatus {
        Pending = "pending",
        Approved = "approved",
        Rejected = "rejected",
        Unlisted = "unlisted",
    }
}
