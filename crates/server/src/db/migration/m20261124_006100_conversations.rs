//! A conversation can close while its contact request stays approved: the
//! contestant blocked or reported the requester. `closed_at` is set once, by
//! the contact domain; the messages domain refuses to post to or stream a
//! closed conversation. It is its own column, not a `status` value, because
//! the money of an approved request was captured and its status stays true.

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
            timestamp_null(ContactRequests::ClosedAt),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, ContactRequests::Table, ContactRequests::ClosedAt).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactRequests {
    Table,
    ClosedAt,
}
