//! Codes and links sent by mail: recovery, magic links and one-time codes,
//! their verification (GET from the mail, POST from the app), and resending.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::Utc;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set, TransactionTrait,
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::signup::{SMS_OTP_TTL_SECS, phone_otp, send_confirmation, send_sms_code, signed_up};
use super::steps::{EmailBody, limit_mail_requests, present, with_fragment, with_query};
use super::user::start_email_change;
use crate::auth::community;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::extract::{AuthJson, AuthQuery};
use crate::auth::notices;
use crate::auth::otp::{self, MailKind};
use crate::auth::reply::{RedirectQuery, ok};
use crate::auth::sessions::{self};
use crate::auth::users::{self as user_rules, NewUser};
use crate::auth::{pkce, rate_limit};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::cookies::Referral;
use crate::http::extract::ClientInfo;

pub async fn recover(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(body): AuthJson<EmailBody>,
) -> AuthResult<Response> {
    limit_mail_requests(&state, &client).await?;
    let challenge = pkce::parse(
        body.code_challenge.as_deref(),
        body.code_challenge_method.as_deref(),
    )?;
    let Some(email) = present(&body.email) else {
        return Err(AuthError::validation("Password recovery requires an email"));
    };
    let email = user_rules::normalise_email(email)?;
    // The same gap and limits, and the same 429, for unknown addresses as known ones.
    otp::claim_address_gap(&state, &email).await?;
    otp::limit_mail(&state, &client, &email).await?;
    if let Some(user) = user_rules::find_by_email(&state.db, &email).await?
        && !user_rules::is_banned(&user)
    {
        crate::db::audit::record(
            &state.db,
            "user_recovery_requested",
            Some(user.id),
            user.email.as_deref(),
            &client.ip,
            json!({}),
        )
        .await;
        send_link(
            &state,
            &user,
            MailKind::Recovery,
            query.redirect_to.as_deref(),
            challenge.as_ref(),
        )
        .await?;
    }
    // The same answer whether or not the address is known.
    Ok(ok(json!({})))
}

/// Sends a recovery or magic link (both use the recovery code).
pub(super) async fn send_link(
    state: &AppState,
    user: &users::Model,
    kind: MailKind,
    redirect_to: Option<&str>,
    challenge: Option<&pkce::Challenge>,
) -> AuthResult<()> {
    let email = user.email.clone().unwrap_or_default();
    if let Some(challenge) = challenge {
        pkce::create(&state.db, user.id, kind.verify_type(), challenge).await?;
    }
    let target = otp::redirect_target(state, redirect_to);
    otp::mail_code_and_link(
        state,
        user.id,
        otp::RECOVERY,
        &email,
        kind,
        &target,
        challenge.is_some(),
    )
    .await?;
    let mut active: users::ActiveModel = user.clone().into();
    active.recovery_sent_at = Set(Some(Utc::now()));
    active.update(&state.db).await?;
    Ok(())
}

