//! Sessions: the grants of `/token` (password, refresh, PKCE, ID token
//! refused) and signing out.

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde::Deserialize;
use serde_json::{Value, json};

use super::steps::{TokenBody, present};
use crate::auth::error::{API_VERSION, API_VERSION_HEADER, AuthError, AuthResult};
use crate::auth::extract::{AuthJson, AuthQuery, Bearer};
use crate::auth::otp::{self};
use crate::auth::reply::ok;
use crate::auth::sessions::{self, Scope};
use crate::auth::users::{self as user_rules};
use crate::auth::{password, pkce, rate_limit};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::extract::ClientInfo;

#[derive(Debug, Default, Deserialize)]
pub struct GrantQuery {
    pub grant_type: Option<String>,
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
                "oauth" => "oauth",
                _ => "otp",
            };
            sessions::sign_in(&state, &user, amr, &client).await?
        }
        "id_token" => super::oauth::id_token_grant(&state, &client, &body).await?,
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

pub(super) async fn password_grant(
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
