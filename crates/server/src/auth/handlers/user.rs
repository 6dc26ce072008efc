//! The signed-in user: reading and updating them (email change, password,
//! metadata), reauthentication, and identities.

use axum::extract::{Path, State};
use axum::response::Response;
use chrono::Utc;
use sea_orm::{ActiveModelTrait, Set};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::steps::{limit_mail_requests, present};
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::extract::{AuthJson, AuthQuery, Bearer};
use crate::auth::notices::{self, Change};
use crate::auth::otp::{self, MailKind};
use crate::auth::reply::{RedirectQuery, ok};
use crate::auth::sessions::{self, Scope};
use crate::auth::users::{self as user_rules};
use crate::auth::{password, pkce};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::extract::ClientInfo;

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
        && crate::auth::mfa::has_verified_factor(&state, user.id).await?
    {
        return Err(AuthError::insufficient_aal(
            "AAL2 session is required to update email or password when MFA is enabled.",
        ));
    }
    if new_email.is_some() {
        limit_mail_requests(&state, &client).await?;
    }

    if let Some(data) = &body.data {
        crate::auth::community::check_names(&state.config.community, data)?;
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
        notices::notify(&state, &user, Change::Password, None, &client).await;
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
pub(super) async fn start_email_change(
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
    otp::mail_code_and_link(
        state,
        user.id,
        otp::EMAIL_CHANGE_NEW,
        new_email,
        MailKind::EmailChange,
        &target,
        challenge.is_some(),
    )
    .await?;
    let current = user
        .email
        .clone()
        .filter(|_| user.email_confirmed_at.is_some());
    if let Some(current) = &current {
        otp::mail_code_and_link(
            state,
            user.id,
            otp::EMAIL_CHANGE_CURRENT,
            current,
            MailKind::EmailChange,
            &target,
            challenge.is_some(),
        )
        .await?;
    }
    let mut active: users::ActiveModel = user.clone().into();
    active.new_email = Set(Some(new_email.to_owned()));
    active.email_change_sent_at = Set(Some(Utc::now()));
    active.email_change_confirm_status = Set(0);
    active.updated_at = Set(Utc::now());
    Ok(active.update(&state.db).await?)
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
    client: ClientInfo,
    Path(id): Path<String>,
) -> AuthResult<Response> {
    if !state.config.auth.manual_linking {
        return Err(manual_linking_disabled());
    }
    let id: Uuid = id
        .parse()
        .map_err(|_| AuthError::not_found("identity_not_found", "Identity doesn't exist"))?;
    let provider = crate::auth::external::unlink(&state, bearer.user.id, id).await?;
    notices::notify(
        &state,
        &bearer.user,
        Change::IdentityUnlinked,
        Some(&provider),
        &client,
    )
    .await;
    Ok(ok(json!({})))
}

pub(super) fn manual_linking_disabled() -> AuthError {
    AuthError::not_found("manual_linking_disabled", "Manual linking is disabled")
}
