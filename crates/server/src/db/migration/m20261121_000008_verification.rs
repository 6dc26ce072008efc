//! Verification badge requests. A request belongs to its user (CASCADE); the
//! admin who decided it is recorded with SET NULL, so removing an admin account
//! keeps the decision.
//!
//! One request per user (`verification_requests_user_id_key`): the spec lets a
//! user with an existing request, even a rejected one, not submit another.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();

        let verification_requests = Table::create()
            .table(VerificationRequests::Table)
            .col(pk_uuid(VerificationRequests::Id))
            .col(uuid(VerificationRequests::UserId))
            .col(text(VerificationRequests::FullName))
            .col(text(VerificationRequests::Reason))
            .col(text_null(VerificationRequests::InstagramHandle))
            .col(text_null(VerificationRequests::OtherSocial))
            .col(text_enum(
                VerificationRequests::Status,
                "verification_requests_status_check",
                &["pending", "approved", "rejected"],
                Some("pending"),
            ))
            .col(text_null(VerificationRequests::AdminNotes))
            .col(uuid_null(VerificationRequests::ReviewedBy))
            .col(timestamp_null(VerificationRequests::ReviewedAt))
            .col(timestamp_now(VerificationRequests::CreatedAt, db))
            .col(timestamp_now(VerificationRequests::UpdatedAt, db))
            .foreign_key(&mut fk(
                "verification_requests_user_id_fkey",
                (VerificationRequests::Table, VerificationRequests::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                "verification_requests_reviewed_by_fkey",
                (
                    VerificationRequests::Table,
                    VerificationRequests::ReviewedBy,
                ),
                (Users::Table, Users::Id),
                ForeignKeyAction::SetNull,
            ))
            .to_owned();

        let indexes = vec![
            unique(
                "verification_requests_user_id_key",
                VerificationRequests::Table,
                [VerificationRequests::UserId],
            ),
            // Admin list, newest first.
            index(
                "verification_requests_created_at_idx",
                VerificationRequests::Table,
                [(VerificationRequests::CreatedAt, IndexOrder::Desc)],
            ),
            index(
                "verification_requests_reviewed_by_idx",
                VerificationRequests::Table,
                [VerificationRequests::ReviewedBy],
            ),
        ];

        create_all(manager, vec![verification_requests], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, [VerificationRequests::Table]).await
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
enum VerificationRequests {
    Table,
    Id,
    UserId,
    FullName,
    Reason,
    InstagramHandle,
    OtherSocial,
    Status,
    AdminNotes,
    ReviewedBy,
    ReviewedAt,
    CreatedAt,
    UpdatedAt,
}
