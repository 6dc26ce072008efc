//! Outside identity providers behind "Continue with …": OpenID Connect
//! issuers (Google, Apple, any issuer found by discovery) and GitHub's
//! OAuth 2. Each turns the code its authorization page sent back into a
//! verified [`ProviderUser`]; the auth domain decides what that user may do.
//!
//! There is no embedded implementation: with none configured, sign-in by
//! provider is off, as in GoTrue.

mod apple;
mod github;
mod id_token;
mod oidc;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use crate::config::{IdentityProviderConfig, IdentityProviderKind};

pub use id_token::TokenRejected;

/// Why a provider gave no user.
#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    /// The provider could not be reached or answered with a server error.
    #[error("the provider could not be reached: {0}")]
    Unavailable(String),
    /// The provider refused: a used or expired code, a wrong client secret.
    #[error("the provider refused: {0}")]
    Refused(String),
    /// The ID token failed a check (issuer, audience, expiry, nonce, signature).
    #[error("the ID token is not valid: {0}")]
    InvalidToken(#[from] TokenRejected),
}

/// The person the provider vouches for, in GoTrue's identity terms.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderUser {
    /// The provider's stable id of the person (`sub`, GitHub's numeric id).
    pub subject: String,
    pub email: Option<String>,
    /// Whether the provider says it checked the address.
    pub email_verified: bool,
    pub name: Option<String>,
    pub avatar_url: Option<String>,
    /// GoTrue's `identity_data`: the provider's claims, with `sub`, `email`,
    /// `email_verified`, `name` and `avatar_url` in its shape.
    pub identity_data: Value,
    /// The provider's own tokens, handed back to the client as GoTrue does.
    pub provider_token: Option<String>,
    pub provider_refresh_token: Option<String>,
}

/// What the provider's callback brought besides the code.
#[derive(Debug, Default)]
pub struct Callback<'a> {
    pub code: &'a str,
    /// The nonce sent with the authorization request (OpenID Connect).
    pub nonce: Option<&'a str>,
    /// Apple's `user` form field (the name, on the first sign-in only).
    pub apple_user: Option<&'a str>,
}

/// Every configured provider, by the name clients pass as `provider`.
#[derive(Clone, Default)]
pub struct IdentityProviders {
    by_name: BTreeMap<String, Arc<IdentityProvider>>,
}

impl IdentityProviders {
    pub fn from_config(
        providers: &BTreeMap<String, IdentityProviderConfig>,
    ) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("PrettyScore/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mut by_name = BTreeMap::new();
        for (name, config) in providers {
            let provider = IdentityProvider::new(name, config, http.clone())
                .map_err(|err| anyhow::anyhow!("auth.providers.{name}: {err}"))?;
            by_name.insert(name.to_lowercase(), Arc::new(provider));
        }
        Ok(Self { by_name })
    }

    pub fn get(&self, name: &str) -> Option<&Arc<IdentityProvider>> {
        self.by_name.get(&name.trim().to_lowercase())
    }

    /// The enabled providers' names and labels, for `/settings`.
    pub fn labels(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_name
            .iter()
            .map(|(name, provider)| (name.as_str(), provider.label.as_str()))
    }

    /// The provider whose ID tokens carry `issuer` (`grant_type=id_token`
    /// names the provider or its issuer).
    pub fn by_name_or_issuer(&self, name: &str) -> Option<&Arc<IdentityProvider>> {
        self.get(name).or_else(|| {
            let issuer = name.trim().trim_end_matches('/');
            self.by_name.values().find(|provider| {
                provider
                    .issuer
                    .as_deref()
                    .is_some_and(|own| own.trim_end_matches('/') == issuer)
            })
        })
    }
}

pub struct IdentityProvider {
    pub name: String,
    pub label: String,
    kind: IdentityProviderKind,
    client_id: String,
    client_secret: Option<String>,
    issuer: Option<String>,
    scopes: String,
    audiences: Vec<String>,
    github: crate::config::GithubEndpoints,
    apple: Option<apple::ClientSecretSigner>,
    http: reqwest::Client,
    metadata: oidc::Discovery,
}

