//! The app's side of an account: the profile (one per auth user, same id) and
//! roles.
//!
//! Both belong to the user (CASCADE). The partner that referred a user is
//! history that must not block deleting the partner account: SET NULL.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();

        let profiles = Table::create()
            .table(Profiles::Table)
            // Equal to users.id.
            .col(pk_uuid(Profiles::Id))
            // Copy of users.email at sign-up, for joins (the contact inbox shows
            // the requester's email); NULL for users without one.
            .col(text_null(Profiles::Email))
            // The verification badge, set when an admin approves a request.
            .col(flag(Profiles::IsVerified, false))
            .col(uuid_null(Profiles::ReferredByPartner))
            .col(timestamp_now(Profiles::CreatedAt, db))
            .col(timestamp_now(Profiles::UpdatedAt, db))
            .foreign_key(&mut fk(
                "profiles_id_fkey",
                (Profiles::Table, Profiles::Id),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                "profiles_referred_by_partner_fkey",
                (Profiles::Table, Profiles::ReferredByPartner),
                (PartnerAccounts::Table, PartnerAccounts::Id),
                ForeignKeyAction::SetNull,
            ))
            .to_owned();

        let user_roles = Table::create()
            .table(UserRoles::Table)
            .col(pk_uuid(UserRoles::Id))
            .col(uuid(UserRoles::UserId))
            .col(text_enum(
                UserRoles::Role,
                "user_roles_role_check",
                &["admin"],
                None,
            ))
            .col(timestamp_now(UserRoles::CreatedAt, db))
            .foreign_key(&mut fk(
                "user_roles_user_id_fkey",
                (UserRoles::Table, UserRoles::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::Cascade,
            ))
            .to_owned();

        let indexes = vec![
            index(
                "profiles_referred_by_partner_idx",
                Profiles::Table,
                [Profiles::ReferredByPartner],
            ),
            unique(
                "user_roles_user_id_role_key",
                UserRoles::Table,
                [UserRoles::UserId, UserRoles::Role],
            ),
        ];

        create_all(manager, vec![profiles, user_roles], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [UserRoles::Table.into_iden(), Profiles::Table.into_iden()],
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerAccounts {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum Profiles {
    Table,
    Id,
    Email,
    IsVerified,
    ReferredByPartner,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum UserRoles {
    Table,
    Id,
    UserId,
    Role,
    CreatedAt,
}
