//! `opportunity_claims.contacted_at`: when an admin marked the application as
//! answered. The form promises contact within 48 hours, so the admin page
//! needs to know which applications still wait.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            manager,
            OpportunityClaims::Table,
            timestamp_null(OpportunityClaims::ContactedAt),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(
            manager,
            OpportunityClaims::Table,
            OpportunityClaims::ContactedAt,
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum OpportunityClaims {
    Table,
    ContactedAt,
}
