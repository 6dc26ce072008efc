//! Who the caller is on the network: their address and user agent.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap, header};

use crate::http::AppState;

/// The caller's address (for rate limits, MFA challenges and the session) and
/// user agent.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub ip: String,
    pub user_agent: Option<String>,
}

impl ClientInfo {
    /// Whom a rate limit counts: the IPv4 address, or the /64 network of an
    /// IPv6 address (one subscriber usually holds a whole /64, so counting
    /// single IPv6 addresses would give one attacker millions of budgets).
    pub fn rate_key(&self) -> String {
        rate_key(&self.ip)
    }
}

/// See [`ClientInfo::rate_key`]; an address that does not parse is its own key.
pub fn rate_key(ip: &str) -> String {
    match ip.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => v4.to_string(),
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                format!("{}/64", std::net::Ipv6Addr::from(network))
            }
        },
        Err(_) => ip.to_owned(),
    }
}

impl FromRequestParts<AppState> for ClientInfo {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let trust_forwarded = state.config.auth.trust_x_forwarded_for;
        Ok(Self {
            ip: client_ip(&parts.headers, &parts.extensions, trust_forwarded),
            user_agent: parts
                .headers
                .get(header::USER_AGENT)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned),
        })
    }
}

/// The caller's address: the first of `X-Forwarded-For` behind a trusted
/// proxy, else the connection's peer.
pub fn client_ip(headers: &HeaderMap, extensions: &Extensions, trust_forwarded: bool) -> String {
    let forwarded = trust_forwarded
        .then(|| headers.get("x-forwarded-for"))
        .flatten()
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(',').next())
        .map(|ip| ip.trim().to_owned())
        .filter(|ip| !ip.is_empty());
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip().to_string());
    forwarded.or(peer).unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::rate_key;

    #[test]
    fn ipv6_addresses_of_one_64_share_a_rate_key() {
        assert_eq!(rate_key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(
            rate_key("2001:db8:1:2:ffff:ffff:ffff:ffff"),
            "2001:db8:1:2::/64"
        );
        assert_ne!(rate_key("2001:db8:1:3::1"), rate_key("2001:db8:1:2::1"));
        assert_eq!(rate_key("203.0.113.7"), "203.0.113.7");
        assert_eq!(rate_key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(rate_key("unknown"), "unknown");
    }
}
