//! The public leaderboard's moderation and the monthly ranking contest
//! (issue 14).
//!
//! - `photos` gains its moderation state. An entry is listed when
//!   `public_listing AND is_verified` (as before); `listing_status` says where
//!   a listing request stands for its owner and the admins: `pending`,
//!   `approved` (is_verified true), `rejected` (with `rejection_reason`, shown
//!   to the owner) or `unlisted`; NULL for a photo never put forward. The
//!   server owns the values (no CHECK: SQLite cannot add one to a table).
//!   `reviewed_by` / `reviewed_at` name the admin's last decision (no foreign
//!   key: SQLite cannot add one either; the audit log keeps the history).
//! - The contest: `contest_month` (`YYYY-MM`) and `contest_entered_at`, with
//!   the entrant's attestation (`attested_adult`, `attested_original`).
//! - `photos_listed_order_idx` serves the leaderboard's order and its keyset
//!   pages: equality on the two flags, then score descending, created_at and
//!   id ascending, so a page is one index range scan however deep it is. It
//!   replaces `photos_leaderboard_idx`, which lacked the approval flag and the
//!   id tie-breaker. `photos_contest_idx` does the same for one month.
//! - `leaderboard_reports`: a signed-in user's report of an entry, one per
//!   user and entry; both cascade with the photo and the reporter.
//! - `contest_winners`: a month's frozen top 10. History outlives the photo and
//!   the user (SET NULL); the name and score are copied at freezing.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};

        // SQLite takes one ADD COLUMN per ALTER TABLE.
        for column in [
            text_null(Photos::ListingStatus),
            text_null(Photos::RejectionReason),
            uuid_null(Photos::ReviewedBy),
            timestamp_null(Photos::ReviewedAt),
            text_null(Photos::ContestMonth),
            timestamp_null(Photos::ContestEnteredAt),
            flag(Photos::AttestedAdult, false),
            flag(Photos::AttestedOriginal, false),
        ] {
            let mut column = column;
            manager
                .alter_table(
                    Table::alter()
                        .table(Photos::Table)
                        .add_column(&mut column)
                        .to_owned(),
                )
                .await?;
        }
        // Entries put forward before moderation existed keep their meaning.
        manager
            .get_connection()
            .execute(
                &Query::update()
                    .table(Photos::Table)
                    .value(
                        Photos::ListingStatus,
                        Expr::case(Expr::col(Photos::IsVerified).eq(true), "approved")
                            .finally("pending"),
                    )
                    .and_where(Expr::col(Photos::PublicListing).eq(true))
                    .to_owned(),
            )
            .await?;

        manager
            .drop_index(
                Index::drop()
                    .name("photos_leaderboard_idx")
                    .table(Photos::Table)
                    .to_owned(),
            )
            .await?;

        let reports = Table::create()
            .table(LeaderboardReports::Table)
            .col(pk_uuid(LeaderboardReports::Id))
            .col(uuid(LeaderboardReports::PhotoId))
            .col(uuid(LeaderboardReports::ReporterId))
            .col(text(LeaderboardReports::Reason))
            .col(text_enum(
                LeaderboardReports::Status,
                "leaderboard_reports_status_check",
                &["open", "resolved"],
                Some("open"),
            ))
            .col(uuid_null(LeaderboardReports::ResolvedBy))
            .col(timestamp_null(LeaderboardReports::ResolvedAt))
            .col(timestamp_now(LeaderboardReports::CreatedAt, db))
            .foreign_key(&mut fk(
                "leaderboard_reports_photo_id_fkey",
                (LeaderboardReports::Table, LeaderboardReports::PhotoId),
                (Photos::Table, Photos::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "leaderboard_reports_reporter_id_fkey",
                (LeaderboardReports::Table, LeaderboardReports::ReporterId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "leaderboard_reports_resolved_by_fkey",
                (LeaderboardReports::Table, LeaderboardReports::ResolvedBy),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .to_owned();

        let winners = Table::create()
            .table(ContestWinners::Table)
            .col(pk_uuid(ContestWinners::Id))
            .col(text(ContestWinners::Month))
            .col(int(ContestWinners::Place))
            .col(uuid_null(ContestWinners::PhotoId))
            .col(uuid_null(ContestWinners::UserId))
            .col(text(ContestWinners::DisplayName))
            .col(double(ContestWinners::Score))
            .col(timestamp_now(ContestWinners::FrozenAt, db))
            .check((
                "contest_winners_place_check",
                Expr::col(ContestWinners::Place).between(1, 10),
            ))
            .foreign_key(&mut fk(
                "contest_winners_photo_id_fkey",
                (ContestWinners::Table, ContestWinners::PhotoId),
                (Photos::Table, Photos::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "contest_winners_user_id_fkey",
                (ContestWinners::Table, ContestWinners::UserId),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .to_owned();

        let indexes = vec![
            index(
                "photos_listed_order_idx",
                Photos::Table,
                [
                    (Photos::PublicListing, IndexOrder::Asc),
                    (Photos::IsVerified, IndexOrder::Asc),
                    (Photos::Score, IndexOrder::Desc),
                    (Photos::CreatedAt, IndexOrder::Asc),
                    (Photos::Id, IndexOrder::Asc),
                ],
            ),
            index(
                "photos_contest_idx",
                Photos::Table,
                [
                    (Photos::ContestMonth, IndexOrder::Asc),
                    (Photos::Score, IndexOrder::Desc),
                    (Photos::CreatedAt, IndexOrder::Asc),
                    (Photos::Id, IndexOrder::Asc),
                ],
            ),
            // The admin page's queue, oldest first.
            index(
                "photos_listing_status_created_at_idx",
                Photos::Table,
                [Photos::ListingStatus, Photos::CreatedAt],
            ),
            unique(
                "leaderboard_reports_photo_id_reporter_id_key",
                LeaderboardReports::Table,
                [LeaderboardReports::PhotoId, LeaderboardReports::ReporterId],
            ),
            index(
                "leaderboard_reports_status_created_at_idx",
                LeaderboardReports::Table,
                [LeaderboardReports::Status, LeaderboardReports::CreatedAt],
            ),
            index(
                "leaderboard_reports_reporter_id_idx",
                LeaderboardReports::Table,
                [LeaderboardReports::ReporterId],
            ),
            unique(
                "contest_winners_month_place_key",
                ContestWinners::Table,
                [ContestWinners::Month, ContestWinners::Place],
            ),
        ];
        create_all(manager, vec![reports, winners], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                ContestWinners::Table.into_iden(),
                LeaderboardReports::Table.into_iden(),
            ],
        )
        .await?;
        for name in [
            "photos_listed_order_idx",
            "photos_contest_idx",
            "photos_listing_status_created_at_idx",
        ] {
            manager
                .drop_index(Index::drop().name(name).table(Photos::Table).to_owned())
                .await?;
        }
        for column in [
            Photos::ListingStatus,
            Photos::RejectionReason,
            Photos::ReviewedBy,
            Photos::ReviewedAt,
            Photos::ContestMonth,
            Photos::ContestEnteredAt,
            Photos::AttestedAdult,
            Photos::AttestedOriginal,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Photos::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(index(
                "photos_leaderboard_idx",
                Photos::Table,
                [
                    (Photos::PublicListing, IndexOrder::Asc),
                    (Photos::Score, IndexOrder::Desc),
                    (Photos::CreatedAt, IndexOrder::Asc),
                ],
            ))
            .await
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
    Score,
    PublicListing,
    IsVerified,
    CreatedAt,
    ListingStatus,
    RejectionReason,
    ReviewedBy,
    ReviewedAt,
    ContestMonth,
    ContestEnteredAt,
    AttestedAdult,
    AttestedOriginal,
}

#[derive(DeriveIden, Clone, Copy)]
enum LeaderboardReports {
    Table,
    Id,
    PhotoId,
    ReporterId,
    Reason,
    Status,
    ResolvedBy,
    ResolvedAt,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum ContestWinners {
    Table,
    Id,
    Month,
    Place,
    PhotoId,
    UserId,
    DisplayName,
    Score,
    FrozenAt,
}
