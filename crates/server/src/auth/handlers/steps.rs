//! The steps and request bodies that more than one flow shares: the mail
//! rate limit, reading an optional field, adding parameters to a redirect,
//! and the bodies of the mail-code and token endpoints (the `id_token`
//! grant in [`super::oauth`] reads the token body too).

use serde::Deserialize;
use serde_json::Value;

use crate::auth::error::{AuthError, AuthResult};
use crate::auth::rate_limit;
use crate::http::AppState;
use crate::http::extract::ClientInfo;

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

/// The body of `POST /token`, for every grant.
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
    pub nonce: Option<String>,
}
