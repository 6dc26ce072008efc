//! Share links the owner controls (issue 45, section 3):
//! `photos.share_expires_at`, when the photo's share link stops working
//! (none: it works until the owner revokes it). A revoke clears `share_slug`.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            manager,
            Photos::Table,
            timestamp_null(Photos::ShareExpiresAt),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, Photos::Table, Photos::ShareExpiresAt).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Photos {
    Table,
    ShareExpiresAt,
}