pub async fn otp(
    State(state): State<AppState>,
    client: ClientInfo,
    referral: Referral,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(mut body): AuthJson<EmailBody>,
) -> AuthResult<Response> {
    // A minor's request leaves no trace (issue 41); the phone's own path
    // takes the date itself.
    let facts = if present(&body.phone).is_none() {
        let facts = community::take_signup_facts(&state.config.community, &mut body.data)?;
        if let Some(data) = &body.data {
            community::check_names(&state.config.community, data)?;
        }
        facts
    } else {
        community::SignupFacts::default()
    };
    limit_mail_requests(&state, &client).await?;
    let challenge = pkce::parse(
        body.code_challenge.as_deref(),
        body.code_challenge_method.as_deref(),
    )?;
    if let Some(phone) = present(&body.phone) {
        if state.sms.is_none() {
            return Err(AuthError::phone_disabled("Unsupported phone provider"));
        }
        let phone = phone.to_owned();
        return phone_otp(&state, &phone, &referral, body).await;
    }
    let Some(email) = present(&body.email) else {
        return Err(AuthError::validation(
            "An email address or phone number is required",
        ));
    };
    let email = user_rules::normalise_email(email)?;
    let redirect_to = query.redirect_to.as_deref();
    // The same gap and limits, and the same 429, for unknown addresses as known ones.
    otp::claim_address_gap(&state, &email).await?;
    otp::limit_mail(&state, &client, &email).await?;
    match user_rules::find_by_email(&state.db, &email).await? {
        Some(user) if user.email_confirmed_at.is_some() => {
            send_link(
                &state,
                &user,
                MailKind::MagicLink,
                redirect_to,
                challenge.as_ref(),
            )
            .await?;
        }
        Some(user) => {
            send_confirmation(&state, &user, redirect_to, challenge.as_ref()).await?;
        }
        None => {
            if !body.create_user.unwrap_or(true) {
                // No account and none to create: answer as if a link went
                // out, so the answer does not tell who has an account.
                return Ok(ok(json!({})));
            }
            if state.config.auth.disable_signup {
                return Err(AuthError::unprocessable(
                    "signup_disabled",
                    "Signups not allowed for this instance",
                ));
            }
            let txn = state.db.begin().await?;
            let user = user_rules::create(
                &txn,
                NewUser {
                    email: Some(email),
                    user_metadata: body.data,
                    facts,
                    ..NewUser::default()
                },
            )
            .await?;
            signed_up(&state, &txn, &user, &referral).await?;
            txn.commit().await?;
            send_confirmation(&state, &user, redirect_to, challenge.as_ref()).await?;
        }
    }
    Ok(ok(json!({})))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VerifyBody {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub token: Option<String>,
    pub token_hash: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub redirect_to: Option<String>,
}

/// What a verified code did.
pub(super) enum Verified {
    /// Sign the user in with this `amr` method.
    SignIn(Box<users::Model>, &'static str),
    /// One half of a double email change; the other link is still due.
    EmailChangeHalf,
}

pub(super) const EMAIL_CHANGE_HALF: &str =
    "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/// How a verification names its code.
pub(super) enum CodeRef {
    /// The hash in a mail link (unguessable: 256 bits).
    Hash(String),
    /// The six-digit code typed in, with the address or phone number it was
    /// sent to; wrong ones count towards the code's attempt limit.
    Code { address: String, code: String },
}

pub(super) async fn verify_code(
    state: &AppState,
    kind: &str,
    code: CodeRef,
    client: &ClientInfo,
) -> AuthResult<Verified> {
    let types: &[&str] = match kind {
        "signup" | "invite" => &[otp::CONFIRMATION],
        "recovery" => &[otp::RECOVERY],
        "magiclink" | "email" => &[otp::RECOVERY, otp::CONFIRMATION],
        "email_change" => &[otp::EMAIL_CHANGE_NEW, otp::EMAIL_CHANGE_CURRENT],
        "sms" => &[otp::PHONE_CONFIRMATION],
        "phone_change" => return Err(AuthError::otp_expired()),
        _ => {
            return Err(AuthError::validation(format!(
                "Verify requires a valid type, got {kind:?}"
            )));
        }
    };
    let ttl = state.config.auth.otp_expiry_secs;
    let token = match code {
        CodeRef::Hash(hash) => otp::take(&state.db, &hash, types, ttl).await?,
        CodeRef::Code { address, code } => {
            otp::take_code(&state.db, ttl, &address, &code, types).await?
        }
    };
    let user = user_rules::find(&state.db, token.user_id)
        .await?
        .ok_or_else(AuthError::otp_expired)?;
    if user_rules::is_banned(&user) {
        return Err(AuthError::bad_request("user_banned", "User is banned"));
    }
    // A code sent by text confirms the phone only, a mailed one the address
    // only: whoever holds one cannot confirm the other.
    let sent_to_phone = user.phone.as_deref() == Some(token.relates_to.as_str());
    if kind == "sms" {
        let expired = token.created_at + chrono::Duration::seconds(SMS_OTP_TTL_SECS) < Utc::now();
        if expired || !sent_to_phone {
            return Err(AuthError::otp_expired());
        }
        let user = user_rules::confirm_phone(&state.db, &user).await?;
        return Ok(Verified::SignIn(Box::new(user), "otp"));
    }
    if sent_to_phone {
        return Err(AuthError::otp_expired());
    }
    match token.token_type.as_str() {
        otp::EMAIL_CHANGE_NEW | otp::EMAIL_CHANGE_CURRENT => {
            let Some(new_email) = user.new_email.clone() else {
                return Err(AuthError::otp_expired());
            };
            let other = if token.token_type == otp::EMAIL_CHANGE_NEW {
                otp::EMAIL_CHANGE_CURRENT
            } else {
                otp::EMAIL_CHANGE_NEW
            };
            let other_pending = crate::db::entities::one_time_tokens::Entity::find()
                .filter(crate::db::entities::one_time_tokens::Column::UserId.eq(user.id))
                .filter(crate::db::entities::one_time_tokens::Column::TokenType.eq(other))
                .count(&state.db)
                .await?
                > 0;
            if other_pending {
                let mut active: users::ActiveModel = user.into();
                active.email_change_confirm_status = Set(1);
                active.update(&state.db).await?;
                return Ok(Verified::EmailChangeHalf);
            }
            let old_email = user.email.clone().unwrap_or_default();
            let user = user_rules::set_email(&state.db, &user, &new_email).await?;
            notices::notify_email_change(state, &user, &old_email, client).await;
            Ok(Verified::SignIn(Box::new(user), "email_change"))
        }
        otp::RECOVERY => {
            let user = user_rules::confirm_email(&state.db, &user).await?;
            let method = if kind == "recovery" {
                "recovery"
            } else {
                "magiclink"
            };
            Ok(Verified::SignIn(Box::new(user), method))
        }
        _ => {
            let user = user_rules::confirm_email(&state.db, &user).await?;
            let method = if kind == "invite" { "invite" } else { "otp" };
            Ok(Verified::SignIn(Box::new(user), method))
        }
    }
}

pub(super) async fn limit_verify(state: &AppState, client: &ClientInfo) -> AuthResult<()> {
    rate_limit::hit(
        &state.db,
        &format!("verify:{}", client.rate_key()),
        300,
        state.config.auth.rate_limits.verify_per_5min,
        AuthError::rate_limited,
    )
    .await
}

pub async fn verify_post(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthJson(body): AuthJson<VerifyBody>,
) -> AuthResult<Response> {
    limit_verify(&state, &client).await?;
    let kind = present(&body.kind)
        .ok_or_else(|| AuthError::validation("Verify requires a verification type"))?
        .to_owned();
    // GoTrue's order: the phone or email format is checked before any token
    // is looked up, so a malformed address is a validation error, never
    // `otp_expired`.
    let is_phone_kind = matches!(kind.as_str(), "sms" | "phone_change");
    let code = match (present(&body.token_hash), present(&body.token)) {
        (Some(hash), _) => CodeRef::Hash(hash.trim_start_matches("pkce_").to_owned()),
        (None, Some(token)) => {
            let address = if let Some(phone) = present(&body.phone).filter(|_| is_phone_kind) {
                user_rules::normalise_phone(phone)?
            } else if let Some(email) = present(&body.email).filter(|_| !is_phone_kind) {
                user_rules::normalise_email(email).map_err(|_| {
                    AuthError::unprocessable("validation_failed", "Invalid email format")
                })?
            } else {
                return Err(AuthError::validation(
                    "Only an email address or phone number should be provided on verify",
                ));
            };
            CodeRef::Code {
                address,
                code: token.to_owned(),
            }
        }
        (None, None) => {
            return Err(AuthError::validation(
                "Verify requires a token or a token hash",
            ));
        }
    };
    match verify_code(&state, &kind, code, &client).await? {
        Verified::SignIn(user, method) => {
            Ok(ok(sessions::sign_in(&state, &user, method, &client).await?))
        }
        Verified::EmailChangeHalf => Ok(ok(
            json!({"msg": EMAIL_CHANGE_HALF, "message": EMAIL_CHANGE_HALF, "code": 200}),
        )),
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct VerifyQuery {
    pub token: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub redirect_to: Option<String>,
}

/// `GET /verify`, the link in a mail: verifies and redirects to the app with
/// the session in the fragment, or `?code=` for PKCE, or the error.
pub async fn verify_get(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthQuery(query): AuthQuery<VerifyQuery>,
) -> Response {
    let target = otp::redirect_target(&state, query.redirect_to.as_deref());
    let kind = query.kind.clone().unwrap_or_default();
    let token = query.token.clone().unwrap_or_default();
    let is_pkce = token.starts_with("pkce_");
    let result: AuthResult<String> = async {
        limit_verify(&state, &client).await?;
        let hash = CodeRef::Hash(token.trim_start_matches("pkce_").to_owned());
        match verify_code(&state, &kind, hash, &client).await? {
            Verified::EmailChangeHalf => Ok(with_fragment(
                &target,
                &format!("message={}", otp::encode(EMAIL_CHANGE_HALF)),
            )),
            Verified::SignIn(user, method) => {
                let flow_method = match kind.as_str() {
                    "signup" => "email/signup",
                    other => other,
                };
                if is_pkce
                    && let Some(code) = pkce::issue_code(&state.db, user.id, flow_method).await? {
                        return Ok(with_query(&target, &format!("code={}", otp::encode(&code))));
                    }
                let tokens = sessions::sign_in(&state, &user, method, &client).await?;
                let field = |name: &str| match &tokens[name] {
                    Value::String(s) => otp::encode(s),
                    other => other.to_string(),
                };
                Ok(with_fragment(
                    &target,
                    &format!(
                        "access_token={}&expires_at={}&expires_in={}&refresh_token={}&token_type=bearer&type={}",
                        field("access_token"),
                        field("expires_at"),
                        field("expires_in"),
                        field("refresh_token"),
                        otp::encode(&kind)
                    ),
                ))
            }
        }
    }
    .await;
    let location = match result {
        Ok(location) => location,
        Err(err) => {
            let params = format!(
                "error={}&error_code={}&error_description={}",
                if err.status.is_server_error() {
                    "server_error"
                } else {
                    "access_denied"
                },
                err.code,
                otp::encode(if err.code == "otp_expired" {
                    "Email link is invalid or has expired"
                } else {
                    &err.message
                })
            );
            if is_pkce {
                with_fragment(&with_query(&target, &params), &params)
            } else {
                with_fragment(&target, &params)
            }
        }
    };
    Redirect::to(&location).into_response()
}

pub async fn resend(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(body): AuthJson<EmailBody>,
) -> AuthResult<Response> {
    limit_mail_requests(&state, &client).await?;
    let kind = present(&body.kind).unwrap_or_default().to_owned();
    match kind.as_str() {
        "signup" | "email_change" => {}
        "sms" | "phone_change" if state.sms.is_none() => {
            return Err(AuthError::phone_disabled("Phone logins are disabled"));
        }
        "sms" => {
            let Some(phone) = present(&body.phone) else {
                return Err(AuthError::validation("Resend requires a phone number"));
            };
            let phone = user_rules::normalise_phone(phone)?;
            let mut message_id = None;
            if let Some(user) = user_rules::find_by_phone(&state.db, &phone).await?
                && user.phone_confirmed_at.is_none()
            {
                otp::check_resend_gap(&state, user.confirmation_sent_at)?;
                message_id = Some(send_sms_code(&state, &user, &phone).await?.1);
            }
            return Ok(ok(match message_id {
                Some(id) => json!({"message_id": id}),
                None => json!({}),
            }));
        }
        "phone_change" => return Err(AuthError::sms_unavailable()),
        _ => {
            return Err(AuthError::validation(
                "Missing one of these types: signup, email_change, sms, phone_change",
            ));
        }
    }
    let Some(email) = present(&body.email) else {
        return Err(AuthError::validation("Resend requires an email address"));
    };
    let email = user_rules::normalise_email(email)?;
    let challenge = pkce::parse(
        body.code_challenge.as_deref(),
        body.code_challenge_method.as_deref(),
    )?;
    let redirect_to = query.redirect_to.as_deref();
    // Counted before the lookup, so the limits answer alike for every address.
    otp::limit_mail(&state, &client, &email).await?;
    if kind == "signup" {
        if let Some(user) = user_rules::find_by_email(&state.db, &email).await?
            && user.email_confirmed_at.is_none()
        {
            otp::check_resend_gap(&state, user.confirmation_sent_at)?;
            send_confirmation(&state, &user, redirect_to, challenge.as_ref()).await?;
        }
    } else if let Some(user) = user_rules::find_by_email(&state.db, &email).await?
        && let Some(new_email) = user.new_email.clone()
    {
        otp::check_resend_gap(&state, user.email_change_sent_at)?;
        otp::limit_mail(&state, &client, &new_email).await?;
        start_email_change(&state, &user, &new_email, redirect_to, challenge.as_ref()).await?;
    }
    Ok(ok(json!({})))
}
