//! Who the caller is on the network: their address and user agent.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header;
use axum::http::request::Parts;

use crate::http::AppState;

/// The caller's address (for rate limits, MFA challenges and the session) and
/// user agent.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub ip: String,
    pub user_agent: Option<String>,
}

impl FromRequestParts<AppState> for ClientInfo {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let forwarded = state
            .config
            .auth
            .trust_x_forwarded_for
            .then(|| parts.headers.get("x-forwarded-for"))
            .flatten()
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(',').next())
            .map(|ip| ip.trim().to_owned())
            .filter(|ip| !ip.is_empty());
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip().to_string());
        Ok(Self {
            ip: forwarded.or(peer).unwrap_or_else(|| "unknown".into()),
            user_agent: parts
                .headers
                .get(header::USER_AGENT)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned),
        })
    }
}
