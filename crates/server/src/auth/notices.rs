//! Security notices (issue 45, section 2), as GoTrue's security notification
//! mails: when the password, the email address, the phone, an MFA factor, a
//! passkey or a linked identity changes, or the account is deleted, the
//! account's address is told what changed, when, from which kind of device
//! and which (coarse) address, and what to do if it was not the owner.
//!
//! - Each mail (but the deletion's) carries a "this wasn't me" link to the
//!   web app's `/account/secure` page, which posts its token to
//!   `POST /api/v1/account/secure` ([`secure_account`]): that signs out every
//!   session and mails a password reset link. A link works once
//!   (`security_links.used_at`, set by one conditional UPDATE) and for
//!   [`LINK_TTL_DAYS`] days; only its hash is stored.
//! - A burst of changes gives one mail per kind of change and recipient per
//!   [`BURST_GAP_SECS`] (a gap claimed in `rate_limit_buckets`, so shared by
//!   every instance), not one per change: the first mail already warns.
//! - Mails go through the durable outbox and count against the deployment's
//!   hourly cap (`emails_per_hour`). The per-client limits of the auth mails
//!   do not apply: the client may be the intruder the owner must hear about.
//! - A notice never fails the change it reports (that happened already);
//!   a failure to queue one is logged.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use data_encoding::{BASE64URL_NOPAD, HEXLOWER};
use rand::RngCore;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::otp::{self, MailKind};
use super::sessions::{self, Scope};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{ClientInfo, Json};
use crate::http::rate_limit;
use crate::mail::Mail;

/// The shortest time between two notices of one kind to one address.
pub const BURST_GAP_SECS: i64 = 60;
/// How long a "this wasn't me" link works.
pub const LINK_TTL_DAYS: i64 = 7;

/// The `security_links` table (created by `m20261207_7700_security_links`).
pub mod link {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "security_links")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Uuid,
        /// SHA-256 of the link's token, hex.
        pub token_hash: String,
        pub used_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Password,
    Email,
    Phone,
    FactorAdded,
    FactorRemoved,
    PasskeyAdded,
    PasskeyRemoved,
    IdentityLinked,
    IdentityUnlinked,
    AccountDeleted,
}

impl Change {
    /// The outbox's `kind` of the mail, and the burst gap's key.
    pub fn kind(self) -> &'static str {
        match self {
            Self::Password => "security_password_changed",
            Self::Email => "security_email_changed",
            Self::Phone => "security_phone_changed",
            Self::FactorAdded => "security_mfa_factor_added",
            Self::FactorRemoved => "security_mfa_factor_removed",
            Self::PasskeyAdded => "security_passkey_added",
            Self::PasskeyRemoved => "security_passkey_removed",
            Self::IdentityLinked => "security_identity_linked",
            Self::IdentityUnlinked => "security_identity_unlinked",
            Self::AccountDeleted => "security_account_deleted",
        }
    }

    pub fn subject(self) -> &'static str {
        match self {
            Self::Password => "Your PrettyScore password was changed",
            Self::Email => "Your PrettyScore email address was changed",
            Self::Phone => "Your PrettyScore phone number was changed",
            Self::FactorAdded => "A sign-in step was added to your PrettyScore account",
            Self::FactorRemoved => "A sign-in step was removed from your PrettyScore account",
            Self::PasskeyAdded => "A passkey was added to your PrettyScore account",
            Self::PasskeyRemoved => "A passkey was removed from your PrettyScore account",
            Self::IdentityLinked => "A sign-in provider was linked to your PrettyScore account",
            Self::IdentityUnlinked => {
                "A sign-in provider was unlinked from your PrettyScore account"
            }
            Self::AccountDeleted => "Your PrettyScore account was deleted",
        }
    }

    fn sentence(self) -> &'static str {
        match self {
            Self::Password => "The password of your PrettyScore account was changed.",
            Self::Email => "The email address of your PrettyScore account was changed",
            Self::Phone => "The phone number of your PrettyScore account was changed",
            Self::FactorAdded => {
                "A second sign-in step (an authenticator app or security key) was added to your PrettyScore account"
            }
            Self::FactorRemoved => {
                "A second sign-in step (an authenticator app or security key) was removed from your PrettyScore account"
            }
            Self::PasskeyAdded => "A passkey was added to your PrettyScore account",
            Self::PasskeyRemoved => "A passkey was removed from your PrettyScore account",
            Self::IdentityLinked => "A sign-in provider was linked to your PrettyScore account",
            Self::IdentityUnlinked => {
                "A sign-in provider was unlinked from your PrettyScore account"
            }
            Self::AccountDeleted => "Your PrettyScore account and everything in it were deleted.",
        }
    }
}

/// Tells the owner of `user` that `change` happened, by `client`. `detail`
/// names what changed ("Google", "Passkey 2", the new address), if anything.
pub async fn notify(
    state: &AppState,
    user: &users::Model,
    change: Change,
    detail: Option<&str>,
    client: &ClientInfo,
) {
    let Some(to) = user.email.as_deref().filter(|email| !email.is_empty()) else {
        return;
    };
    let with_link = change != Change::AccountDeleted;
    notify_address(state, user.id, to, change, detail, client, with_link).await;
}

