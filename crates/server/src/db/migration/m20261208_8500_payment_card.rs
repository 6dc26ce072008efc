//! The card a payment was made with, as a receipt names it (issue 42,
//! section 3): `payments.card`, e.g. "Visa ending in 4242", read from the
//! provider when its event arrives. Null in the sandbox (no card) and when
//! the provider did not say.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(manager, Payments::Table, text_null(Payments::Card)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, Payments::Table, Payments::Card).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Payments {
    Table,
    Card,
}