impl IdentityProvider {
    fn new(
        name: &str,
        config: &IdentityProviderConfig,
        http: reqwest::Client,
    ) -> anyhow::Result<Self> {
        use IdentityProviderKind::*;
        if config.client_id.trim().is_empty() {
            anyhow::bail!("client_id is required");
        }
        let issuer = match (config.kind, config.issuer.as_deref()) {
            (_, Some(issuer)) if !issuer.trim().is_empty() => {
                Some(issuer.trim().trim_end_matches('/').to_owned())
            }
            (Google, _) => Some("https://accounts.google.com".to_owned()),
            (Apple, _) => Some("https://appleid.apple.com".to_owned()),
            (Github, _) => None,
            (Oidc, _) => anyhow::bail!("issuer is required for an OpenID Connect provider"),
        };
        let apple = match config.kind {
            Apple => Some(apple::ClientSecretSigner::new(
                &config.apple,
                &config.client_id,
            )?),
            _ => None,
        };
        let client_secret = config.client_secret.as_ref().map(|s| s.expose().to_owned());
        if client_secret.is_none() && config.kind != Apple {
            anyhow::bail!("client_secret is required");
        }
        let label = config.label.clone().unwrap_or_else(|| match config.kind {
            Google => "Google".to_owned(),
            Apple => "Apple".to_owned(),
            Github => "GitHub".to_owned(),
            Oidc => {
                let mut chars = name.chars();
                chars
                    .next()
                    .map(|first| first.to_uppercase().chain(chars).collect())
                    .unwrap_or_default()
            }
        });
        let scopes = config.scopes.clone().unwrap_or_else(|| {
            match config.kind {
                Github => "read:user user:email",
                Apple => "name email",
                Google | Oidc => "openid email profile",
            }
            .to_owned()
        });
        let mut audiences = vec![config.client_id.clone()];
        audiences.extend(config.extra_audiences.iter().cloned());
        Ok(Self {
            name: name.to_lowercase(),
            label,
            kind: config.kind,
            client_id: config.client_id.clone(),
            client_secret,
            metadata: oidc::Discovery::new(issuer.clone()),
            issuer,
            scopes,
            audiences,
            github: config.github.clone(),
            apple,
            http,
        })
    }