/// The email address changed from `old` to the address `user` has now:
/// both addresses are told.
pub async fn notify_email_change(
    state: &AppState,
    user: &users::Model,
    old: &str,
    client: &ClientInfo,
) {
    let new = user.email.clone().unwrap_or_default();
    let detail = format!("from {old} to {new}");
    for to in [old, new.as_str()] {
        if !to.is_empty() {
            notify_address(
                state,
                user.id,
                to,
                Change::Email,
                Some(&detail),
                client,
                true,
            )
            .await;
        }
    }
}

async fn notify_address(
    state: &AppState,
    user_id: Uuid,
    to: &str,
    change: Change,
    detail: Option<&str>,
    client: &ClientInfo,
    with_link: bool,
) {
    match send(state, user_id, to, change, detail, client, with_link).await {
        Ok(true) => {}
        Ok(false) => tracing::info!(
            user = %user_id,
            kind = change.kind(),
            "security notice folded into the one sent less than a minute ago"
        ),
        Err(err) => tracing::warn!(
            user = %user_id,
            kind = change.kind(),
            error = %err,
            "could not queue a security notice"
        ),
    }
}

/// Queues the notice unless one of its kind went to `to` within the burst
/// gap; returns whether it was queued.
async fn send(
    state: &AppState,
    user_id: Uuid,
    to: &str,
    change: Change,
    detail: Option<&str>,
    client: &ClientInfo,
    with_link: bool,
) -> anyhow::Result<bool> {
    let recipient = HEXLOWER.encode(&Sha256::digest(to.trim().to_lowercase().as_bytes()));
    let gap_key = format!("security-notice:{user_id}:{}:{recipient}", change.kind());
    if crate::rate_limit::claim_gap(&state.db, &gap_key, BURST_GAP_SECS)
        .await?
        .is_some()
    {
        return Ok(false);
    }
    let count = crate::rate_limit::count_hit(&state.db, "email:all", 3600).await?;
    if count > i64::from(state.config.auth.rate_limits.emails_per_hour) {
        anyhow::bail!("the deployment's hourly mail cap is reached");
    }
    let link = if with_link {
        Some(issue_link(state, user_id).await?)
    } else {
        None
    };
    let text = body_text(change, detail, Utc::now(), client, link.as_deref());
    state
        .mailer
        .send(Mail {
            to: to.to_owned(),
            subject: change.subject().to_owned(),
            body_text: text,
            body_html: None,
            kind: change.kind(),
            link,
        })
        .await?;
    Ok(true)
}

/// The mail's text: what, when, from where, and what to do.
pub fn body_text(
    change: Change,
    detail: Option<&str>,
    at: DateTime<Utc>,
    client: &ClientInfo,
    link: Option<&str>,
) -> String {
    let what = match (change.sentence().ends_with('.'), detail) {
        (true, _) => change.sentence().to_owned(),
        (false, Some(detail)) => format!("{} ({detail}).", change.sentence()),
        (false, None) => format!("{}.", change.sentence()),
    };
    let mut body = format!(
        "{what}\n\nWhen: {}\nFrom: {}, from {}\n\n",
        at.format("%-d %B %Y at %H:%M UTC"),
        client.device(),
        client.coarse_address(),
    );
    match link {
        Some(link) => body.push_str(&format!(
            "If this was you, there is nothing to do.\n\n\
             If it wasn't you, someone else may be in your account. Follow this link to sign out \
             every session at once and get a link to set a new password:\n{link}\n\n\
             The link works once, for {LINK_TTL_DAYS} days.\n"
        )),
        None => body.push_str(
            "If this was you, there is nothing to do.\n\n\
             If it wasn't you, someone else had your password: answer this mail and tell us, and \
             change that password wherever else you use it.\n",
        ),
    }
    body
}

fn token_hash(token: &str) -> String {
    HEXLOWER.encode(&Sha256::digest(token.as_bytes()))
}

/// A new single-use "this wasn't me" link for `user_id`.
async fn issue_link(state: &AppState, user_id: Uuid) -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = BASE64URL_NOPAD.encode(&bytes);
    link::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user_id),
        token_hash: Set(token_hash(&token)),
        used_at: Set(None),
        created_at: Set(Utc::now()),
    }
    .insert(&state.db)
    .await?;
    Ok(format!(
        "{}/account/secure?token={token}",
        super::reply::site_url(state)
    ))
}

/// The body of `POST /api/v1/account/secure`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SecureAccountBody {
    /// The token of a security notice's link.
    pub token: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SecureAccountAnswer {
    /// What happened, in the user's words.
    pub message: String,
}

fn link_invalid() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        ErrorCode::SecurityLinkInvalid,
        "This link has expired or was used already. Sign in and change your password, or ask for a password reset on the sign-in page.",
    )
}

