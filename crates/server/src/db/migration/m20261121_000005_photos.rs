//! Saved photo results: the dashboard, the global ranking and the public
//! leaderboard. A photo belongs to its user (CASCADE).

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();

        let photos = Table::create()
            .table(Photos::Table)
            .col(pk_uuid(Photos::Id))
            .col(uuid(Photos::UserId))
            .col(text(Photos::OriginalImageUrl))
            .col(text_null(Photos::EditedImageUrl))
            // 0.0-10.0 with one decimal, computed by the server from the stored
            // image (rounded there, so equal scores compare equal for ranking).
            .col(double(Photos::Score))
            .col(text(Photos::RatingLabel))
            // Sub-scores keyed by photo type (symmetry, skinQuality, ...).
            .col(json(Photos::Breakdown))
            .col(text_enum(
                Photos::PhotoType,
                "photos_photo_type_check",
                &["face", "feet", "hands"],
                Some("face"),
            ))
            .col(flag(Photos::PublicListing, false))
            .col(flag(Photos::Featured, false))
            .col(flag(Photos::IsVerified, false))
            .col(text_null(Photos::DisplayName))
            .col(text_null(Photos::Bio))
            .col(timestamp_now(Photos::CreatedAt, db))
            .col(timestamp_now(Photos::UpdatedAt, db))
            .check((
                "photos_score_check",
                Expr::col(Photos::Score).between(0, 10),
            ))
            .foreign_key(&mut fk(
                "photos_user_id_fkey",
                (Photos::Table, Photos::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .to_owned();

        let indexes = vec![
            // Dashboard, Latest First.
            index(
                "photos_user_id_created_at_idx",
                Photos::Table,
                [
                    (Photos::UserId, IndexOrder::Asc),
                    (Photos::CreatedAt, IndexOrder::Desc),
                ],
            ),
            // Dashboard, Highest Rating, and the ranking page's top 10.
            index(
                "photos_user_id_score_idx",
                Photos::Table,
                [
                    (Photos::UserId, IndexOrder::Asc),
                    (Photos::Score, IndexOrder::Desc),
                ],
            ),
            // Public leaderboard: score descending, older first on ties.
            index(
                "photos_leaderboard_idx",
                Photos::Table,
                [
                    (Photos::PublicListing, IndexOrder::Asc),
                    (Photos::Score, IndexOrder::Desc),
                    (Photos::CreatedAt, IndexOrder::Asc),
                ],
            ),
        ];

        create_all(manager, vec![photos], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, [Photos::Table]).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum Photos {
    Table,
    Id,
    UserId,
    OriginalImageUrl,
    EditedImageUrl,
    Score,
    RatingLabel,
    Breakdown,
    PhotoType,
    PublicListing,
    Featured,
    IsVerified,
    DisplayName,
    Bio,
    CreatedAt,
    UpdatedAt,
}
