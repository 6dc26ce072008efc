//! The nudity check before a photo becomes public (issue 45): `photos.screening`,
//! the classifier's last result (the image it screened and its five scores), and
//! `photos.screening_held`, set while a flagged photo waits for an admin.

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
            ColumnDef::new(Photos::Screening)
                .json_binary()
                .null()
                .take(),
        )
        .await?;
        add_column(manager, Photos::Table, flag(Photos::ScreeningHeld, false)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, Photos::Table, Photos::ScreeningHeld).await?;
        drop_column(manager, Photos::Table, Photos::Screening).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Photos {
    Table,
    Screening,
    ScreeningHeld,
}
