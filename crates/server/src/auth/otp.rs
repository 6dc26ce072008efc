//! One-time codes and the mails that carry them: confirmation, magic link,
//! recovery, invite, email change and reauthentication. A mail carries both a
//! six-digit code (for `verifyOtp`) and a link to `GET /verify`; only a hash
//! of the two is stored. A code lives `auth.otp_expiry_secs` (1 hour, GoTrue's
//! `MAILER_OTP_EXP` default) and dies after [`MAX_FAILED_ATTEMPTS`] wrong
//! codes tried for its address.

use chrono::Utc;
use data_encoding::HEXLOWER;
use rand::Rng;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use super::rate_limit;
use crate::db::entities::one_time_tokens;
use crate::http::AppState;
use crate::http::extract::ClientInfo;
use crate::mail::Mail;

/// Wrong codes tried for an address before its live codes die.
pub const MAX_FAILED_ATTEMPTS: i32 = 5;

pub const CONFIRMATION: &str = "confirmation_token";
pub const RECOVERY: &str = "recovery_token";
pub const EMAIL_CHANGE_NEW: &str = "email_change_token_new";
pub const EMAIL_CHANGE_CURRENT: &str = "email_change_token_current";
pub const REAUTHENTICATION: &str = "reauthentication_token";
/// A code sent by text to confirm a phone (sign-up, OTP sign-in): a
/// confirmation token whose `relates_to` is the phone, as in GoTrue.
pub const PHONE_CONFIRMATION: &str = CONFIRMATION;

/// The stored hash of a code sent to `relates_to`; also the link's token.
pub fn token_hash(relates_to: &str, otp: &str) -> String {
    HEXLOWER.encode(&Sha256::digest(
        format!("{}{otp}", relates_to.to_lowercase()).as_bytes(),
    ))
}

/// Issues a new code of `token_type` for the user (replacing a live one).
/// Returns the code and its hash.
pub async fn issue(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    token_type: &str,
    relates_to: &str,
) -> AuthResult<(String, String)> {
    let otp = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000));
    let hash = token_hash(relates_to, &otp);
    one_time_tokens::Entity::delete_many()
        .filter(one_time_tokens::Column::UserId.eq(user_id))
        .filter(one_time_tokens::Column::TokenType.eq(token_type))
        .exec(db)
        .await?;
    let now = Utc::now();
    one_time_tokens::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user_id),
        token_type: Set(token_type.to_owned()),
        token_hash: Set(hash.clone()),
        relates_to: Set(relates_to.to_lowercase()),
        created_at: Set(now),
        updated_at: Set(now),
        failed_attempts: Set(0),
    }
    .insert(db)
    .await?;
    Ok((otp, hash))
}

/// Finds a live token with this hash among `types` and consumes it; a token
/// older than `ttl_secs` is consumed but refused.
pub async fn take(
    db: &impl ConnectionTrait,
    hash: &str,
    types: &[&str],
    ttl_secs: u64,
) -> AuthResult<one_time_tokens::Model> {
    let token = one_time_tokens::Entity::find()
        .filter(one_time_tokens::Column::TokenHash.eq(hash))
        .filter(one_time_tokens::Column::TokenType.is_in(types.iter().copied()))
        .one(db)
        .await?
        .ok_or_else(AuthError::otp_expired)?;
    let deleted = one_time_tokens::Entity::delete_by_id(token.id)
        .exec(db)
        .await?;
    if deleted.rows_affected == 0 {
        // Another request consumed it first.
        return Err(AuthError::otp_expired());
    }
    let ttl = chrono::Duration::seconds(i64::try_from(ttl_secs).unwrap_or(i64::MAX / 1000));
    if token.created_at + ttl < Utc::now() {
        return Err(AuthError::otp_expired());
    }
    Ok(token)
}

/// Consumes the live code `code` of `types` sent to `relates_to`. A wrong
/// code counts against every live code of those types sent to that address,
/// and after [`MAX_FAILED_ATTEMPTS`] wrong ones they are gone: guessing a
/// six-digit code takes a million tries, not five.
pub async fn take_code(
    db: &impl ConnectionTrait,
    ttl_secs: u64,
    relates_to: &str,
    code: &str,
    types: &[&str],
) -> AuthResult<one_time_tokens::Model> {
    let relates_to = relates_to.trim().to_lowercase();
    let result = take(db, &token_hash(&relates_to, code.trim()), types, ttl_secs).await;
    if matches!(&result, Err(err) if err.code == "otp_expired") {
        record_wrong_code(db, &relates_to, types).await?;
    }
    result
}

