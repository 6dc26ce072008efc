//! A saved result becomes shareable on its owner's request: `share_slug` is
//! the unguessable part of its public page `/s/<slug>`. Photos without one
//! stay private.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Photos::Table)
                    .add_column(text_null(Photos::ShareSlug))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                unique("photos_share_slug_key", Photos::Table, [Photos::ShareSlug]).to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("photos_share_slug_key")
                    .table(Photos::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Photos::Table)
                    .drop_column(Photos::ShareSlug)
                    .to_owned(),
            )
            .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Photos {
    Table,
    ShareSlug,
}
