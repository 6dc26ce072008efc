//! Which named constraint a failed statement violated, reported the same way on
//! PostgreSQL and SQLite, so the server can turn a duplicate into a 409 with the
//! spec's message instead of a 500 (`http::error::ConstraintError` is the other
//! half: a domain's table from constraint name to code and message).
//!
//! PostgreSQL names the violated constraint itself. SQLite does for a CHECK
//! (`CHECK constraint failed: contact_requests_status_check`) but reports a unique
//! violation by its columns (`UNIQUE constraint failed: opportunity_claims.user_id`)
//! and a foreign key violation without any name. [`UNIQUE_KEYS`] maps those
//! columns back to the index name; a test keeps it equal to the real schema.

use sea_orm_migration::sea_orm::sqlx::error::ErrorKind;
use sea_orm_migration::sea_orm::{DbErr, RuntimeErr};

/// The kind of integrity rule a statement broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    Unique,
    Check,
    ForeignKey,
    NotNull,
}

/// A constraint violation. `constraint` is the name given in the migrations
/// (e.g. `opportunity_claims_user_id_key`, `contact_requests_status_check`, a
/// primary key as `<table>_pkey`); `None` where the database does not say
/// (foreign keys and NOT NULL on SQLite).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintViolation {
    pub kind: ViolationKind,
    pub constraint: Option<String>,
}

impl ConstraintViolation {
    /// True if this is a violation of the constraint called `name`.
    pub fn is(&self, name: &str) -> bool {
        self.constraint.as_deref() == Some(name)
    }
}

/// A unique index created by the migrations (primary keys excluded).
#[derive(Clone, Copy, Debug)]
pub struct UniqueKey {
    pub name: &'static str,
    pub table: &'static str,
    pub columns: &'static [&'static str],
}

const fn key(
    name: &'static str,
    table: &'static str,
    columns: &'static [&'static str],
) -> UniqueKey {
    UniqueKey {
        name,
        table,
        columns,
    }
}

/// Every unique index the migrations create. Extend it with each migration
/// that adds one (the `unique_keys_match_the_schema` test fails otherwise).
pub const UNIQUE_KEYS: &[UniqueKey] = &[
    // m20261121_000001_auth
    key("users_email_key", "users", &["email"]),
    key("users_phone_key", "users", &["phone"]),
    key(
        "identities_provider_id_provider_key",
        "identities",
        &["provider_id", "provider"],
    ),
    key(
        "mfa_factors_user_id_friendly_name_key",
        "mfa_factors",
        &["user_id", "friendly_name"],
    ),
    key(
        "mfa_factors_user_id_phone_key",
        "mfa_factors",
        &["user_id", "phone"],
    ),
    key("refresh_tokens_token_key", "refresh_tokens", &["token"]),
    key(
        "mfa_amr_claims_session_id_authentication_method_key",
        "mfa_amr_claims",
        &["session_id", "authentication_method"],
    ),
    key(
        "one_time_tokens_user_id_token_type_key",
        "one_time_tokens",
        &["user_id", "token_type"],
    ),
    key("flow_states_auth_code_key", "flow_states", &["auth_code"]),
    key("signing_keys_kid_key", "signing_keys", &["kid"]),
    // m20261121_000002_payments
    key(
        "checkout_sessions_user_id_idempotency_key_key",
        "checkout_sessions",
        &["user_id", "idempotency_key"],
    ),
    key(
        "checkout_sessions_provider_session_id_key",
        "checkout_sessions",
        &["provider_session_id"],
    ),
    key(
        "processed_webhook_events_provider_event_id_key",
        "processed_webhook_events",
        &["provider", "event_id"],
    ),
    // m20261121_000003_partners
    key(
        "partner_accounts_user_id_key",
        "partner_accounts",
        &["user_id"],
    ),
    key("partner_accounts_code_key", "partner_accounts", &["code"]),
    key(
        "partner_accounts_promo_code_key",
        "partner_accounts",
        &["promo_code"],
    ),
    // m20261126_006400_partner_ledger
    key(
        "partner_conversions_line_key",
        "partner_conversions",
        &["payment_id", "partner_id", "kind", "refund_level_cents"],
    ),
    key(
        "partner_clicks_visitor_day_key",
        "partner_clicks",
        &["partner_id", "visitor", "day"],
    ),
    // m20261126_006500_contact
    key(
        "contact_blocks_pair_key",
        "contact_blocks",
        &["contestant_id", "requester_id"],
    ),
    key(
        "message_reads_conversation_user_key",
        "message_reads",
        &["contact_request_id", "user_id"],
    ),
    key(
        "contact_requests_open_pair_key",
        "contact_requests",
        &["requester_id", "contestant_id"],
    ),
    key(
        "contact_reports_request_key",
        "contact_reports",
        &["contact_request_id"],
    ),
    // m20261208_8401_reports
    key(
        "reports_target_reporter_key",
        "reports",
        &["target_kind", "target_id", "reporter_id"],
    ),
    key(
        "moderation_appeals_decision_key",
        "moderation_appeals",
        &["decision_id"],
    ),
    // m20261121_000004_accounts
    key(
        "user_roles_user_id_role_key",
        "user_roles",
        &["user_id", "role"],
    ),
    // m20261121_000006_contact
    key("messages_id_key", "messages", &["id"]),
    // m20261121_000007_premium
    key(
        "subscriptions_provider_subscription_id_key",
        "subscriptions",
        &["provider_subscription_id"],
    ),
    key(
        "feature_trials_user_id_feature_name_key",
        "feature_trials",
        &["user_id", "feature_name"],
    ),
    key(
        "edit_quota_usage_device_id_key",
        "edit_quota_usage",
        &["device_id"],
    ),
    key(
        "opportunity_claims_user_id_key",
        "opportunity_claims",
        &["user_id"],
    ),
    // m20261121_000008_verification
    key(
        "verification_requests_user_id_key",
        "verification_requests",
        &["user_id"],
    ),
    // m20261121_000009_platform
    key(
        "media_objects_storage_key_key",
        "media_objects",
        &["storage_key"],
    ),
    // m20261121_000010_photo_shares
    key("photos_share_slug_key", "photos", &["share_slug"]),
    // m20261123_002001_billing
    key(
        "payments_provider_provider_payment_intent_id_key",
        "payments",
        &["provider", "provider_payment_intent_id"],
    ),
    key(
        "payments_provider_provider_invoice_id_key",
        "payments",
        &["provider", "provider_invoice_id"],
    ),
    key(
        "sandbox_objects_object_id_key",
        "sandbox_objects",
        &["object_id"],
    ),
    key(
        "sandbox_events_event_id_key",
        "sandbox_events",
        &["event_id"],
    ),
    // m20261208_8300_adults_terms
    key("birth_dates_user_id_key", "birth_dates", &["user_id"]),
    key(
        "terms_acceptances_user_id_version_key",
        "terms_acceptances",
        &["user_id", "version"],
    ),
    // m20261123_006001_leaderboard
    key(
        "leaderboard_reports_photo_id_reporter_id_key",
        "leaderboard_reports",
        &["photo_id", "reporter_id"],
    ),
    key(
        "contest_winners_month_place_key",
        "contest_winners",
        &["month", "place"],
    ),
    // m20261124_006300_personality
    key(
        "personality_results_payment_id_key",
        "personality_results",
        &["payment_id"],
    ),
    // m20261127_7200_one_purchase
    key(
        "checkout_sessions_open_purchase_key",
        "checkout_sessions",
        &["user_id", "purpose", "purchase_ref"],
    ),
    key(
        "billing_refunds_target_key",
        "billing_refunds",
        &["provider", "kind", "target"],
    ),
    // m20261128_7300_payouts
    key(
        "payout_accounts_user_provider_key",
        "payout_accounts",
        &["user_id", "provider"],
    ),
    key(
        "payout_accounts_provider_account_key",
        "payout_accounts",
        &["provider", "account_id"],
    ),
    key(
        "earning_lines_payment_key",
        "earning_lines",
        &["payment_id"],
    ),
    // m20261128_7400_passkeys
    key(
        "webauthn_credentials_credential_id_key",
        "webauthn_credentials",
        &["credential_id"],
    ),
    // m20261208_8251_money_mail
    key("mail_outbox_dedup_key_key", "mail_outbox", &["dedup_key"]),
];

