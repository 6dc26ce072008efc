//! What telling the contestant needs (issue 23): `contact_requests.held_mailed_at`,
//! when the contestant was mailed that a paid request waits for them (set by
//! one conditional UPDATE in the payment's transaction, so they are mailed
//! once), and `contact_requests.reminded_at`, when they were reminded 24
//! hours before the hold expires (claimed the same way by the reminder job,
//! so two instances send one reminder).

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            manager,
            ContactRequests::Table,
            timestamp_null(ContactRequests::HeldMailedAt),
        )
        .await?;
        add_column(
            manager,
            ContactRequests::Table,
            timestamp_null(ContactRequests::RemindedAt),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, ContactRequests::Table, ContactRequests::RemindedAt).await?;
        drop_column(
            manager,
            ContactRequests::Table,
            ContactRequests::HeldMailedAt,
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactRequests {
    Table,
    HeldMailedAt,
    RemindedAt,
}
