//! Adults only and terms people accept (issue 41, sections 1 and 2).
//!
//! - `birth_dates`: one row per user, the date of birth they declared (or an
//!   admin corrected: `source`). It lives outside `users.raw_user_meta_data`,
//!   so `PUT /auth/v1/user` cannot change it; `birth_dates_user_id_key` makes
//!   the first declaration the only one a user can make.
//! - `terms_acceptances`: every acceptance of a version of the terms, with
//!   its time; `terms_acceptances_user_id_version_key` keeps one per version.
//!
//! Both go with their user.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        let birth_dates = Table::create()
            .table(BirthDates::Table)
            .col(pk_uuid(BirthDates::Id))
            .col(uuid(BirthDates::UserId))
            .col(date(BirthDates::DateOfBirth))
            .col(text_enum(
                BirthDates::Source,
                "birth_dates_source_check",
                &["self", "admin"],
                Some("self"),
            ))
            .col(timestamp_now(BirthDates::CreatedAt, db))
            .col(timestamp_now(BirthDates::UpdatedAt, db))
            .foreign_key(&mut fk(
                "birth_dates_user_id_fkey",
                (BirthDates::Table, BirthDates::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .to_owned();
        let acceptances = Table::create()
            .table(TermsAcceptances::Table)
            .col(pk_uuid(TermsAcceptances::Id))
            .col(uuid(TermsAcceptances::UserId))
            .col(text(TermsAcceptances::Version))
            .col(timestamp_now(TermsAcceptances::AcceptedAt, db))
            .foreign_key(&mut fk(
                "terms_acceptances_user_id_fkey",
                (TermsAcceptances::Table, TermsAcceptances::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .to_owned();
        let indexes = vec![
            unique(
                "birth_dates_user_id_key",
                BirthDates::Table,
                [BirthDates::UserId],
            ),
            unique(
                "terms_acceptances_user_id_version_key",
                TermsAcceptances::Table,
                [TermsAcceptances::UserId, TermsAcceptances::Version],
            ),
        ];
        create_all(manager, vec![birth_dates, acceptances], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                TermsAcceptances::Table.into_iden(),
                BirthDates::Table.into_iden(),
            ],
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum BirthDates {
    Table,
    Id,
    UserId,
    DateOfBirth,
    Source,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum TermsAcceptances {
    Table,
    Id,
    UserId,
    Version,
    AcceptedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}
