//! How the auth API answers: a JSON body with GoTrue's API version header,
//! the `redirect_to` query that mail links and OAuth flows carry, and the
//! two addresses every link is built from. Shared by the handlers, MFA,
//! passkeys, the admin API and the mail flows, so none of them reaches up
//! into `auth` itself or into `auth::handlers` for them.

use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;

use super::error::{API_VERSION, API_VERSION_HEADER};
use crate::http::AppState;

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

/// The public address of this API, e.g. `https://prettyscore.app/auth/v1`
/// (the `iss` claim and the base of mail links).
pub fn api_url(state: &AppState) -> String {
    format!("{}/auth/v1", state.base_url.trim_end_matches('/'))
}

/// Where users land by default after a mail link: `auth.site_url`, or the
/// address users reach the server at.
pub fn site_url(state: &AppState) -> String {
    state
        .config
        .auth
        .site_url
        .as_deref()
        .unwrap_or(&state.base_url)
        .trim_end_matches('/')
        .to_owned()
}
