//! Passkeys and WebAuthn second factors (issue 28, part 2), as GoTrue keeps
//! them.
//!
//! - `webauthn_credentials`: a user's passkeys. `credential` is the
//!   library's record (public key, algorithm, counter) as JSON;
//!   `credential_id` (base64url) is unique across all users
//!   (`webauthn_credentials_credential_id_key`), so one authenticator's key
//!   cannot be registered twice; `sign_count` is kept beside the record so
//!   that a sign-in only moves it forward.
//! - `webauthn_challenges`: the server half of a passkey ceremony between
//!   its options and its verify request, consumed by the verify (a delete
//!   that must find the row). A registration belongs to a user; a sign-in
//!   (discoverable, the user is not known yet) to nobody.
//! - `mfa_factors.web_authn_credential`: a verified WebAuthn factor's
//!   credential, and `mfa_challenges.web_authn_session_data`: the state of
//!   its create or request ceremony.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ForeignKeyAction::Cascade;
        let db = manager.get_database_backend();
        let credentials = Table::create()
            .table(WebauthnCredentials::Table)
            .col(pk_uuid(WebauthnCredentials::Id))
            .col(uuid(WebauthnCredentials::UserId))
            .col(text(WebauthnCredentials::CredentialId))
            .col(text(WebauthnCredentials::Credential))
            .col(big_zero(WebauthnCredentials::SignCount))
            .col(text_null(WebauthnCredentials::FriendlyName))
            .col(timestamp_null(WebauthnCredentials::LastUsedAt))
            .col(timestamp_now(WebauthnCredentials::CreatedAt, db))
            .col(timestamp_now(WebauthnCredentials::UpdatedAt, db))
            .foreign_key(&mut fk(
                "webauthn_credentials_user_id_fkey",
                (WebauthnCredentials::Table, WebauthnCredentials::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();
        let challenges = Table::create()
            .table(WebauthnChallenges::Table)
            .col(pk_uuid(WebauthnChallenges::Id))
            .col(uuid_null(WebauthnChallenges::UserId))
            .col(text_enum(
                WebauthnChallenges::Kind,
                "webauthn_challenges_kind_check",
                &["registration", "authentication"],
                None,
            ))
            .col(text(WebauthnChallenges::State))
            .col(timestamp_now(WebauthnChallenges::CreatedAt, db))
            .foreign_key(&mut fk(
                "webauthn_challenges_user_id_fkey",
                (WebauthnChallenges::Table, WebauthnChallenges::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();
        let indexes = vec![
            unique(
                "webauthn_credentials_credential_id_key",
                WebauthnCredentials::Table,
                [WebauthnCredentials::CredentialId],
            ),
            index(
                "webauthn_credentials_user_id_idx",
                WebauthnCredentials::Table,
                [(WebauthnCredentials::UserId, IndexOrder::Asc)],
            ),
            index(
                "webauthn_challenges_created_at_idx",
                WebauthnChallenges::Table,
                [(WebauthnChallenges::CreatedAt, IndexOrder::Asc)],
            ),
        ];
        create_all(manager, vec![credentials, challenges], indexes).await?;
        add_column(
            manager,
            MfaFactors::Table,
            text_null(MfaFactors::WebAuthnCredential),
        )
        .await?;
        add_column(
            manager,
            MfaChallenges::Table,
            text_null(MfaChallenges::WebAuthnSessionData),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(
            manager,
            MfaChallenges::Table,
            MfaChallenges::WebAuthnSessionData,
        )
        .await?;
        drop_column(manager, MfaFactors::Table, MfaFactors::WebAuthnCredential).await?;
        drop_all(manager, [WebauthnChallenges::Table]).await?;
        drop_all(manager, [WebauthnCredentials::Table]).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum WebauthnCredentials {
    Table,
    Id,
    UserId,
    CredentialId,
    Credential,
    SignCount,
    FriendlyName,
    LastUsedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum WebauthnChallenges {
    Table,
    Id,
    UserId,
    Kind,
    State,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MfaFactors {
    Table,
    WebAuthnCredential,
}

#[derive(DeriveIden, Clone, Copy)]
enum MfaChallenges {
    Table,
    WebAuthnSessionData,
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}
