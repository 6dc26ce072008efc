//! sea-orm models of the identity tables every layer relies on: the auth
//! tables (created by `m20261121_000001_auth`: users, sessions, signing keys…)
//! and the profile. A domain's own tables keep their models in its folder.

macro_rules! entity {
    ($module:ident, $table:literal, { $($field:ident : $ty:ty),* $(,)? }) => {
        pub mod $module {
            use sea_orm::entity::prelude::*;

            #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
            #[sea_orm(table_name = $table)]
            pub struct Model {
                #[sea_orm(primary_key, auto_increment = false)]
                pub id: Uuid,
                $(pub $field: $ty,)*
            }

            #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
            pub enum Relation {}

            impl ActiveModelBehavior for ActiveModel {}
        }
    };
}

entity!(users, "users", {
    aud: String,
    role: String,
    email: Option<String>,
    encrypted_password: Option<String>,
    email_confirmed_at: Option<DateTimeUtc>,
    invited_at: Option<DateTimeUtc>,
    confirmation_sent_at: Option<DateTimeUtc>,
    recovery_sent_at: Option<DateTimeUtc>,
    new_email: Option<String>,
    email_change_sent_at: Option<DateTimeUtc>,
    email_change_confirm_status: i32,
    phone: Option<String>,
    phone_confirmed_at: Option<DateTimeUtc>,
    new_phone: Option<String>,
    phone_change_sent_at: Option<DateTimeUtc>,
    reauthentication_sent_at: Option<DateTimeUtc>,
    last_sign_in_at: Option<DateTimeUtc>,
    raw_app_meta_data: Json,
    raw_user_meta_data: Json,
    is_anonymous: bool,
    banned_until: Option<DateTimeUtc>,
    deleted_at: Option<DateTimeUtc>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(identities, "identities", {
    provider_id: String,
    user_id: Uuid,
    provider: String,
    identity_data: Json,
    email: Option<String>,
    last_sign_in_at: Option<DateTimeUtc>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(mfa_factors, "mfa_factors", {
    user_id: Uuid,
    friendly_name: Option<String>,
    factor_type: String,
    status: String,
    secret: Option<String>,
    phone: Option<String>,
    last_challenged_at: Option<DateTimeUtc>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
    web_authn_credential: Option<String>,
});

entity!(sessions, "sessions", {
    user_id: Uuid,
    aal: String,
    factor_id: Option<Uuid>,
    not_after: Option<DateTimeUtc>,
    refreshed_at: Option<DateTimeUtc>,
    user_agent: Option<String>,
    ip: Option<String>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(refresh_tokens, "refresh_tokens", {
    token: String,
    user_id: Uuid,
    session_id: Uuid,
    parent: Option<String>,
    revoked: bool,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(mfa_challenges, "mfa_challenges", {
    factor_id: Uuid,
    ip_address: String,
    otp_code: Option<String>,
    verified_at: Option<DateTimeUtc>,
    created_at: DateTimeUtc,
    web_authn_session_data: Option<String>,
});

entity!(webauthn_credentials, "webauthn_credentials", {
    user_id: Uuid,
    credential_id: String,
    credential: String,
    sign_count: i64,
    friendly_name: Option<String>,
    last_used_at: Option<DateTimeUtc>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(webauthn_challenges, "webauthn_challenges", {
    user_id: Option<Uuid>,
    kind: String,
    state: String,
    created_at: DateTimeUtc,
});

entity!(mfa_amr_claims, "mfa_amr_claims", {
    session_id: Uuid,
    authentication_method: String,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(one_time_tokens, "one_time_tokens", {
    user_id: Uuid,
    token_type: String,
    token_hash: String,
    relates_to: String,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
    failed_attempts: i32,
});

entity!(flow_states, "flow_states", {
    user_id: Option<Uuid>,
    auth_code: String,
    code_challenge_method: String,
    code_challenge: String,
    provider_type: String,
    authentication_method: String,
    auth_code_issued_at: Option<DateTimeUtc>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

entity!(signing_keys, "signing_keys", {
    kid: String,
    algorithm: String,
    private_jwk: Json,
    created_at: DateTimeUtc,
    retired_at: Option<DateTimeUtc>,
});

entity!(audit_log_entries, "audit_log_entries", {
    payload: Json,
    ip_address: String,
    created_at: DateTimeUtc,
});

entity!(profiles, "profiles", {
    email: Option<String>,
    is_verified: bool,
    referred_by_partner: Option<Uuid>,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

// Roles beyond a plain user (created by `m20261121_000004_accounts`): `admin`.
entity!(user_roles, "user_roles", {
    user_id: Uuid,
    role: String,
    created_at: DateTimeUtc,
});

// The date of birth a user declared, out of the user's own reach (created by
// `m20261208_8300_adults_terms`): `source` `self` or `admin` (a correction).
entity!(birth_dates, "birth_dates", {
    user_id: Uuid,
    date_of_birth: Date,
    source: String,
    created_at: DateTimeUtc,
    updated_at: DateTimeUtc,
});

// Every version of the terms a user accepted, and when.
entity!(terms_acceptances, "terms_acceptances", {
    user_id: Uuid,
    version: String,
    accepted_at: DateTimeUtc,
});