    /// The provider's authorization page for this sign-in: the user's
    /// browser is sent there.
    pub async fn authorize_url(
        &self,
        redirect_uri: &str,
        state: &str,
        nonce: &str,
        extra_scopes: Option<&str>,
    ) -> Result<String, IdentityError> {
        let mut scopes: Vec<&str> = self.scopes.split_whitespace().collect();
        for scope in extra_scopes.unwrap_or_default().split([' ', ',']) {
            if !scope.is_empty() && !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        let endpoint = match self.kind {
            IdentityProviderKind::Github => format!(
                "{}/login/oauth/authorize",
                self.github.web_url.trim_end_matches('/')
            ),
            _ => self
                .metadata
                .get(&self.http)
                .await?
                .authorization_endpoint
                .clone(),
        };
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query
            .append_pair("client_id", &self.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("response_type", "code")
            .append_pair("state", state);
        match self.kind {
            IdentityProviderKind::Github => {}
            kind => {
                if kind == IdentityProviderKind::Apple {
                    // Apple sends the name and email only to a form post.
                    if scopes.iter().any(|s| *s == "name" || *s == "email") {
                        query.append_pair("response_mode", "form_post");
                    }
                } else if !scopes.contains(&"openid") {
                    scopes.insert(0, "openid");
                }
                query.append_pair("nonce", nonce);
            }
        }
        query.append_pair("scope", &scopes.join(" "));
        let separator = if endpoint.contains('?') { '&' } else { '?' };
        Ok(format!("{endpoint}{separator}{}", query.finish()))
    }

    /// Redeems the code the provider sent back and returns who signed in.
    pub async fn exchange(
        &self,
        callback: Callback<'_>,
        redirect_uri: &str,
    ) -> Result<ProviderUser, IdentityError> {
        if self.kind == IdentityProviderKind::Github {
            let secret = self.client_secret.as_deref().unwrap_or_default();
            return github::exchange(
                &self.http,
                &self.github,
                &self.client_id,
                secret,
                callback.code,
                redirect_uri,
            )
            .await;
        }
        let metadata = self.metadata.get(&self.http).await?;
        let secret = match &self.apple {
            Some(signer) => signer.sign().map_err(IdentityError::Refused)?,
            None => self.client_secret.clone().unwrap_or_default(),
        };
        let tokens = oidc::redeem_code(
            &self.http,
            &metadata,
            &self.client_id,
            &secret,
            callback.code,
            redirect_uri,
            self.kind == IdentityProviderKind::Apple,
        )
        .await?;
        let id_token = tokens.id_token.as_deref().ok_or_else(|| {
            IdentityError::Refused("the provider's answer has no ID token".into())
        })?;
        let claims = self
            .check_id_token(&metadata, id_token, callback.nonce)
            .await?;
        let mut claims = claims;
        if claims.get("email").is_none()
            && let (Some(userinfo), Some(access_token)) = (
                metadata.userinfo_endpoint.as_deref(),
                tokens.access_token.as_deref(),
            )
        {
            let info = oidc::userinfo(&self.http, userinfo, access_token).await?;
            if info.get("sub") != claims.get("sub") {
                return Err(IdentityError::Refused(
                    "the provider's user information is about someone else".into(),
                ));
            }
            if let (Value::Object(claims), Value::Object(info)) = (&mut claims, info) {
                for (key, value) in info {
                    claims.entry(key).or_insert(value);
                }
            }
        }
        if let Some(user) = callback.apple_user {
            apple::add_first_sign_in_name(&mut claims, user);
        }
        let mut user = oidc_user(&claims)?;
        user.provider_token = tokens.access_token;
        user.provider_refresh_token = tokens.refresh_token;
        Ok(user)
    }

    /// Checks an ID token the client obtained itself (`grant_type=id_token`,
    /// a native Google or Apple sign-in) and returns who it names.
    pub async fn verify_id_token(
        &self,
        id_token: &str,
        nonce: Option<&str>,
    ) -> Result<ProviderUser, IdentityError> {
        if self.kind == IdentityProviderKind::Github {
            return Err(IdentityError::Refused(
                "GitHub does not issue ID tokens".into(),
            ));
        }
        let metadata = self.metadata.get(&self.http).await?;
        let claims = self.check_id_token(&metadata, id_token, nonce).await?;
        oidc_user(&claims)
    }

    async fn check_id_token(
        &self,
        metadata: &oidc::Metadata,
        id_token: &str,
        nonce: Option<&str>,
    ) -> Result<Value, IdentityError> {
        let mut issuers = vec![metadata.issuer.clone()];
        if self.kind == IdentityProviderKind::Google {
            // Google's tokens name either form of its issuer.
            issuers.push("accounts.google.com".to_owned());
        }
        let expected = id_token::Expected {
            issuers: &issuers,
            audiences: &self.audiences,
            nonce,
        };
        let keys = &self.metadata;
        id_token::check(id_token, &expected, |kid, refresh| async move {
            keys.signing_keys(&self.http, &metadata.jwks_uri, kid, refresh)
                .await
        })
        .await
    }
}

/// GoTrue's identity data from an OpenID Connect provider's claims.
fn oidc_user(claims: &Value) -> Result<ProviderUser, IdentityError> {
    let text = |name: &str| {
        claims
            .get(name)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let subject = text("sub").ok_or(TokenRejected::Claim("sub"))?;
    let email = text("email").map(|e| e.to_lowercase());
    // Apple sends `"true"` as a string.
    let email_verified = match claims.get("email_verified") {
        Some(Value::Bool(verified)) => *verified,
        Some(Value::String(verified)) => verified == "true",
        _ => false,
    };
    let name = text("name").or_else(|| {
        let given = text("given_name").unwrap_or_default();
        let family = text("family_name").unwrap_or_default();
        let full = format!("{given} {family}").trim().to_owned();
        (!full.is_empty()).then_some(full)
    });
    let avatar_url = text("picture");
    let mut data = match claims {
        Value::Object(map) => map.clone(),
        _ => serde_json::Map::new(),
    };
    // Token bookkeeping is not about the person.
    for key in [
        "aud",
        "exp",
        "iat",
        "nonce",
        "at_hash",
        "c_hash",
        "auth_time",
        "azp",
    ] {
        data.remove(key);
    }
    data.insert("sub".into(), Value::String(subject.clone()));
    data.insert("provider_id".into(), Value::String(subject.clone()));
    data.insert("email_verified".into(), Value::Bool(email_verified));
    if let Some(email) = &email {
        data.insert("email".into(), Value::String(email.clone()));
    }
    if let Some(name) = &name {
        data.insert("name".into(), Value::String(name.clone()));
        data.entry("full_name")
            .or_insert_with(|| Value::String(name.clone()));
    }
    if let Some(avatar) = &avatar_url {
        data.insert("avatar_url".into(), Value::String(avatar.clone()));
    }
    Ok(ProviderUser {
        subject,
        email,
        email_verified,
        name,
        avatar_url,
        identity_data: Value::Object(data),
        provider_token: None,
        provider_refresh_token: None,
    })
}

/// An OAuth error answer (`{"error", "error_description"}`).
#[derive(Debug, Deserialize)]
struct OAuthErrorBody {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

impl OAuthErrorBody {
    fn describe(&self) -> String {
        match &self.error_description {
            Some(description) if !description.is_empty() => {
                format!("{} ({})", description, self.error)
            }
            _ => self.error.clone(),
        }
    }
}

/// A provider answer that is not a success: a server error or no answer is
/// `Unavailable`, anything else the provider's refusal.
fn failed(status: reqwest::StatusCode, body: &[u8]) -> IdentityError {
    if status.is_server_error() {
        return IdentityError::Unavailable(format!("HTTP {status}"));
    }
    match serde_json::from_slice::<OAuthErrorBody>(body) {
        Ok(error) => IdentityError::Refused(error.describe()),
        Err(_) => IdentityError::Refused(format!("HTTP {status}")),
    }
}

fn unreachable(err: reqwest::Error) -> IdentityError {
    IdentityError::Unavailable(err.without_url().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn apple_string_booleans_and_split_names_are_read() {
        let user = oidc_user(&json!({
            "sub": "001.abc", "email": "A@Privaterelay.Appleid.com",
            "email_verified": "true", "given_name": "Ada", "family_name": "Lovelace",
            "nonce": "n", "aud": "x"
        }))
        .unwrap();
        assert_eq!(user.email.as_deref(), Some("a@privaterelay.appleid.com"));
        assert!(user.email_verified);
        assert_eq!(user.name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(user.identity_data["full_name"], "Ada Lovelace");
        assert!(user.identity_data.get("nonce").is_none());
    }

    #[test]
    fn a_token_without_a_subject_is_refused() {
        assert!(oidc_user(&json!({"email": "a@b.co"})).is_err());
        let unverified = oidc_user(&json!({"sub": "1", "email_verified": "false"})).unwrap();
        assert!(!unverified.email_verified);
    }

    #[test]
    fn server_errors_are_unavailable_and_oauth_errors_refusals() {
        assert!(matches!(
            failed(reqwest::StatusCode::BAD_GATEWAY, b""),
            IdentityError::Unavailable(_)
        ));
        let refused = failed(
            reqwest::StatusCode::BAD_REQUEST,
            br#"{"error":"invalid_grant","error_description":"grant request is invalid"}"#,
        );
        assert_eq!(
            refused.to_string(),
            "the provider refused: grant request is invalid (invalid_grant)"
        );
    }
}
