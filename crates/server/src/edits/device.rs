//! The browser's device id for the free-edit quota: an `HttpOnly` cookie
//! `ps_device` that only the server issues.
//!
//! The value is a token signed with the server's token key (audience
//! `prettyscore-device`), so a client cannot choose an id, or mint fresh ids
//! without asking the server for them. A missing, forged or expired value is
//! simply a new browser, which gets a new id. What signing cannot prevent: a
//! browser that drops its cookies is a new browser to us and gets the free
//! edits again (the per-client rate limit bounds how fast; a signed-in user's
//! allowance follows the account, so this only helps anonymous use). Rotating
//! the token keys also makes existing device cookies unknown once the
//! retired key stops verifying.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::Response;
use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::http::{AppState, cookies};

pub const COOKIE: &str = "ps_device";
const AUDIENCE: &str = "prettyscore-device";
const LIFETIME_SECS: i64 = 365 * 24 * 3600;

/// The calling browser's device id; new ones carry the cookie to set.
#[derive(Debug, Clone)]
pub struct Device {
    pub id: String,
    /// The signed value to send back, when the id is new.
    issued: Option<String>,
}

impl Device {
    /// A new browser: a random id, signed.
    fn issue(state: &AppState) -> Self {
        let id = format!("dev_{}", Uuid::new_v4().simple());
        let token = state.keys.sign(&json!({
            "aud": AUDIENCE,
            "sub": id,
            "exp": Utc::now().timestamp() + LIFETIME_SECS,
        }));
        Self {
            id,
            issued: Some(token),
        }
    }

    /// Adds the `Set-Cookie` header of a new id to the response.
    pub fn attach(&self, state: &AppState, mut response: Response) -> Response {
        if let Some(token) = &self.issued {
            cookies::set(state, response.headers_mut(), COOKIE, token, LIFETIME_SECS);
        }
        response
    }
}

impl FromRequestParts<AppState> for Device {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        if let Some(token) = cookies::read(&parts.headers, COOKIE)
            && let Ok(claims) = state.keys.verify(&state.db, token).await
            && claims["aud"] == AUDIENCE
            && let Some(id) = claims["sub"].as_str()
        {
            return Ok(Self {
                id: id.to_owned(),
                issued: None,
            });
        }
        Ok(Self::issue(state))
    }
}
