//! `/auth/v1` handlers: thin, they parse the request, apply the rules of the
//! sibling modules and shape GoTrue's answers. One file per flow:
//! [`signup`], [`token`] (sessions), [`user`], [`verify`] (codes and links by
//! mail), [`oauth`] (sign-in through outside providers) and [`settings`]
//! (what this server offers); the steps they share are
//! here.

mod oauth;
mod settings;
mod signup;
mod token;
mod user;
mod verify;

pub use oauth::{authorize, callback_get, callback_post, link_identity};
pub use settings::{admin_oauth, health, jwks, not_found, oauth_server_disabled, settings, sso};
pub use signup::signup;
pub use token::{logout, token};
pub use user::{get_user, reauthenticate, unlink_identity, update_user};
pub use verify::{otp, recover, resend, verify_get, verify_post};

use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;

use super::error::{API_VERSION, API_VERSION_HEADER, AuthError, AuthResult};
use super::rate_limit;
use crate::http::AppState;
use crate::http::extract::ClientInfo;

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

pub(super) async fn limit_mail_requests(state: &AppState, client: &ClientInfo) -> AuthResult<()> {
    rate_limit::hit(
        &state.db,
        &format!("mail-requests:{}", client.rate_key()),
        300,
        state.config.auth.rate_limits.mail_requests_per_5min,
        AuthError::rate_limited,
    )
    .await
}

pub(super) fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

pub(super) fn with_query(target: &str, params: &str) -> String {
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

pub(super) fn with_fragment(target: &str, params: &str) -> String {
    let base = target.split_once('#').map_or(target, |(base, _)| base);
    format!("{base}#{params}")
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