/// Counts one wrong code against the live codes of `types` sent to
/// `relates_to`, and deletes those that reached the limit.
async fn record_wrong_code(
    db: &impl ConnectionTrait,
    relates_to: &str,
    types: &[&str],
) -> AuthResult<()> {
    use sea_orm::sea_query::{Expr, ExprTrait};
    let of_address = || {
        sea_orm::Condition::all()
            .add(one_time_tokens::Column::RelatesTo.eq(relates_to))
            .add(one_time_tokens::Column::TokenType.is_in(types.iter().copied()))
    };
    one_time_tokens::Entity::update_many()
        .col_expr(
            one_time_tokens::Column::FailedAttempts,
            Expr::col(one_time_tokens::Column::FailedAttempts).add(1),
        )
        .filter(of_address())
        .exec(db)
        .await?;
    one_time_tokens::Entity::delete_many()
        .filter(of_address())
        .filter(one_time_tokens::Column::FailedAttempts.gte(MAX_FAILED_ATTEMPTS))
        .exec(db)
        .await?;
    Ok(())
}

/// `redirect_to` if it is on the site or in the allow list, else the site.
pub fn redirect_target(state: &AppState, redirect_to: Option<&str>) -> String {
    let site = &super::reply::site_url(state);
    let Some(wanted) = redirect_to.map(str::trim).filter(|r| !r.is_empty()) else {
        return site.clone();
    };
    let same_origin = |base: &str| {
        wanted == base
            || wanted
                .strip_prefix(base)
                .is_some_and(|rest| rest.starts_with(['/', '?', '#']))
    };
    let allowed = same_origin(site)
        || same_origin(state.base_url.trim_end_matches('/'))
        || state.config.auth.redirect_allow_list.iter().any(|pattern| {
            match pattern.strip_suffix('*').map(|p| p.trim_end_matches('*')) {
                Some(prefix) => wanted.starts_with(prefix),
                None => wanted == pattern,
            }
        });
    if allowed {
        wanted.to_owned()
    } else {
        site.clone()
    }
}

pub fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// What a mail is for; decides its subject, text and link type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    Confirmation,
    Invite,
    MagicLink,
    Recovery,
    EmailChange,
    Reauthentication,
}

impl MailKind {
    pub fn verify_type(self) -> &'static str {
        match self {
            Self::Confirmation => "signup",
            Self::Invite => "invite",
            Self::MagicLink => "magiclink",
            Self::Recovery => "recovery",
            Self::EmailChange => "email_change",
            Self::Reauthentication => "reauthentication",
        }
    }

    fn template(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Self::Confirmation => (
                "confirmation",
                "Confirm your PrettyScore account",
                "Follow this link to confirm your email address",
            ),
            Self::Invite => (
                "invite",
                "You have been invited to PrettyScore",
                "Follow this link to accept the invite",
            ),
            Self::MagicLink => (
                "magiclink",
                "Your PrettyScore sign-in link",
                "Follow this link to sign in",
            ),
            Self::Recovery => (
                "recovery",
                "Reset your PrettyScore password",
                "Follow this link to reset your password",
            ),
            Self::EmailChange => (
                "email_change",
                "Confirm your new email address",
                "Follow this link to confirm the change of your email address",
            ),
            Self::Reauthentication => (
                "reauthentication",
                "Confirm it's you",
                "Enter this code to confirm the change",
            ),
        }
    }
}

/// The link a mail carries (also what `generate_link` returns).
pub fn action_link(
    state: &AppState,
    hash: &str,
    kind: MailKind,
    redirect_to: &str,
    pkce: bool,
) -> String {
    let token = if pkce {
        format!("pkce_{hash}")
    } else {
        hash.to_owned()
    };
    format!(
        "{}/verify?token={token}&type={}&redirect_to={}",
        super::reply::api_url(state),
        kind.verify_type(),
        encode(redirect_to)
    )
}

fn over_email_limit() -> AuthError {
    AuthError::too_many("over_email_send_rate_limit", "Email rate limit exceeded")
}