/// The constraint `err` violated, if it is a constraint violation.
pub fn violated_constraint(err: &DbErr) -> Option<ConstraintViolation> {
    let (DbErr::Exec(RuntimeErr::SqlxError(sqlx_err))
    | DbErr::Query(RuntimeErr::SqlxError(sqlx_err))) = err
    else {
        return None;
    };
    let sea_orm_migration::sea_orm::sqlx::Error::Database(db_err) = &**sqlx_err else {
        return None;
    };
    let kind = match db_err.kind() {
        ErrorKind::UniqueViolation => ViolationKind::Unique,
        ErrorKind::CheckViolation => ViolationKind::Check,
        ErrorKind::ForeignKeyViolation => ViolationKind::ForeignKey,
        ErrorKind::NotNullViolation => ViolationKind::NotNull,
        _ => return None,
    };
    let constraint = match db_err.constraint() {
        Some(name) => Some(name.to_owned()),
        None => sqlite_constraint_name(kind, db_err.message(), db_err.code().as_deref()),
    };
    Some(ConstraintViolation { kind, constraint })
}

/// SQLite's extended result code for a primary key violation.
const SQLITE_CONSTRAINT_PRIMARYKEY: &str = "1555";

fn sqlite_constraint_name(
    kind: ViolationKind,
    message: &str,
    code: Option<&str>,
) -> Option<String> {
    match kind {
        // "CHECK constraint failed: <name>"
        ViolationKind::Check => message
            .strip_prefix("CHECK constraint failed: ")
            .map(str::to_owned),
        // "UNIQUE constraint failed: <table>.<column>, <table>.<column>"
        ViolationKind::Unique => {
            let columns = message.strip_prefix("UNIQUE constraint failed: ")?;
            let mut table = None;
            let mut names = Vec::new();
            for qualified in columns.split(", ") {
                let (t, c) = qualified.split_once('.')?;
                table.get_or_insert(t);
                names.push(c);
            }
            let table = table?;
            if code == Some(SQLITE_CONSTRAINT_PRIMARYKEY) {
                return Some(format!("{table}_pkey"));
            }
            UNIQUE_KEYS
                .iter()
                .find(|k| k.table == table && k.columns == names.as_slice())
                .map(|k| k.name.to_owned())
        }
        ViolationKind::ForeignKey | ViolationKind::NotNull => None,
    }
}
