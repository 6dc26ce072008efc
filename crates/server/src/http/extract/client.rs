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

    /// The caller's device in words, coarsely: "Chrome on Android",
    /// "Safari on iPhone", "an unknown browser".
    pub fn device(&self) -> String {
        describe_device(self.user_agent.as_deref().unwrap_or_default())
    }

    /// The caller's address with its last part hidden ("203.0.113.x", or
    /// an IPv6 address's /64 network): enough for its owner to recognise,
    /// not enough to be a precise location in a mail.
    pub fn coarse_address(&self) -> String {
        coarse_address(&self.ip)
    }
}

/// See [`ClientInfo::device`]. The order matters: Edge and Opera also say
/// Chrome, Chrome also says Safari, Android also says Linux.
pub fn describe_device(user_agent: &str) -> String {
    let ua = user_agent.to_ascii_lowercase();
    let has = |needle: &str| ua.contains(needle);
    let browser = if has("edg/") || has("edga/") || has("edgios/") {
        Some("Edge")
    } else if has("opr/") || has("opera") {
        Some("Opera")
    } else if has("samsungbrowser") {
        Some("Samsung Internet")
    } else if has("firefox/") || has("fxios/") {
        Some("Firefox")
    } else if has("chrome/") || has("crios/") || has("chromium/") {
        Some("Chrome")
    } else if has("safari/") && has("version/") {
        Some("Safari")
    } else if has("node") || has("undici") {
        Some("a Node.js program")
    } else if has("curl/") || has("wget/") || has("python") || has("reqwest") {
        Some("a command-line tool")
    } else {
        None
    };
    let system = if has("android") {
        Some("Android")
    } else if has("iphone") {
        Some("iPhone")
    } else if has("ipad") {
        Some("iPad")
    } else if has("cros") {
        Some("ChromeOS")
    } else if has("windows") {
        Some("Windows")
    } else if has("mac os x") || has("macintosh") {
        Some("a Mac")
    } else if has("linux") {
        Some("Linux")
    } else {
        None
    };
    match (browser, system) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(browser), None) => browser.to_owned(),
        (None, Some(system)) => format!("a browser on {system}"),
        (None, None) => "an unknown browser or app".to_owned(),
    }
}

/// See [`ClientInfo::coarse_address`].
pub fn coarse_address(ip: &str) -> String {
    match ip.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.x")
        }
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => coarse_address(&v4.to_string()),
            None => rate_key(ip),
        },
        Err(_) => "an unknown address".to_owned(),
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
    use super::{coarse_address, describe_device, rate_key};

    #[test]
    fn devices_are_told_in_words() {
        let cases = [
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
                "Chrome on Android",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0",
                "Firefox on a Mac",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            ("curl/8.5.0", "a command-line tool"),
            ("", "an unknown browser or app"),
        ];
        for (agent, words) in cases {
            assert_eq!(describe_device(agent), words, "{agent}");
        }
    }

    #[test]
    fn addresses_are_told_without_their_last_part() {
        assert_eq!(coarse_address("203.0.113.7"), "203.0.113.x");
        assert_eq!(coarse_address("::ffff:203.0.113.7"), "203.0.113.x");
        assert_eq!(coarse_address("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(coarse_address("unknown"), "an unknown address");
    }

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