/// The hourly mail limits of one client: it gets `emails_per_address_per_hour`
/// mails, and at most `emails_per_recipient_per_hour` of them to one
/// recipient. The recipient's limit is counted per recipient and client
/// address, so nobody can use up the mails another client (the recipient
/// themself, say) asks for. Handlers call it before they look the recipient
/// up (recover, otp, resend), so an unknown address is counted as a known one
/// and a 429 does not tell them apart. The deployment's cap is
/// [`send_mail`]'s.
pub async fn limit_mail(state: &AppState, client: &ClientInfo, to: &str) -> AuthResult<()> {
    let limits = state.config.auth.rate_limits;
    let address = client.rate_key();
    // The client's own budget first: a request it refuses counts nowhere else.
    rate_limit::hit(
        &state.db,
        &format!("email-from:{address}"),
        3600,
        limits.emails_per_address_per_hour,
        over_email_limit,
    )
    .await?;
    let recipient = HEXLOWER.encode(&Sha256::digest(to.trim().to_lowercase().as_bytes()));
    rate_limit::hit(
        &state.db,
        &format!("email-to:{recipient}:{address}"),
        3600,
        limits.emails_per_recipient_per_hour,
        over_email_limit,
    )
    .await
}

/// Issues a one-time code of `token_type` for the address `to` and mails it
/// with its link to `target`: the one way a sign-up confirmation, an invite,
/// a recovery or magic link and an email change reach a user.
pub async fn mail_code_and_link(
    state: &AppState,
    user_id: Uuid,
    token_type: &str,
    to: &str,
    kind: MailKind,
    target: &str,
    pkce: bool,
) -> AuthResult<()> {
    let (code, hash) = issue(&state.db, user_id, token_type, to).await?;
    let link = action_link(state, &hash, kind, target, pkce);
    send_mail(state, to, kind, &code, Some(link)).await
}

/// Counts the mail against the deployment's hourly cap (`emails_per_hour`, a
/// safety net far above normal traffic; each client's own limits are
/// [`limit_mail`]'s) and queues it.
pub async fn send_mail(
    state: &AppState,
    to: &str,
    kind: MailKind,
    otp: &str,
    link: Option<String>,
) -> AuthResult<()> {
    rate_limit::hit(
        &state.db,
        "email:all",
        3600,
        state.config.auth.rate_limits.emails_per_hour,
        over_email_limit,
    )
    .await?;
    let (template, subject, intro) = kind.template();
    let mut body = format!("{subject}\n\n");
    if let Some(link) = &link {
        body.push_str(&format!("{intro}:\n{link}\n\nOr enter this code: {otp}\n"));
    } else {
        body.push_str(&format!("{intro}.\n\nYour code: {otp}\n"));
    }
    body.push_str("\nIf you did not ask for this, you can ignore this mail.\n");
    let html = link.as_ref().map(|link| {
        format!(
            "<h2>{subject}</h2><p><a href=\"{link}\">{intro}</a></p><p>Or enter this code: <strong>{otp}</strong></p>"
        )
    });
    state
        .mailer
        .send(Mail {
            to: to.to_owned(),
            subject: subject.to_owned(),
            body_text: body,
            body_html: html,
            kind: template,
            link,
        })
        .await?;
    Ok(())
}

/// The gap between two mail requests (recovery, magic link) for one address,
/// kept per address whether or not an account has it, so the answer (and
/// its 429) never tells whether the address is registered. The address is
/// stored hashed.
pub async fn claim_address_gap(state: &AppState, email: &str) -> AuthResult<()> {
    let gap = state.config.auth.rate_limits.email_resend_gap_secs as i64;
    let key = format!(
        "mail-gap:{}",
        HEXLOWER.encode(&Sha256::digest(email.trim().to_lowercase().as_bytes()))
    );
    if let Some(wait) = crate::rate_limit::claim_gap(&state.db, &key, gap).await? {
        return Err(AuthError::too_many(
            "over_email_send_rate_limit",
            format!("For security purposes, you can only request this after {wait} seconds."),
        )
        .with_retry_after(wait));
    }
    Ok(())
}

/// The per-address gap between two mails of one kind (429 with GoTrue's text).
pub fn check_resend_gap(
    state: &AppState,
    last_sent: Option<chrono::DateTime<Utc>>,
) -> AuthResult<()> {
    let gap = state.config.auth.rate_limits.email_resend_gap_secs as i64;
    if let Some(last) = last_sent {
        let elapsed = (Utc::now() - last).num_seconds();
        if elapsed < gap {
            return Err(AuthError::too_many(
                "over_email_send_rate_limit",
                format!(
                    "For security purposes, you can only request this after {} seconds.",
                    gap - elapsed
                ),
            )
            .with_retry_after((gap - elapsed) as u64));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_binds_the_code_to_its_address() {
        assert_eq!(
            token_hash("Ada@Example.com", "123456"),
            token_hash("ada@example.com", "123456")
        );
        assert_ne!(
            token_hash("ada@example.com", "123456"),
            token_hash("bob@example.com", "123456")
        );
    }
}
