//! Reading and setting the server's own cookies (the device id, the partner
//! referral), one way for every domain.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

use super::AppState;

/// The partner referral cookie: the code of the partner whose link the
/// browser followed first (set by `track-referral`, read at sign-up).
pub const REFERRAL: &str = "affiliate_code";

/// The value of cookie `name`, if the request has one.
pub fn read<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

/// Appends a `Set-Cookie` for `name`: `HttpOnly`, `SameSite=Lax`, path `/`,
/// and `Secure` when users reach the app over HTTPS.
pub fn set(state: &AppState, headers: &mut HeaderMap, name: &str, value: &str, max_age_secs: i64) {
    let secure = if state.base_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    let cookie =
        format!("{name}={value}; Path=/; Max-Age={max_age_secs}; HttpOnly; SameSite=Lax{secure}");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        headers.append(header::SET_COOKIE, value);
    }
}

/// [`set`] for a cookie that must come back on a cross-site form post (a
/// provider's `form_post` callback): `SameSite=None; Secure` over HTTPS.
/// Plain HTTP cannot carry such a cookie, so it is `SameSite=Lax` there
/// (local development; providers that post need HTTPS anyway).
pub fn set_cross_site(
    state: &AppState,
    headers: &mut HeaderMap,
    name: &str,
    value: &str,
    max_age_secs: i64,
) {
    let same_site = if state.base_url.starts_with("https://") {
        "SameSite=None; Secure"
    } else {
        "SameSite=Lax"
    };
    let cookie = format!("{name}={value}; Path=/; Max-Age={max_age_secs}; HttpOnly; {same_site}");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        headers.append(header::SET_COOKIE, value);
    }
}

/// The referral code the browser carries, if any (not checked here: the
/// partners domain decides what it is worth).
#[derive(Debug, Clone, Default)]
pub struct Referral(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Referral {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(Self(read(&parts.headers, REFERRAL).map(str::to_owned)))
    }
}
