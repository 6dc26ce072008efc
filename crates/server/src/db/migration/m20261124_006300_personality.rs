//! `personality_results.payment_id`: the payment a detailed analysis was
//! bought with. Unique (`personality_results_payment_id_key`), so one
//! payment buys one detailed analysis however often the page asks for it.
//! No foreign key: SQLite cannot add one to an existing table, and payments
//! are never deleted (they outlive accounts with user_id NULL).

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
                    .table(PersonalityResults::Table)
                    .add_column(uuid_null(PersonalityResults::PaymentId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(unique(
                "personality_results_payment_id_key",
                PersonalityResults::Table,
                [PersonalityResults::PaymentId],
            ))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("personality_results_payment_id_key")
                    .table(PersonalityResults::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(PersonalityResults::Table)
                    .drop_column(PersonalityResults::PaymentId)
                    .to_owned(),
            )
            .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum PersonalityResults {
    Table,
    PaymentId,
}