/// "This wasn't me": signs out every session of the account a security
/// notice's link belongs to and mails a password reset link to its address.
/// The token is the permission (no session is needed, since the owner may
/// have none left); each link works once and for 7 days.
#[utoipa::path(
    post,
    path = "/account/secure",
    tag = "account",
    request_body = SecureAccountBody,
    responses(
        (status = 200, description = "Every session is signed out and a reset link is on its way", body = SecureAccountAnswer),
        (status = 400, description = "`security_link_invalid`: unknown, used or expired link", body = ErrorBody),
        (status = 429, description = "Too many tries from this address", body = ErrorBody),
    )
)]
pub async fn secure_account(
    State(state): State<AppState>,
    client: ClientInfo,
    Json(body): Json<SecureAccountBody>,
) -> Result<Json<SecureAccountAnswer>, ApiError> {
    rate_limit::enforce(
        &state.db,
        &format!("secure-account:{}", client.rate_key()),
        300,
        30,
        "Too many tries. Please wait a few minutes and try again.",
    )
    .await?;
    let token = body.token.trim();
    if token.is_empty() || token.len() > 200 {
        return Err(link_invalid());
    }
    let hash = token_hash(token);
    let now = Utc::now();
    let row = link::Entity::find()
        .filter(link::Column::TokenHash.eq(&hash))
        .one(&state.db)
        .await?
        .ok_or_else(link_invalid)?;
    // One conditional UPDATE: of parallel uses of one link, one wins.
    let used = link::Entity::update_many()
        .col_expr(link::Column::UsedAt, Expr::value(now))
        .filter(link::Column::Id.eq(row.id))
        .filter(link::Column::UsedAt.is_null())
        .filter(link::Column::CreatedAt.gt(now - chrono::Duration::days(LINK_TTL_DAYS)))
        .exec(&state.db)
        .await?;
    if used.rows_affected != 1 {
        return Err(link_invalid());
    }
    let user = super::users::find(&state.db, row.user_id)
        .await
        .map_err(|err| ApiError::internal(anyhow::anyhow!("{err}")))?
        .ok_or_else(link_invalid)?;
    sessions::sign_out(&state.db, user.id, None, Scope::Global)
        .await
        .map_err(|err| ApiError::internal(anyhow::anyhow!("{err}")))?;
    crate::db::audit::record(
        &state.db,
        "security_link_used",
        Some(user.id),
        user.email.as_deref(),
        &client.ip,
        serde_json::json!({}),
    )
    .await;
    let Some(email) = user.email.clone().filter(|email| !email.is_empty()) else {
        return Ok(Json(SecureAccountAnswer {
            message: "Every session of your account is signed out.".into(),
        }));
    };
    let target = format!("{}/auth/reset", super::reply::site_url(&state));
    otp::mail_code_and_link(
        &state,
        user.id,
        otp::RECOVERY,
        &email,
        MailKind::Recovery,
        &target,
        false,
    )
    .await
    .map_err(|err| ApiError::internal(anyhow::anyhow!("{err}")))?;
    Ok(Json(SecureAccountAnswer {
        message: format!(
            "Every session of your account is signed out. We sent a link to set a new password to {}.",
            masked(&email)
        ),
    }))
}

/// `ada@example.com` as `a**@example.com`: enough for its owner to know it.
fn masked(email: &str) -> String {
    match email.split_once('@') {
        Some((name, domain)) => {
            let first: String = name.chars().take(1).collect();
            format!(
                "{first}{}@{domain}",
                "*".repeat(name.chars().count().saturating_sub(1).min(6))
            )
        }
        None => email.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client() -> ClientInfo {
        ClientInfo {
            ip: "203.0.113.7".into(),
            user_agent: Some(
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36".into(),
            ),
        }
    }

    #[test]
    fn a_notice_says_what_when_where_and_what_to_do() {
        let at = DateTime::parse_from_rfc3339("2026-12-07T18:40:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let body = body_text(
            Change::Email,
            Some("from a@example.com to b@example.com"),
            at,
            &client(),
            Some("https://prettyscore.app/account/secure?token=abc"),
        );
        assert!(body.starts_with(
            "The email address of your PrettyScore account was changed (from a@example.com to b@example.com)."
        ), "{body}");
        assert!(
            body.contains("When: 7 December 2026 at 18:40 UTC"),
            "{body}"
        );
        assert!(
            body.contains("From: Chrome on Android, from 203.0.113.x"),
            "{body}"
        );
        assert!(
            body.contains("https://prettyscore.app/account/secure?token=abc"),
            "{body}"
        );
        assert!(!body.contains("203.0.113.7"), "{body}");
    }

    #[test]
    fn a_deletion_notice_has_no_link() {
        let body = body_text(Change::AccountDeleted, None, Utc::now(), &client(), None);
        assert!(body.contains("were deleted."), "{body}");
        assert!(!body.contains("http"), "{body}");
    }

    #[test]
    fn addresses_are_masked() {
        assert_eq!(masked("ada@example.com"), "a**@example.com");
        assert_eq!(masked("x@example.com"), "x@example.com");
    }
}
