//! The WebAuthn relying party that passkeys (`passkeys`) and security-key
//! factors (`mfa::webauthn`) are bound to, and the ceremony states kept in
//! the database between a ceremony's options and its verify request, so that
//! the two may reach different instances.

use chrono::Utc;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Serialize;
use serde::de::DeserializeOwned;
use uuid::Uuid;
use webauthn_rs::prelude::{Url, Webauthn, WebauthnBuilder};

use super::error::{AuthError, AuthResult};
use crate::config::WebauthnConfig;
use crate::db::entities::{users, webauthn_challenges};
use crate::http::AppState;

/// How long a ceremony may take between its options and its verify (GoTrue's
/// `WEBAUTHN_CHALLENGE_EXPIRY_DURATION`).
pub const CHALLENGE_TTL_SECS: i64 = 300;

/// Passkey sign-in challenges one client address may have stored per
/// [`CHALLENGE_TTL_SECS`] (each options call stores one; issue 43).
pub const SIGN_IN_CHALLENGES_PER_ADDRESS: u32 = 10;

/// Who the server is to an authenticator: the domain credentials are
/// scoped to and the origins whose pages may use them.
#[derive(Debug, Clone, PartialEq)]
pub struct RelyingParty {
    pub id: String,
    pub origins: Vec<Url>,
    pub name: String,
}

