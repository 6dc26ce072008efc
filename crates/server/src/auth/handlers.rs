//! `/auth/v1` handlers: thin, they parse the request, apply the rules of the
//! sibling modules and shape GoTrue's answers.

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::Utc;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter,
    Set, TransactionTrait,
};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::error::{API_VERSION, API_VERSION_HEADER, AuthError, AuthResult};
use super::extract::{AuthJson, AuthQuery, Bearer};
use super::otp::{self, MailKind};
use super::sessions::{self, Scope};
use super::users::{self as user_rules, NewUser};
use super::{password, pkce, rate_limit};
use crate::db::entities::{identities, mfa_factors, users};
use crate::http::AppState;
use crate::http::cookies::Referral;
use crate::http::extract::ClientInfo;
use crate::http::hooks::SignUp;

/// A JSON answer with the API version header.
pub fn ok(value: Value) -> Response {
    let mut response = axum::Json(value).into_response();
    response
        .headers_mut()
        .insert(API_VERSION_HEADER, HeaderValue::from_static(API_VERSION));
    response
}

#[derive(Debug, Default, Deserialize)]
pub struct RedirectQuery {
    pub redirect_to: Option<String>,
}

async fn limit_mail_requests(state: &AppState, client: &ClientInfo) -> AuthResult<()> {
    rate_limit::hit(
        &state.db,
        &format!("mail-requests:{}", client.rate_key()),
        300,
        state.config.auth.rate_limits.mail_requests_per_5min,
        AuthError::rate_limited,
    )
    .await
}

pub async fn health() -> Response {
    ok(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "name": "GoTrue",
        "description": "PrettyScore's GoTrue-compatible auth API",
    }))
}

pub async fn not_found() -> AuthError {
    AuthError::not_found("not_found", "Not found")
}

pub async fn settings(State(state): State<AppState>) -> Response {
    let auth = &state.config.auth;
    ok(json!({
        "external": {
            "anonymous_users": auth.anonymous_sign_ins,
            "email": true,
            "phone": state.sms.is_some(),
            "apple": false, "azure": false, "bitbucket": false, "discord": false,
            "facebook": false, "figma": false, "fly": false, "github": false,
            "gitlab": false, "google": false, "keycloak": false, "kakao": false,
            "linkedin_oidc": false, "notion": false, "slack_oidc": false,
            "spotify": false, "twitch": false, "twitter": false, "workos": false,
            "zoom": false, "saml": false, "web3": false,
        },
        "disable_signup": auth.disable_signup,
        "mailer_autoconfirm": auth.autoconfirm,
        "phone_autoconfirm": false,
        "sms_provider": match state.config.auth.sms.provider {
            crate::config::SmsProviderKind::Twilio => "twilio",
            crate::config::SmsProviderKind::Embedded => "embedded",
            crate::config::SmsProviderKind::None => "",
        },
        "saml_enabled": false,
        "mfa_enabled": true,
    }))
}

pub async fn jwks(State(state): State<AppState>) -> Response {
    let mut response = ok(state.keys.jwks());
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=600"),
    );
    response
}

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

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

