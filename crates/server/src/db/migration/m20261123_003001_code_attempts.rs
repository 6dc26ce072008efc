//! A one-time code dies after a few wrong guesses: `failed_attempts` counts
//! the wrong codes tried against the address a live code was sent to.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let mut column = int(OneTimeTokens::FailedAttempts);
        column.default(0);
        manager
            .alter_table(
                Table::alter()
                    .table(OneTimeTokens::Table)
                    .add_column(column)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(OneTimeTokens::Table)
                    .drop_column(OneTimeTokens::FailedAttempts)
                    .to_owned(),
            )
            .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum OneTimeTokens {
    Table,
    FailedAttempts,
}
