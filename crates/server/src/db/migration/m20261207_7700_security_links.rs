//! The "this wasn't me" links of security notices (issue 45, section 2).
//!
//! `security_links`: one row per link a security mail carries. Only a hash
//! of the link's token is kept (`token_hash`, looked up by
//! `security_links_token_hash_idx`); `used_at` is set by the one conditional
//! UPDATE that uses the link, so a link signs the account out and starts a
//! reset once. The rows go with their user.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        let links = Table::create()
            .table(SecurityLinks::Table)
            .col(pk_uuid(SecurityLinks::Id))
            .col(uuid(SecurityLinks::UserId))
            .col(text(SecurityLinks::TokenHash))
            .col(timestamp_null(SecurityLinks::UsedAt))
            .col(timestamp_now(SecurityLinks::CreatedAt, db))
            .foreign_key(&mut fk(
                "security_links_user_id_fkey",
                (SecurityLinks::Table, SecurityLinks::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .to_owned();
        let indexes = vec![
            index(
                "security_links_token_hash_idx",
                SecurityLinks::Table,
                [SecurityLinks::TokenHash],
            ),
            index(
                "security_links_user_id_idx",
                SecurityLinks::Table,
                [SecurityLinks::UserId],
            ),
        ];
        create_all(manager, vec![links], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, [SecurityLinks::Table]).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum SecurityLinks {
    Table,
    Id,
    UserId,
    TokenHash,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}
