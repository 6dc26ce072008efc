//! Signing up: with an email and a password, a phone, or anonymously; the
//! confirmation mail or SMS code.

use axum::extract::State;
use axum::response::Response;
use chrono::Utc;
use sea_orm::{ActiveModelTrait, DatabaseTransaction, Set, TransactionTrait};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::steps::{EmailBody, limit_mail_requests, present};
use crate::auth::community;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::extract::{AuthJson, AuthQuery};
use crate::auth::otp::{self, MailKind};
use crate::auth::reply::{RedirectQuery, ok};
use crate::auth::sessions::{self};
use crate::auth::users::{self as user_rules, NewUser};
use crate::auth::{password, pkce, rate_limit};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::cookies::Referral;
use crate::http::extract::ClientInfo;
use crate::http::hooks::SignUp;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SignupBody {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub password: Option<String>,
    pub data: Option<Value>,
    pub channel: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
}

pub async fn signup(
    State(state): State<AppState>,
    client: ClientInfo,
    referral: Referral,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(mut body): AuthJson<SignupBody>,
) -> AuthResult<Response> {
    let auth = &state.config.auth;
    if auth.disable_signup {
        return Err(AuthError::unprocessable(
            "signup_disabled",
            "Signups not allowed for this instance",
        ));
    }
    // Before anything is stored or counted: a minor's sign-up leaves no
    // trace, not even the address (issue 41).
    let facts = community::take_signup_facts(&state.config.community, &mut body.data)?;
    if let Some(data) = &body.data {
        community::check_names(&state.config.community, data)?;
    }
    let challenge = pkce::parse(
        body.code_challenge.as_deref(),
        body.code_challenge_method.as_deref(),
    )?;
    if let Some(phone) = present(&body.phone) {
        if state.sms.is_none() {
            return Err(AuthError::phone_disabled("Phone signups are disabled"));
        }
        let phone = user_rules::normalise_phone(phone)?;
        return phone_signup(&state, &client, &phone, &referral, body, facts).await;
    }
    let Some(email) = present(&body.email) else {
        return anonymous_sign_in(&state, &client, body.data, facts).await;
    };
    limit_mail_requests(&state, &client).await?;
    let email = user_rules::normalise_email(email)?;
    if !auth.autoconfirm() {
        // Counted before the lookup: the same for a taken address as a new one.
        otp::limit_mail(&state, &client, &email).await?;
    }
    let Some(password) = body.password.filter(|p| !p.is_empty()) else {
        return Err(AuthError::unprocessable(
            "validation_failed",
            "Signup requires a valid password",
        ));
    };
    password::check_policy(&password, auth.password_min_length)?;
    let hash = password::hash(password, auth.password_hash).await?;

    let existing = user_rules::find_by_email(&state.db, &email).await?;
    let user = match existing {
        Some(user) if user.email_confirmed_at.is_some() => {
            if auth.autoconfirm() {
                return Err(AuthError::unprocessable(
                    "user_already_exists",
                    "User already registered",
                ));
            }
            // Anti-enumeration: a look-alike user that exists nowhere.
            let mut fake = user.clone();
            fake.id = Uuid::new_v4();
            fake.created_at = Utc::now();
            fake.updated_at = fake.created_at;
            fake.raw_user_meta_data = body.data.clone().unwrap_or_else(|| json!({}));
            fake.email_confirmed_at = None;
            fake.last_sign_in_at = None;
            fake.confirmation_sent_at = Some(Utc::now());
            return Ok(ok(user_rules::render(&fake, &[], &[])));
        }
        Some(user) => {
            // Signed up before but never confirmed: take the new password and data.
            let mut active: users::ActiveModel = user.clone().into();
            active.encrypted_password = Set(Some(hash));
            if let Some(data) = &body.data {
                active.raw_user_meta_data =
                    Set(user_rules::merged_metadata(&user.raw_user_meta_data, data)?);
            }
            active.updated_at = Set(Utc::now());
            let user = active.update(&state.db).await?;
            community::record_signup_facts(&state.db, user.id, &facts).await?;
            if auth.autoconfirm() {
                user_rules::confirm_email(&state.db, &user).await?
            } else {
                user
            }
        }
        None => {
            let txn = state.db.begin().await?;
            let user = user_rules::create(
                &txn,
                NewUser {
                    email: Some(email.clone()),
                    password_hash: Some(hash),
                    user_metadata: body.data.clone(),
                    email_confirmed: auth.autoconfirm(),
                    facts,
                    ..NewUser::default()
                },
            )
            .await?;
            signed_up(&state, &txn, &user, &referral).await?;
            txn.commit().await?;
            user
        }
    };
    if user.email_confirmed_at.is_some() {
        let response = sessions::sign_in(&state, &user, "password", &client).await?;
        return Ok(ok(response));
    }
    otp::check_resend_gap(&state, user.confirmation_sent_at)?;
    let user = send_confirmation(
        &state,
        &user,
        query.redirect_to.as_deref(),
        challenge.as_ref(),
    )
    .await?;
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

/// `POST /signup` with a phone and a password: the user is created
/// unconfirmed and a code goes out by text; `verify` with type `sms` confirms.
pub(super) async fn phone_signup(
    state: &AppState,
    client: &ClientInfo,
    phone: &str,
    referral: &Referral,
    body: SignupBody,
    facts: community::SignupFacts,
) -> AuthResult<Response> {
    let auth = &state.config.auth;
    limit_mail_requests(state, client).await?;
    let Some(password) = body.password.filter(|p| !p.is_empty()) else {
        return Err(AuthError::unprocessable(
            "validation_failed",
            "Signup requires a valid password",
        ));
    };
    password::check_policy(&password, auth.password_min_length)?;
    let hash = password::hash(password, auth.password_hash).await?;
    let user = match user_rules::find_by_phone(&state.db, phone).await? {
        Some(user) if user.phone_confirmed_at.is_some() => {
            return Err(AuthError::unprocessable(
                "user_already_exists",
                "User already registered",
            ));
        }
        Some(user) => {
            let mut active: users::ActiveModel = user.clone().into();
            active.encrypted_password = Set(Some(hash));
            active.updated_at = Set(Utc::now());
            let user = active.update(&state.db).await?;
            community::record_signup_facts(&state.db, user.id, &facts).await?;
            user
        }
        None => {
            let txn = state.db.begin().await?;
            let user = user_rules::create(
                &txn,
                NewUser {
                    phone: Some(phone.to_owned()),
                    password_hash: Some(hash),
                    user_metadata: body.data.clone(),
                    facts,
                    ..NewUser::default()
                },
            )
            .await?;
            signed_up(state, &txn, &user, referral).await?;
            txn.commit().await?;
            user
        }
    };
    otp::check_resend_gap(state, user.confirmation_sent_at)?;
    let (user, _) = send_sms_code(state, &user, phone).await?;
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

/// How long a code sent by text lives (GoTrue's `SMS_OTP_EXP` default).
pub(super) const SMS_OTP_TTL_SECS: i64 = 60;

/// Texts a six-digit code to `phone` and records when; returns the user and
/// the provider's message id.
pub(super) async fn send_sms_code(
    state: &AppState,
    user: &users::Model,
    phone: &str,
) -> AuthResult<(users::Model, String)> {
    let Some(sms) = &state.sms else {
        return Err(AuthError::phone_disabled("Phone logins are disabled"));
    };
    let (code, _) = otp::issue(&state.db, user.id, otp::PHONE_CONFIRMATION, phone).await?;
    let message_id = sms
        .send(phone, &format!("Your PrettyScore code is {code}"))
        .await
        .map_err(|err| {
            AuthError::internal(err).with_code(
                "sms_send_failed",
                "Error sending confirmation OTP to provider",
            )
        })?;
    let mut active: users::ActiveModel = user.clone().into();
    active.confirmation_sent_at = Set(Some(Utc::now()));
    Ok((active.update(&state.db).await?, message_id))
}

/// `POST /otp` with a phone: a code by text, creating the user if allowed.
pub(super) async fn phone_otp(
    state: &AppState,
    phone: &str,
    referral: &Referral,
    mut body: EmailBody,
) -> AuthResult<Response> {
    let facts = community::take_signup_facts(&state.config.community, &mut body.data)?;
    if let Some(data) = &body.data {
        community::check_names(&state.config.community, data)?;
    }
    let phone = user_rules::normalise_phone(phone)?;
    let user = match user_rules::find_by_phone(&state.db, &phone).await? {
        Some(user) => user,
        None => {
            if !body.create_user.unwrap_or(true) {
                return Err(AuthError::unprocessable(
                    "otp_disabled",
                    "Signups not allowed for otp",
                ));
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
                    phone: Some(phone.clone()),
                    user_metadata: body.data,
                    facts,
                    ..NewUser::default()
                },
            )
            .await?;
            signed_up(state, &txn, &user, referral).await?;
            txn.commit().await?;
            user
        }
    };
    otp::check_resend_gap(state, user.confirmation_sent_at)?;
    let (_, message_id) = send_sms_code(state, &user, &phone).await?;
    Ok(ok(json!({"message_id": message_id})))
}

/// Tells the listeners (the partner programme's attribution) about an
/// account its owner just made, in the transaction that made it.
pub(super) async fn signed_up(
    state: &AppState,
    txn: &DatabaseTransaction,
    user: &users::Model,
    referral: &Referral,
) -> AuthResult<()> {
    let sign_up = SignUp {
        user_id: user.id,
        email: user.email.as_deref(),
        referral_code: referral.0.as_deref(),
    };
    state.hooks.signed_up(txn, &sign_up).await?;
    Ok(())
}

/// Sends the sign-up confirmation mail and records when.
pub(super) async fn send_confirmation(
    state: &AppState,
    user: &users::Model,
    redirect_to: Option<&str>,
    challenge: Option<&pkce::Challenge>,
) -> AuthResult<users::Model> {
    let email = user.email.clone().unwrap_or_default();
    if let Some(challenge) = challenge {
        pkce::create(&state.db, user.id, "email/signup", challenge).await?;
    }
    let target = otp::redirect_target(state, redirect_to);
    otp::mail_code_and_link(
        state,
        user.id,
        otp::CONFIRMATION,
        &email,
        MailKind::Confirmation,
        &target,
        challenge.is_some(),
    )
    .await?;
    let mut active: users::ActiveModel = user.clone().into();
    active.confirmation_sent_at = Set(Some(Utc::now()));
    Ok(active.update(&state.db).await?)
}

pub(super) async fn anonymous_sign_in(
    state: &AppState,
    client: &ClientInfo,
    data: Option<Value>,
    facts: community::SignupFacts,
) -> AuthResult<Response> {
    if !state.config.auth.anonymous_sign_ins {
        return Err(AuthError::unprocessable(
            "anonymous_provider_disabled",
            "Anonymous sign-ins are disabled",
        ));
    }
    rate_limit::hit(
        &state.db,
        &format!("anonymous:{}", client.rate_key()),
        3600,
        state.config.auth.rate_limits.anonymous_per_hour,
        AuthError::rate_limited,
    )
    .await?;
    let txn = state.db.begin().await?;
    let user = user_rules::create(
        &txn,
        NewUser {
            user_metadata: data,
            is_anonymous: true,
            facts,
            ..NewUser::default()
        },
    )
    .await?;
    txn.commit().await?;
    Ok(ok(
        sessions::sign_in(state, &user, "anonymous", client).await?
    ))
}