/// Browsers refuse an IP address as a relying party id; on a loopback or
/// unspecified address the same machine is also `localhost`.
fn is_local_ip(host: &str) -> bool {
    host.trim_matches(['[', ']'])
        .parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

/// Whether a page of `origin` may use credentials of `rp_id` (the origin's
/// host is the id or a subdomain of it).
fn origin_fits(origin: &Url, rp_id: &str) -> bool {
    origin
        .domain()
        .is_some_and(|host| host == rp_id || host.ends_with(&format!(".{rp_id}")))
}

impl RelyingParty {
    /// Resolves the configuration against the site's and the server's own
    /// addresses (see `WebauthnConfig`).
    pub fn resolve(
        config: &WebauthnConfig,
        site_url: &str,
        base_url: &str,
    ) -> anyhow::Result<Self> {
        let site = Url::parse(site_url)
            .map_err(|err| anyhow::anyhow!("the site URL {site_url:?} is not a URL: {err}"))?;
        let id = match &config.rp_id {
            Some(id) => id.trim().to_ascii_lowercase(),
            None => match site.host_str() {
                Some(host) if is_local_ip(host) => "localhost".to_owned(),
                Some(host) if host.parse::<std::net::IpAddr>().is_ok() => anyhow::bail!(
                    "passkeys need a domain name, and the site is at the IP address {host}: \
                     set auth.webauthn.rp_id"
                ),
                Some(host) => host.to_ascii_lowercase(),
                None => anyhow::bail!("the site URL {site_url:?} has no host"),
            },
        };
        let origins = if config.rp_origins.is_empty() {
            let mut origins = Vec::new();
            for url in [site_url, base_url] {
                let Ok(url) = Url::parse(url) else { continue };
                let mut twin = url.clone();
                if url.host_str().is_some_and(is_local_ip)
                    && twin.set_host(Some("localhost")).is_ok()
                {
                    origins.push(twin);
                }
                origins.push(url);
            }
            origins
                .into_iter()
                .map(|url| Url::parse(&url.origin().ascii_serialization()))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .filter(|origin| origin_fits(origin, &id))
                .fold(Vec::new(), |mut unique, origin| {
                    if !unique.contains(&origin) {
                        unique.push(origin);
                    }
                    unique
                })
        } else {
            let origins = config
                .rp_origins
                .iter()
                .map(|origin| {
                    Url::parse(origin).map_err(|err| {
                        anyhow::anyhow!("auth.webauthn.rp_origins: {origin:?} is not a URL: {err}")
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            if let Some(stray) = origins.iter().find(|origin| !origin_fits(origin, &id)) {
                anyhow::bail!(
                    "auth.webauthn.rp_origins: {stray} is not on the relying party id {id:?}"
                );
            }
            origins
        };
        if origins.is_empty() {
            anyhow::bail!(
                "no origin is on the relying party id {id:?}: set auth.webauthn.rp_origins"
            );
        }
        Ok(Self {
            id,
            origins,
            name: config.rp_display_name.clone(),
        })
    }

    /// The library's relying party.
    pub fn webauthn(&self) -> anyhow::Result<Webauthn> {
        let mut builder = WebauthnBuilder::new(&self.id, &self.origins[0])?.rp_name(&self.name);
        for origin in &self.origins[1..] {
            builder = builder.append_allowed_origin(origin);
        }
        Ok(builder.build()?)
    }
}

/// The relying party of this server's configuration, or why there is none.
pub fn configured(state: &AppState) -> anyhow::Result<Webauthn> {
    RelyingParty::resolve(
        &state.config.auth.webauthn,
        &super::reply::site_url(state),
        &state.base_url,
    )
    .and_then(|rp| rp.webauthn())
}

/// The relying party of this server, or the client's error when passkeys
/// cannot work here.
pub fn relying_party(state: &AppState) -> AuthResult<Webauthn> {
    configured(state).map_err(|err| {
        tracing::warn!("WebAuthn is not set up: {err:#}");
        AuthError::not_found(
            "passkey_disabled",
            "Passkeys are not set up on this server (auth.webauthn).",
        )
    })
}

/// What an authenticator shows as the account: the address, else the phone.
pub fn account_name(user: &users::Model) -> String {
    user.email
        .clone()
        .filter(|e| !e.is_empty())
        .or_else(|| user.phone.clone())
        .unwrap_or_else(|| user.id.to_string())
}

/// The verify of a ceremony the library refused: a wrong origin, relying
/// party, challenge or signature, or an unknown credential.
pub fn verification_failed(err: impl std::fmt::Debug) -> AuthError {
    tracing::debug!("WebAuthn verification failed: {err:?}");
    AuthError::bad_request(
        "webauthn_verification_failed",
        "Credential verification failed",
    )
}

/// Which half of a passkey ceremony a stored challenge belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ceremony {
    Registration,
    Authentication,
}

impl Ceremony {
    fn as_str(self) -> &'static str {
        match self {
            Self::Registration => "registration",
            Self::Authentication => "authentication",
        }
    }
}

/// Keeps a ceremony's server half; answers its id and when it expires (unix
/// seconds). Challenges older than a day are cleared on the way.
pub async fn store_challenge(
    db: &impl ConnectionTrait,
    user_id: Option<Uuid>,
    ceremony: Ceremony,
    state: &impl Serialize,
) -> AuthResult<(Uuid, i64)> {
    let now = Utc::now();
    // Sweep the expired ones (no ceremony accepts them): the table holds at
    // most the challenges of the last few minutes.
    webauthn_challenges::Entity::delete_many()
        .filter(
            webauthn_challenges::Column::CreatedAt
                .lt(now - chrono::Duration::seconds(CHALLENGE_TTL_SECS)),
        )
        .exec(db)
        .await?;
    let state = serde_json::to_string(state).map_err(AuthError::internal)?;
    let challenge = webauthn_challenges::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user_id),
        kind: Set(ceremony.as_str().to_owned()),
        state: Set(state),
        created_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok((
        challenge.id,
        (now + chrono::Duration::seconds(CHALLENGE_TTL_SECS)).timestamp(),
    ))
}

/// Takes the challenge `id` of `ceremony` (and of `user_id`, for a
/// registration) out of the store: whatever happens next, it cannot be used
/// again, and of two requests with it only one finds it.
pub async fn consume_challenge<T: DeserializeOwned>(
    db: &impl ConnectionTrait,
    id: &str,
    ceremony: Ceremony,
    user_id: Option<Uuid>,
) -> AuthResult<T> {
    let id: Uuid = id.parse().map_err(|_| {
        AuthError::bad_request("validation_failed", "challenge_id must be a valid UUID")
    })?;
    let not_found = || {
        AuthError::bad_request(
            "webauthn_challenge_not_found",
            "Challenge not found or already used",
        )
    };
    let challenge = webauthn_challenges::Entity::find_by_id(id)
        .one(db)
        .await?
        .filter(|c| c.kind == ceremony.as_str() && c.user_id == user_id)
        .ok_or_else(not_found)?;
    let taken = webauthn_challenges::Entity::delete_by_id(challenge.id)
        .exec(db)
        .await?;
    if taken.rows_affected == 0 {
        return Err(not_found());
    }
    if challenge.created_at + chrono::Duration::seconds(CHALLENGE_TTL_SECS) < Utc::now() {
        return Err(AuthError::bad_request(
            "webauthn_challenge_expired",
            "Challenge has expired",
        ));
    }
    serde_json::from_str(&challenge.state).map_err(AuthError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(rp_id: Option<&str>, origins: &[&str]) -> WebauthnConfig {
        WebauthnConfig {
            rp_id: rp_id.map(str::to_owned),
            rp_origins: origins.iter().map(|o| (*o).to_owned()).collect(),
            ..WebauthnConfig::default()
        }
    }

    fn origins(rp: &RelyingParty) -> Vec<String> {
        rp.origins
            .iter()
            .map(|o| o.origin().ascii_serialization())
            .collect()
    }

    #[test]
    fn the_site_url_gives_the_id_and_the_origin() {
        let rp = RelyingParty::resolve(
            &config(None, &[]),
            "https://prettyscore.app/",
            "http://10.0.0.5:8080",
        )
        .unwrap();
        assert_eq!(rp.id, "prettyscore.app");
        // The server's own IP address cannot use the site's credentials.
        assert_eq!(origins(&rp), ["https://prettyscore.app"]);
    }

    #[test]
    fn a_loopback_server_is_localhost() {
        let rp = RelyingParty::resolve(
            &config(None, &[]),
            "http://127.0.0.1:4100",
            "http://127.0.0.1:4100",
        )
        .unwrap();
        assert_eq!(rp.id, "localhost");
        assert_eq!(origins(&rp), ["http://localhost:4100"]);
        rp.webauthn().unwrap();

        let rp = RelyingParty::resolve(
            &config(None, &[]),
            "http://localhost:5173",
            "http://0.0.0.0:8080",
        )
        .unwrap();
        assert_eq!(
            origins(&rp),
            ["http://localhost:5173", "http://localhost:8080"]
        );
    }

    #[test]
    fn configured_origins_must_be_on_the_id() {
        let rp = RelyingParty::resolve(
            &config(
                Some("prettyscore.app"),
                &["https://prettyscore.app", "https://www.prettyscore.app"],
            ),
            "http://127.0.0.1:1",
            "http://127.0.0.1:1",
        )
        .unwrap();
        assert_eq!(rp.origins.len(), 2);
        rp.webauthn().unwrap();

        let err = RelyingParty::resolve(
            &config(Some("prettyscore.app"), &["https://evil.example"]),
            "http://127.0.0.1:1",
            "http://127.0.0.1:1",
        )
        .unwrap_err();
        assert!(err.to_string().contains("evil.example"), "{err}");
        // `notprettyscore.app` is not under `prettyscore.app`.
        assert!(
            RelyingParty::resolve(
                &config(Some("prettyscore.app"), &["https://notprettyscore.app"]),
                "http://127.0.0.1:1",
                "http://127.0.0.1:1",
            )
            .is_err()
        );
    }

    #[test]
    fn a_public_ip_address_needs_an_id() {
        let err = RelyingParty::resolve(
            &config(None, &[]),
            "http://203.0.113.7",
            "http://203.0.113.7",
        )
        .unwrap_err();
        assert!(err.to_string().contains("rp_id"), "{err}");
    }
}
