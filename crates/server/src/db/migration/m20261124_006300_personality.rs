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
        add_column(
            manager,
            PersonalityResults::Table,
            uuid_null(PersonalityResults::PaymentId),
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
        drop_index(
            manager,
            "personality_results_payment_id_key",
            PersonalityResults::Table,
        )
        .await?;
        drop_column(
            manager,
            PersonalityResults::Table,
            PersonalityResults::PaymentId,
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
