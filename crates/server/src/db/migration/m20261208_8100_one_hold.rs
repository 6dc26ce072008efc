//! One contact request holds money once (issue 42, section 1):
//! `payments.duplicate_of`, set on a payment that was authorised while
//! another payment for the same thing (a contact request) already held or
//! had captured the money. Such a payment is released (or refunded) at
//! once and never counts as the request's payment; the one it names is.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(manager, Payments::Table, uuid_null(Payments::DuplicateOf)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, Payments::Table, Payments::DuplicateOf).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Payments {
    Table,
    DuplicateOf,
}