pub async fn signup(
    State(state): State<AppState>,
    client: ClientInfo,
    referral: Referral,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(body): AuthJson<SignupBody>,
) -> AuthResult<Response> {
    let auth = &state.config.auth;
    if auth.disable_signup {
        return Err(AuthError::unprocessable(
            "signup_disabled",
            "Signups not allowed for this instance",
        ));
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
        return phone_signup(&state, &client, &phone, &referral, body).await;
    }
    let Some(email) = present(&body.email) else {
        return anonymous_sign_in(&state, &client, body.data).await;
    };
    limit_mail_requests(&state, &client).await?;
    let email = user_rules::normalise_email(email)?;
    if !auth.autoconfirm {
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
            if auth.autoconfirm {
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
            if auth.autoconfirm {
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
                    email_confirmed: auth.autoconfirm,
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
async fn phone_signup(
    state: &AppState,
    client: &ClientInfo,
    phone: &str,
    referral: &Referral,
    body: SignupBody,
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
            active.update(&state.db).await?
        }
        None => {
            let txn = state.db.begin().await?;
            let user = user_rules::create(
                &txn,
                NewUser {
                    phone: Some(phone.to_owned()),
                    password_hash: Some(hash),
                    user_metadata: body.data.clone(),
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
const SMS_OTP_TTL_SECS: i64 = 60;

/// Texts a six-digit code to `phone` and records when; returns the user and
/// the provider's message id.
async fn send_sms_code(
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
async fn phone_otp(
    state: &AppState,
    phone: &str,
    referral: &Referral,
    body: EmailBody,
) -> AuthResult<Response> {
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
async fn signed_up(
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
async fn send_confirmation(
    state: &AppState,
    user: &users::Model,
    redirect_to: Option<&str>,
    challenge: Option<&pkce::Challenge>,
) -> AuthResult<users::Model> {
    let email = user.email.clone().unwrap_or_default();
    let (code, hash) = otp::issue(&state.db, user.id, otp::CONFIRMATION, &email).await?;
    if let Some(challenge) = challenge {
        pkce::create(&state.db, user.id, "email/signup", challenge).await?;
    }
    let target = otp::redirect_target(state, redirect_to);
    let link = otp::action_link(
        state,
        &hash,
        MailKind::Confirmation,
        &target,
        challenge.is_some(),
    );
    otp::send_mail(state, &email, MailKind::Confirmation, &code, Some(link)).await?;
    let mut active: users::ActiveModel = user.clone().into();
    active.confirmation_sent_at = Set(Some(Utc::now()));
    Ok(active.update(&state.db).await?)
}

async fn anonymous_sign_in(
    state: &AppState,
    client: &ClientInfo,
    data: Option<Value>,
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
            ..NewUser::default()
        },
    )
    .await?;
    txn.commit().await?;
    Ok(ok(
        sessions::sign_in(state, &user, "anonymous", client).await?
    ))
}

#[derive(Debug, Default, Deserialize)]
pub struct GrantQuery {
    pub grant_type: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenBody {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub password: Option<String>,
    pub refresh_token: Option<String>,
    pub auth_code: Option<String>,
    pub code_verifier: Option<String>,
    pub provider: Option<String>,
    pub id_token: Option<String>,
}

pub async fn token(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthQuery(query): AuthQuery<GrantQuery>,
    AuthJson(body): AuthJson<TokenBody>,
) -> AuthResult<Response> {
    rate_limit::hit(
        &state.db,
        &format!("token:{}", client.rate_key()),
        300,
        state.config.auth.rate_limits.token_per_5min,
        AuthError::rate_limited,
    )
    .await?;
    let response = match query.grant_type.as_deref().unwrap_or_default() {
        "password" => password_grant(&state, &client, body).await?,
        "refresh_token" => {
            let Some(token) = present(&body.refresh_token) else {
                return Err(AuthError::bad_request("validation_failed", "refresh_token required")
                    .with_extra(json!({"error": "invalid_request", "error_description": "refresh_token required"})));
            };
            sessions::refresh(&state, token).await?
        }
        "pkce" => {
            let (Some(code), Some(verifier)) =
                (present(&body.auth_code), present(&body.code_verifier))
            else {
                return Err(AuthError::validation(
                    "invalid request: both auth code and code verifier should be non-empty",
                ));
            };
            let (user_id, method) = pkce::redeem(&state.db, code, verifier).await?;
            let user = user_rules::find(&state.db, user_id)
                .await?
                .ok_or_else(AuthError::user_not_found)?;
            let amr = match method.as_str() {
                "recovery" => "recovery",
                "magiclink" => "magiclink",
                "invite" => "invite",
                "email_change" => "email_change",
                _ => "otp",
            };
            sessions::sign_in(&state, &user, amr, &client).await?
        }
        "id_token" => {
            let provider = body.provider.unwrap_or_default();
            return Err(AuthError::bad_request(
                "provider_disabled",
                format!("Provider (issuer \"{provider}\") is not enabled"),
            ));
        }
        "web3" => {
            return Err(AuthError::bad_request(
                "web3_provider_disabled",
                "Web3 provider is disabled",
            ));
        }
        _ => {
            return Err(AuthError::bad_request(
                "unsupported_grant_type",
                "unsupported_grant_type",
            ));
        }
    };
    Ok(ok(response))
}

async fn password_grant(
    state: &AppState,
    client: &ClientInfo,
    body: TokenBody,
) -> AuthResult<Value> {
    let params = state.config.auth.password_hash;
    let password = body.password.unwrap_or_default();
    let user = if let Some(email) = present(&body.email) {
        let email = email.trim().to_lowercase();
        user_rules::find_by_email(&state.db, &email).await?
    } else if let Some(phone) = present(&body.phone) {
        if state.sms.is_none() {
            return Err(AuthError::phone_disabled("Phone logins are disabled"));
        }
        let phone = user_rules::normalise_phone(phone)?;
        users::Entity::find()
            .filter(users::Column::Phone.eq(phone))
            .one(&state.db)
            .await?
    } else {
        return Err(AuthError::validation("missing email or phone"));
    };
    // Wrong passwords are counted per account (keyed on the address or
    // phone as given, so an unknown one answers the same), per account and
    // client address, and per client address; `password::refusal` decides
    // who waits, and never refuses an address that has not failed.
    let identifier = present(&body.email)
        .or(present(&body.phone))
        .unwrap_or_default()
        .to_lowercase();
    let account = otp::token_hash(&identifier, "password");
    let address = client.rate_key();
    let keys = [
        format!("password-failures:{account}"),
        format!("password-failures:{account}:{address}"),
        format!("password-failures-ip:{address}"),
    ];
    let window = password::FAILURE_WINDOW_SECS;
    let mut counts = [0; 3];
    for (count, key) in counts.iter_mut().zip(&keys) {
        *count = crate::rate_limit::current_count(&state.db, key, window).await?;
    }
    let failures = password::RecentFailures {
        account: counts[0],
        account_from_address: counts[1],
        address: counts[2],
    };
    let max_per_address = i64::from(state.config.auth.rate_limits.wrong_passwords_per_5min);
    if let Some(refusal) = password::refusal(failures, max_per_address) {
        let message = match refusal {
            password::Refusal::Account => {
                "Too many wrong passwords for this account. Please try again in a few minutes."
            }
            password::Refusal::Address => {
                "Too many wrong passwords from this network. Please try again in a few minutes."
            }
        };
        return Err(AuthError::too_many("over_request_rate_limit", message)
            .with_retry_after(crate::rate_limit::window_remaining_secs(window)));
    }
    let hash = user.as_ref().and_then(|u| u.encrypted_password.clone());
    let matches = password::verify(password, hash, params).await?;
    let Some(user) = user.filter(|_| matches) else {
        for key in &keys {
            crate::rate_limit::count_hit(&state.db, key, window).await?;
        }
        return Err(AuthError::invalid_credentials());
    };
    if user.email.is_some() && user.email_confirmed_at.is_none() && present(&body.email).is_some() {
        return Err(AuthError::bad_request(
            "email_not_confirmed",
            "Email not confirmed",
        ));
    }
    if user.phone.is_some() && user.phone_confirmed_at.is_none() && present(&body.phone).is_some() {
        return Err(AuthError::bad_request(
            "phone_not_confirmed",
            "Phone not confirmed",
        ));
    }
    sessions::sign_in(state, &user, "password", client).await
}

#[derive(Debug, Default, Deserialize)]
pub struct LogoutQuery {
    pub scope: Option<String>,
}

pub async fn logout(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    AuthQuery(query): AuthQuery<LogoutQuery>,
) -> AuthResult<Response> {
    let scope = Scope::parse(query.scope.as_deref())?;
    sessions::sign_out(&state.db, bearer.user.id, bearer.session_id(), scope).await?;
    crate::db::audit::record(
        &state.db,
        "logout",
        Some(bearer.user.id),
        bearer.user.email.as_deref(),
        &client.ip,
        json!({"scope": query.scope.as_deref().unwrap_or("global")}),
    )
    .await;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(API_VERSION_HEADER, HeaderValue::from_static(API_VERSION));
    Ok(response)
}

pub async fn get_user(State(state): State<AppState>, bearer: Bearer) -> AuthResult<Response> {
    Ok(ok(user_rules::user_json(&state.db, &bearer.user).await?))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateUserBody {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub password: Option<String>,
    pub current_password: Option<String>,
    pub nonce: Option<String>,
    pub data: Option<Value>,
    pub channel: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
}

async fn has_verified_factor(state: &AppState, user_id: Uuid) -> AuthResult<bool> {
    Ok(mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(user_id))
        .filter(mfa_factors::Column::Status.eq("verified"))
        .count(&state.db)
        .await?
        > 0)
}

pub async fn update_user(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(body): AuthJson<UpdateUserBody>,
) -> AuthResult<Response> {
    let auth = &state.config.auth;
    let challenge = pkce::parse(
        body.code_challenge.as_deref(),
        body.code_challenge_method.as_deref(),
    )?;
    let mut user = bearer.user.clone();
    let new_password = body.password.clone().filter(|p| !p.is_empty());
    let new_email = match present(&body.email) {
        Some(email) => {
            Some(user_rules::normalise_email(email)?).filter(|e| Some(e) != user.email.as_ref())
        }
        None => None,
    };
    if present(&body.phone).is_some() {
        return Err(AuthError::sms_unavailable());
    }
    if (new_password.is_some() || new_email.is_some())
        && bearer.aal() == "aal1"
        && has_verified_factor(&state, user.id).await?
    {
        return Err(AuthError::insufficient_aal(
            "AAL2 session is required to update email or password when MFA is enabled.",
        ));
    }
    if new_email.is_some() {
        limit_mail_requests(&state, &client).await?;
    }

    if let Some(data) = &body.data {
        let mut active: users::ActiveModel = user.clone().into();
        active.raw_user_meta_data =
            Set(user_rules::merged_metadata(&user.raw_user_meta_data, data)?);
        active.updated_at = Set(Utc::now());
        user = active.update(&state.db).await?;
    }

    if let Some(new_password) = new_password {
        password::check_policy(&new_password, auth.password_min_length)?;
        if let Some(current) = body.current_password.clone()
            && !password::verify(current, user.encrypted_password.clone(), auth.password_hash)
                .await?
        {
            return Err(AuthError::bad_request(
                "current_password_mismatch",
                "Current password is incorrect",
            ));
        }
        if user.encrypted_password.is_some()
            && password::verify(
                new_password.clone(),
                user.encrypted_password.clone(),
                auth.password_hash,
            )
            .await?
        {
            return Err(AuthError::unprocessable(
                "same_password",
                "New password should be different from the old password.",
            ));
        }
        match present(&body.nonce) {
            Some(nonce) => {
                let email = user.email.clone().unwrap_or_default();
                otp::take_code(
                    &state.db,
                    auth.otp_expiry_secs,
                    &email,
                    nonce,
                    &[otp::REAUTHENTICATION],
                )
                .await
                .map_err(|_| {
                    AuthError::bad_request(
                        "reauthentication_not_valid",
                        "Requires reauthentication: the nonce has expired or is invalid",
                    )
                })?;
            }
            None if auth.secure_password_change => {
                return Err(AuthError::bad_request(
                    "reauthentication_needed",
                    "Password update requires reauthentication",
                ));
            }
            None => {}
        }
        let hash = password::hash(new_password, auth.password_hash).await?;
        let mut active: users::ActiveModel = user.clone().into();
        active.encrypted_password = Set(Some(hash));
        active.updated_at = Set(Utc::now());
        user = active.update(&state.db).await?;
        // A password change signs out every other session.
        sessions::sign_out(&state.db, user.id, bearer.session_id(), Scope::Others).await?;
        crate::db::audit::record(
            &state.db,
            "user_updated_password",
            Some(user.id),
            user.email.as_deref(),
            &client.ip,
            json!({}),
        )
        .await;
    }

    if let Some(new_email) = new_email {
        if let Some(other) = user_rules::find_by_email(&state.db, &new_email).await?
            && other.id != user.id
        {
            return Err(user_rules::email_exists());
        }
        // Even with autoconfirm on, a new address only counts once its owner
        // confirms it (and the current address is told and must confirm
        // too): a stolen session must not be able to take the account.
        otp::check_resend_gap(&state, user.email_change_sent_at)?;
        otp::limit_mail(&state, &client, &new_email).await?;
        if let Some(current) = user
            .email
            .as_deref()
            .filter(|_| user.email_confirmed_at.is_some())
        {
            otp::limit_mail(&state, &client, current).await?;
        }
        user = start_email_change(
            &state,
            &user,
            &new_email,
            query.redirect_to.as_deref(),
            challenge.as_ref(),
        )
        .await?;
    }
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

/// Double-confirmed email change: a code to the new address and one to the
/// current one (if confirmed); both must be verified.
async fn start_email_change(
    state: &AppState,
    user: &users::Model,
    new_email: &str,
    redirect_to: Option<&str>,
    challenge: Option<&pkce::Challenge>,
) -> AuthResult<users::Model> {
    let target = otp::redirect_target(state, redirect_to);
    if let Some(challenge) = challenge {
        pkce::create(&state.db, user.id, "email_change", challenge).await?;
    }
    let (code, hash) = otp::issue(&state.db, user.id, otp::EMAIL_CHANGE_NEW, new_email).await?;
    let link = otp::action_link(
        state,
        &hash,
        MailKind::EmailChange,
        &target,
        challenge.is_some(),
    );
    otp::send_mail(state, new_email, MailKind::EmailChange, &code, Some(link)).await?;
    let current = user
        .email
        .clone()
        .filter(|_| user.email_confirmed_at.is_some());
    if let Some(current) = &current {
        let (code, hash) =
            otp::issue(&state.db, user.id, otp::EMAIL_CHANGE_CURRENT, current).await?;
        let link = otp::action_link(
            state,
            &hash,
            MailKind::EmailChange,
            &target,
            challenge.is_some(),
        );
        otp::send_mail(state, current, MailKind::EmailChange, &code, Some(link)).await?;
    }
    let mut active: users::ActiveModel = user.clone().into();
    active.new_email = Set(Some(new_email.to_owned()));
    active.email_change_sent_at = Set(Some(Utc::now()));
    active.email_change_confirm_status = Set(0);
    active.updated_at = Set(Utc::now());
    Ok(active.update(&state.db).await?)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EmailBody {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub data: Option<Value>,
    pub create_user: Option<bool>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
}

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
async fn send_link(
    state: &AppState,
    user: &users::Model,
    kind: MailKind,
    redirect_to: Option<&str>,
    challenge: Option<&pkce::Challenge>,
) -> AuthResult<()> {
    let email = user.email.clone().unwrap_or_default();
    let (code, hash) = otp::issue(&state.db, user.id, otp::RECOVERY, &email).await?;
    if let Some(challenge) = challenge {
        pkce::create(&state.db, user.id, kind.verify_type(), challenge).await?;
    }
    let target = otp::redirect_target(state, redirect_to);
    let link = otp::action_link(state, &hash, kind, &target, challenge.is_some());
    otp::send_mail(state, &email, kind, &code, Some(link)).await?;
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
    AuthJson(body): AuthJson<EmailBody>,
) -> AuthResult<Response> {
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
enum Verified {
    /// Sign the user in with this `amr` method.
    SignIn(Box<users::Model>, &'static str),
    /// One half of a double email change; the other link is still due.
    EmailChangeHalf,
}

const EMAIL_CHANGE_HALF: &str =
    "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/// How a verification names its code.
enum CodeRef {
    /// The hash in a mail link (unguessable: 256 bits).
    Hash(String),
    /// The six-digit code typed in, with the address or phone number it was
    /// sent to; wrong ones count towards the code's attempt limit.
    Code { address: String, code: String },
}

async fn verify_code(state: &AppState, kind: &str, code: CodeRef) -> AuthResult<Verified> {
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
            let user = user_rules::set_email(&state.db, &user, &new_email).await?;
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

async fn limit_verify(state: &AppState, client: &ClientInfo) -> AuthResult<()> {
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
    match verify_code(&state, &kind, code).await? {
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

fn with_query(target: &str, params: &str) -> String {
    let (base, fragment) = match target.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (target, None),
    };
    let separator = if base.contains('?') { '&' } else { '?' };
    match fragment {
        Some(fragment) => format!("{base}{separator}{params}#{fragment}"),
        None => format!("{base}{separator}{params}"),
    }
}

fn with_fragment(target: &str, params: &str) -> String {
    let base = target.split_once('#').map_or(target, |(base, _)| base);
    format!("{base}#{params}")
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
        match verify_code(&state, &kind, hash).await? {
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

pub async fn reauthenticate(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
) -> AuthResult<Response> {
    limit_mail_requests(&state, &client).await?;
    let user = bearer.user;
    let Some(email) = user.email.clone().filter(|email| !email.is_empty()) else {
        if user.phone.as_deref().is_some_and(|phone| !phone.is_empty()) {
            return Err(AuthError::sms_unavailable());
        }
        return Err(AuthError::validation(
            "Reauthentication requires the user to have an email or a phone number",
        ));
    };
    otp::check_resend_gap(&state, user.reauthentication_sent_at)?;
    otp::limit_mail(&state, &client, &email).await?;
    let (code, _) = otp::issue(&state.db, user.id, otp::REAUTHENTICATION, &email).await?;
    otp::send_mail(&state, &email, MailKind::Reauthentication, &code, None).await?;
    let mut active: users::ActiveModel = user.into();
    active.reauthentication_sent_at = Set(Some(Utc::now()));
    active.update(&state.db).await?;
    Ok(ok(json!({})))
}

pub async fn unlink_identity(
    State(state): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
) -> AuthResult<Response> {
    if !state.config.auth.manual_linking {
        return Err(manual_linking_disabled());
    }
    let not_found = || AuthError::not_found("identity_not_found", "Identity doesn't exist");
    let id: Uuid = id.parse().map_err(|_| not_found())?;
    let all = identities::Entity::find()
        .filter(identities::Column::UserId.eq(bearer.user.id))
        .all(&state.db)
        .await?;
    let identity = all.iter().find(|i| i.id == id).ok_or_else(not_found)?;
    if all.len() <= 1 {
        return Err(AuthError::unprocessable(
            "single_identity_not_deletable",
            "User must have at least 1 identity after unlinking",
        ));
    }
    identities::Entity::delete_by_id(identity.id)
        .exec(&state.db)
        .await?;
    let remaining: Vec<String> = all
        .iter()
        .filter(|i| i.id != identity.id)
        .map(|i| i.provider.clone())
        .collect();
    let mut meta = bearer.user.raw_app_meta_data.clone();
    meta["providers"] = json!(remaining);
    if meta.get("provider").and_then(Value::as_str) == Some(identity.provider.as_str()) {
        meta["provider"] = json!(remaining.first());
    }
    let mut active: users::ActiveModel = bearer.user.into();
    active.raw_app_meta_data = Set(meta);
    active.updated_at = Set(Utc::now());
    active.update(&state.db).await?;
    Ok(ok(json!({})))
}

fn manual_linking_disabled() -> AuthError {
    AuthError::not_found("manual_linking_disabled", "Manual linking is disabled")
}

/// Linking an OAuth identity: GoTrue's answer without manual linking, and
/// with it (no OAuth provider is enabled here) the provider's refusal.
pub async fn link_identity(State(state): State<AppState>, _bearer: Bearer) -> AuthError {
    if !state.config.auth.manual_linking {
        return manual_linking_disabled();
    }
    authorize().await
}

pub async fn authorize() -> AuthError {
    AuthError::bad_request(
        "validation_failed",
        "Unsupported provider: provider is not enabled",
    )
}

/// GoTrue's OAuth 2.1 server (`/oauth/*`, `/admin/oauth/*`) is not offered:
/// its answer when the server is disabled.
pub async fn oauth_server_disabled() -> AuthError {
    AuthError::not_found("feature_disabled", "OAuth server is disabled")
}

/// `/admin/oauth/*`: the admin check comes first, as in GoTrue.
pub async fn admin_oauth(_admin: super::extract::ServiceRole) -> AuthError {
    oauth_server_disabled().await
}

pub async fn sso() -> AuthError {
    AuthError::bad_request("saml_provider_disabled", "SAML 2.0 is disabled")
}
