//! The GoTrue-compatible auth service's tables (`docs/auth-compat.md`): users and
//! their identities, sessions with rotating refresh tokens, MFA factors and
//! challenges, one-time tokens, PKCE flow states, the audit log and JWT signing
//! keys.
//!
//! Shapes follow supabase/auth's own schema where the client can tell the
//! difference, with three simplifications: everything lives in the default schema
//! (no `auth.` schema, which SQLite lacks), ids are server-generated UUIDs
//! everywhere (GoTrue uses a bigserial for refresh tokens), and the legacy token
//! columns on `users` (`confirmation_token`, `recovery_token`, ...) are gone in
//! favour of `one_time_tokens`.
//!
//! Every row here belongs to one user, so every reference to `users` is
//! `ON DELETE CASCADE`: deleting a user signs them out everywhere and removes
//! their factors and tokens.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};

        // Email and phone are stored normalised by the server (lower-cased email,
        // E.164 phone) and NULL when absent, never '': NULLs do not collide in a
        // unique index, empty strings would.
        let users = Table::create()
            .table(Users::Table)
            .col(pk_uuid(Users::Id))
            .col(text_default(Users::Aud, "authenticated"))
            .col(text_default(Users::Role, "authenticated"))
            .col(text_null(Users::Email))
            // argon2id PHC string; NULL for anonymous, OTP-only and OAuth users.
            .col(text_null(Users::EncryptedPassword))
            .col(timestamp_null(Users::EmailConfirmedAt))
            .col(timestamp_null(Users::InvitedAt))
            .col(timestamp_null(Users::ConfirmationSentAt))
            .col(timestamp_null(Users::RecoverySentAt))
            // Pending email change and its double-confirmation progress
            // (GoTrue's `email_change_confirm_status`: 0 none, 1 one side confirmed).
            .col(text_null(Users::NewEmail))
            .col(timestamp_null(Users::EmailChangeSentAt))
            .col(
                ColumnDef::new(Users::EmailChangeConfirmStatus)
                    .integer()
                    .not_null()
                    .default(0)
                    .check((
                        "users_email_change_confirm_status_check",
                        Expr::col(Users::EmailChangeConfirmStatus).between(0, 2),
                    )),
            )
            .col(text_null(Users::Phone))
            .col(timestamp_null(Users::PhoneConfirmedAt))
            .col(text_null(Users::NewPhone))
            .col(timestamp_null(Users::PhoneChangeSentAt))
            // GET /reauthenticate: its nonce is a one-time token, its resend gap is this.
            .col(timestamp_null(Users::ReauthenticationSentAt))
            .col(timestamp_null(Users::LastSignInAt))
            .col(json_default(Users::RawAppMetaData, "{}"))
            .col(json_default(Users::RawUserMetaData, "{}"))
            .col(flag(Users::IsAnonymous, false))
            .col(timestamp_null(Users::BannedUntil))
            .col(timestamp_null(Users::DeletedAt))
            .col(timestamp_now(Users::CreatedAt, db))
            .col(timestamp_now(Users::UpdatedAt, db))
            .check((
                "users_email_not_empty_check",
                Expr::col(Users::Email)
                    .is_null()
                    .or(Expr::col(Users::Email).ne("")),
            ))
            .check((
                "users_phone_not_empty_check",
                Expr::col(Users::Phone)
                    .is_null()
                    .or(Expr::col(Users::Phone).ne("")),
            ))
            .to_owned();

        // `provider_id` is the provider's subject (the user id for `email`/`phone`).
        let identities = Table::create()
            .table(Identities::Table)
            .col(pk_uuid(Identities::Id))
            .col(text(Identities::ProviderId))
            .col(uuid(Identities::UserId))
            .col(text(Identities::Provider))
            .col(json_default(Identities::IdentityData, "{}"))
            // Lower-cased copy of identity_data.email (a generated column in GoTrue).
            .col(text_null(Identities::Email))
            .col(timestamp_null(Identities::LastSignInAt))
            .col(timestamp_now(Identities::CreatedAt, db))
            .col(timestamp_now(Identities::UpdatedAt, db))
            .foreign_key(&mut fk(
                "identities_user_id_fkey",
                (Identities::Table, Identities::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // `secret` is the TOTP seed: the server must encrypt it at rest (it is
        // as good as a password). An unnamed factor stores NULL, not '', so the
        // per-user name uniqueness only applies to named factors.
        let mfa_factors = Table::create()
            .table(MfaFactors::Table)
            .col(pk_uuid(MfaFactors::Id))
            .col(uuid(MfaFactors::UserId))
            .col(text_null(MfaFactors::FriendlyName))
            .col(text_enum(
                MfaFactors::FactorType,
                "mfa_factors_factor_type_check",
                &["totp", "phone", "webauthn"],
                None,
            ))
            .col(text_enum(
                MfaFactors::Status,
                "mfa_factors_status_check",
                &["unverified", "verified"],
                Some("unverified"),
            ))
            .col(text_null(MfaFactors::Secret))
            .col(text_null(MfaFactors::Phone))
            .col(timestamp_null(MfaFactors::LastChallengedAt))
            .col(timestamp_now(MfaFactors::CreatedAt, db))
            .col(timestamp_now(MfaFactors::UpdatedAt, db))
            .foreign_key(&mut fk(
                "mfa_factors_user_id_fkey",
                (MfaFactors::Table, MfaFactors::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // `factor_id` is the factor that raised the session to aal2; deleting the
        // factor keeps the session (SET NULL), the server re-evaluates its aal.
        let sessions = Table::create()
            .table(Sessions::Table)
            .col(pk_uuid(Sessions::Id))
            .col(uuid(Sessions::UserId))
            .col(text_enum(
                Sessions::Aal,
                "sessions_aal_check",
                &["aal1", "aal2", "aal3"],
                Some("aal1"),
            ))
            .col(uuid_null(Sessions::FactorId))
            // Timebox: the session cannot be refreshed after this instant.
            .col(timestamp_null(Sessions::NotAfter))
            .col(timestamp_null(Sessions::RefreshedAt))
            .col(text_null(Sessions::UserAgent))
            .col(text_null(Sessions::Ip))
            .col(timestamp_now(Sessions::CreatedAt, db))
            .col(timestamp_now(Sessions::UpdatedAt, db))
            .foreign_key(&mut fk(
                "sessions_user_id_fkey",
                (Sessions::Table, Sessions::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "sessions_factor_id_fkey",
                (Sessions::Table, Sessions::FactorId),
                (MfaFactors::Table, MfaFactors::Id),
                SetNull,
            ))
            .to_owned();

        // One row per issued refresh token; `parent` is the token it replaced, so
        // reuse detection can find the live child of a revoked token. Store a
        // SHA-256 digest of the opaque token in `token`/`parent` rather than the
        // token itself, so a database leak yields no usable tokens.
        let refresh_tokens = Table::create()
            .table(RefreshTokens::Table)
            .col(pk_uuid(RefreshTokens::Id))
            .col(text(RefreshTokens::Token))
            .col(uuid(RefreshTokens::UserId))
            .col(uuid(RefreshTokens::SessionId))
            .col(text_null(RefreshTokens::Parent))
            .col(flag(RefreshTokens::Revoked, false))
            .col(timestamp_now(RefreshTokens::CreatedAt, db))
            .col(timestamp_now(RefreshTokens::UpdatedAt, db))
            .foreign_key(&mut fk(
                "refresh_tokens_user_id_fkey",
                (RefreshTokens::Table, RefreshTokens::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "refresh_tokens_session_id_fkey",
                (RefreshTokens::Table, RefreshTokens::SessionId),
                (Sessions::Table, Sessions::Id),
                Cascade,
            ))
            .to_owned();

        // `otp_code` (phone factors) is stored hashed, like every other code.
        let mfa_challenges = Table::create()
            .table(MfaChallenges::Table)
            .col(pk_uuid(MfaChallenges::Id))
            .col(uuid(MfaChallenges::FactorId))
            .col(text(MfaChallenges::IpAddress))
            .col(text_null(MfaChallenges::OtpCode))
            .col(timestamp_null(MfaChallenges::VerifiedAt))
            .col(timestamp_now(MfaChallenges::CreatedAt, db))
            .foreign_key(&mut fk(
                "mfa_challenges_factor_id_fkey",
                (MfaChallenges::Table, MfaChallenges::FactorId),
                (MfaFactors::Table, MfaFactors::Id),
                Cascade,
            ))
            .to_owned();

        // The access token's `amr` claim: one row per method used in a session;
        // signing in again with the same method bumps `updated_at` (the claim's
        // timestamp). Methods are an open set (password, otp, totp, oauth, ...)
        // that grows with providers, so no CHECK here.
        let mfa_amr_claims = Table::create()
            .table(MfaAmrClaims::Table)
            .col(pk_uuid(MfaAmrClaims::Id))
            .col(uuid(MfaAmrClaims::SessionId))
            .col(text(MfaAmrClaims::AuthenticationMethod))
            .col(timestamp_now(MfaAmrClaims::CreatedAt, db))
            .col(timestamp_now(MfaAmrClaims::UpdatedAt, db))
            .foreign_key(&mut fk(
                "mfa_amr_claims_session_id_fkey",
                (MfaAmrClaims::Table, MfaAmrClaims::SessionId),
                (Sessions::Table, Sessions::Id),
                Cascade,
            ))
            .to_owned();

        // Confirmation, recovery, email-change, phone-change and reauthentication
        // codes: at most one live token per kind and user; only a hash is kept.
        // `relates_to` is the address the token was sent to.
        let one_time_tokens = Table::create()
            .table(OneTimeTokens::Table)
            .col(pk_uuid(OneTimeTokens::Id))
            .col(uuid(OneTimeTokens::UserId))
            .col(text_enum(
                OneTimeTokens::TokenType,
                "one_time_tokens_token_type_check",
                &[
                    "confirmation_token",
                    "reauthentication_token",
                    "recovery_token",
                    "email_change_token_new",
                    "email_change_token_current",
                    "phone_change_token",
                ],
                None,
            ))
            .col(text(OneTimeTokens::TokenHash))
            .col(text(OneTimeTokens::RelatesTo))
            .col(timestamp_now(OneTimeTokens::CreatedAt, db))
            .col(timestamp_now(OneTimeTokens::UpdatedAt, db))
            .foreign_key(&mut fk(
                "one_time_tokens_user_id_fkey",
                (OneTimeTokens::Table, OneTimeTokens::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // PKCE: created when a mail link or OAuth redirect starts, redeemed once
        // by grant_type=pkce. `user_id` is NULL until the user is known (OAuth).
        let flow_states = Table::create()
            .table(FlowStates::Table)
            .col(pk_uuid(FlowStates::Id))
            .col(uuid_null(FlowStates::UserId))
            .col(text(FlowStates::AuthCode))
            .col(text_enum(
                FlowStates::CodeChallengeMethod,
                "flow_states_code_challenge_method_check",
                // Stored lower-cased; the client sends "s256".
                &["s256", "plain"],
                None,
            ))
            .col(text(FlowStates::CodeChallenge))
            .col(text(FlowStates::ProviderType))
            // e.g. email/signup, recovery, magiclink, email_change, oauth.
            .col(text(FlowStates::AuthenticationMethod))
            .col(timestamp_null(FlowStates::AuthCodeIssuedAt))
            .col(timestamp_now(FlowStates::CreatedAt, db))
            .col(timestamp_now(FlowStates::UpdatedAt, db))
            .foreign_key(&mut fk(
                "flow_states_user_id_fkey",
                (FlowStates::Table, FlowStates::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // Security events (sign-ins, token revocations, ...). No foreign key: the
        // log must outlive the users it mentions.
        let audit_log_entries = Table::create()
            .table(AuditLogEntries::Table)
            .col(pk_uuid(AuditLogEntries::Id))
            .col(json_default(AuditLogEntries::Payload, "{}"))
            .col(text_default(AuditLogEntries::IpAddress, ""))
            .col(timestamp_now(AuditLogEntries::CreatedAt, db))
            .to_owned();

        // JWT signing keys, shared by every server instance. The newest key with
        // `retired_at` NULL signs; retired keys stay in the JWKS until their last
        // token expires. `private_jwk` is secret key material (also HS256 `oct`
        // keys when no secret is configured): never log or serve it.
        let signing_keys = Table::create()
            .table(SigningKeys::Table)
            .col(pk_uuid(SigningKeys::Id))
            .col(text(SigningKeys::Kid))
            .col(text_enum(
                SigningKeys::Algorithm,
                "signing_keys_algorithm_check",
                &["HS256", "RS256", "ES256"],
                None,
            ))
            .col(json(SigningKeys::PrivateJwk))
            .col(timestamp_now(SigningKeys::CreatedAt, db))
            .col(timestamp_null(SigningKeys::RetiredAt))
            .to_owned();

        let indexes = vec![
            unique("users_email_key", Users::Table, [Users::Email]),
            unique("users_phone_key", Users::Table, [Users::Phone]),
            unique(
                "identities_provider_id_provider_key",
                Identities::Table,
                [Identities::ProviderId, Identities::Provider],
            ),
            index(
                "identities_user_id_idx",
                Identities::Table,
                [Identities::UserId],
            ),
            index(
                "identities_email_idx",
                Identities::Table,
                [Identities::Email],
            ),
            unique(
                "mfa_factors_user_id_friendly_name_key",
                MfaFactors::Table,
                [MfaFactors::UserId, MfaFactors::FriendlyName],
            ),
            unique(
                "mfa_factors_user_id_phone_key",
                MfaFactors::Table,
                [MfaFactors::UserId, MfaFactors::Phone],
            ),
            index("sessions_user_id_idx", Sessions::Table, [Sessions::UserId]),
            index(
                "sessions_factor_id_idx",
                Sessions::Table,
                [Sessions::FactorId],
            ),
            unique(
                "refresh_tokens_token_key",
                RefreshTokens::Table,
                [RefreshTokens::Token],
            ),
            index(
                "refresh_tokens_parent_idx",
                RefreshTokens::Table,
                [RefreshTokens::Parent],
            ),
            index(
                "refresh_tokens_session_id_revoked_idx",
                RefreshTokens::Table,
                [RefreshTokens::SessionId, RefreshTokens::Revoked],
            ),
            index(
                "refresh_tokens_user_id_idx",
                RefreshTokens::Table,
                [RefreshTokens::UserId],
            ),
            index(
                "mfa_challenges_factor_id_idx",
                MfaChallenges::Table,
                [MfaChallenges::FactorId],
            ),
            unique(
                "mfa_amr_claims_session_id_authentication_method_key",
                MfaAmrClaims::Table,
                [MfaAmrClaims::SessionId, MfaAmrClaims::AuthenticationMethod],
            ),
            unique(
                "one_time_tokens_user_id_token_type_key",
                OneTimeTokens::Table,
                [OneTimeTokens::UserId, OneTimeTokens::TokenType],
            ),
            index(
                "one_time_tokens_token_hash_idx",
                OneTimeTokens::Table,
                [OneTimeTokens::TokenHash],
            ),
            index(
                "one_time_tokens_relates_to_idx",
                OneTimeTokens::Table,
                [OneTimeTokens::RelatesTo],
            ),
            unique(
                "flow_states_auth_code_key",
                FlowStates::Table,
                [FlowStates::AuthCode],
            ),
            index(
                "flow_states_user_id_idx",
                FlowStates::Table,
                [FlowStates::UserId],
            ),
            index(
                "flow_states_created_at_idx",
                FlowStates::Table,
                [FlowStates::CreatedAt],
            ),
            index(
                "audit_log_entries_created_at_idx",
                AuditLogEntries::Table,
                [AuditLogEntries::CreatedAt],
            ),
            unique(
                "signing_keys_kid_key",
                SigningKeys::Table,
                [SigningKeys::Kid],
            ),
        ];

        create_all(
            manager,
            vec![
                users,
                identities,
                mfa_factors,
                sessions,
                refresh_tokens,
                mfa_challenges,
                mfa_amr_claims,
                one_time_tokens,
                flow_states,
                audit_log_entries,
                signing_keys,
            ],
            indexes,
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                SigningKeys::Table.into_iden(),
                AuditLogEntries::Table.into_iden(),
                FlowStates::Table.into_iden(),
                OneTimeTokens::Table.into_iden(),
                MfaAmrClaims::Table.into_iden(),
                MfaChallenges::Table.into_iden(),
                RefreshTokens::Table.into_iden(),
                Sessions::Table.into_iden(),
                MfaFactors::Table.into_iden(),
                Identities::Table.into_iden(),
                Users::Table.into_iden(),
            ],
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        // All or nothing on SQLite too (its DDL is transactional).
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
    Aud,
    Role,
    Email,
    EncryptedPassword,
    EmailConfirmedAt,
    InvitedAt,
    ConfirmationSentAt,
    RecoverySentAt,
    NewEmail,
    EmailChangeSentAt,
    EmailChangeConfirmStatus,
    Phone,
    PhoneConfirmedAt,
    NewPhone,
    PhoneChangeSentAt,
    ReauthenticationSentAt,
    LastSignInAt,
    RawAppMetaData,
    RawUserMetaData,
    IsAnonymous,
    BannedUntil,
    DeletedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Identities {
    Table,
    Id,
    ProviderId,
    UserId,
    Provider,
    IdentityData,
    Email,
    LastSignInAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MfaFactors {
    Table,
    Id,
    UserId,
    FriendlyName,
    FactorType,
    Status,
    Secret,
    Phone,
    LastChallengedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Sessions {
    Table,
    Id,
    UserId,
    Aal,
    FactorId,
    NotAfter,
    RefreshedAt,
    UserAgent,
    Ip,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum RefreshTokens {
    Table,
    Id,
    Token,
    UserId,
    SessionId,
    Parent,
    Revoked,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MfaChallenges {
    Table,
    Id,
    FactorId,
    IpAddress,
    OtpCode,
    VerifiedAt,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MfaAmrClaims {
    Table,
    Id,
    SessionId,
    AuthenticationMethod,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum OneTimeTokens {
    Table,
    Id,
    UserId,
    TokenType,
    TokenHash,
    RelatesTo,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum FlowStates {
    Table,
    Id,
    UserId,
    AuthCode,
    CodeChallengeMethod,
    CodeChallenge,
    ProviderType,
    AuthenticationMethod,
    AuthCodeIssuedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum AuditLogEntries {
    Table,
    Id,
    Payload,
    IpAddress,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum SigningKeys {
    Table,
    Id,
    Kid,
    Algorithm,
    PrivateJwk,
    CreatedAt,
    RetiredAt,
}
