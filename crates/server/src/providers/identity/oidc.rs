//! OpenID Connect's moving parts: the issuer's discovery document, its
//! signing keys (cached, and read again when a token names a key we have not
//! seen: providers rotate keys), the code exchange and the userinfo call.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

use super::{IdentityError, failed, unreachable};

/// How long a discovery document and a key set are trusted before they are
/// read again, key rotation aside.
const CACHE_FOR: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone, Deserialize)]
pub struct Metadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
    #[serde(default)]
    pub userinfo_endpoint: Option<String>,
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Vec<String>,
}

/// The JSON Web Keys an issuer signs with.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct KeySet {
    pub keys: Vec<Value>,
}

impl KeySet {
    pub fn find(&self, kid: Option<&str>) -> Vec<&Value> {
        self.keys
            .iter()
            .filter(|key| key.get("use").and_then(Value::as_str).unwrap_or("sig") == "sig")
            .filter(|key| match kid {
                Some(kid) => key.get("kid").and_then(Value::as_str) == Some(kid),
                None => true,
            })
            .collect()
    }
}

type Cached<T> = Mutex<Option<(Arc<T>, Instant)>>;

/// One issuer's discovery document and key set, shared by every request.
pub struct Discovery {
    issuer: Option<String>,
    metadata: Cached<Metadata>,
    keys: Cached<KeySet>,
    /// One key-set read at a time: requests that miss together share it.
    key_reads: tokio::sync::Mutex<()>,
}

impl Discovery {
    pub fn new(issuer: Option<String>) -> Self {
        Self {
            issuer,
            metadata: Mutex::new(None),
            keys: Mutex::new(None),
            key_reads: tokio::sync::Mutex::new(()),
        }
    }

    fn fresh<T>(cell: &Cached<T>) -> Option<Arc<T>> {
        let cached = cell.lock().expect("identity provider cache lock");
        cached
            .as_ref()
            .filter(|(_, read)| read.elapsed() < CACHE_FOR)
            .map(|(value, _)| value.clone())
    }

    /// The discovery document, read once an hour; a provider that is down
    /// is asked again on the next sign-in.
    pub async fn get(&self, http: &reqwest::Client) -> Result<Arc<Metadata>, IdentityError> {
        if let Some(metadata) = Self::fresh(&self.metadata) {
            return Ok(metadata);
        }
        let issuer = self
            .issuer
            .as_deref()
            .ok_or_else(|| IdentityError::Refused("no issuer is configured".into()))?;
        let url = format!("{issuer}/.well-known/openid-configuration");
        let metadata: Metadata = get_json(http, &url, None).await?;
        if metadata.issuer.trim_end_matches('/') != issuer {
            return Err(IdentityError::Refused(format!(
                "the discovery document names the issuer {}, not {issuer}",
                metadata.issuer
            )));
        }
        let metadata = Arc::new(metadata);
        *self.metadata.lock().expect("identity provider cache lock") =
            Some((metadata.clone(), Instant::now()));
        Ok(metadata)
    }

    /// The keys that may have signed a token naming `kid`. With `refresh`
    /// (none of the cached keys checked it), the set is read again unless
    /// another request just did.
    pub async fn signing_keys(
        &self,
        http: &reqwest::Client,
        jwks_uri: &str,
        kid: Option<String>,
        refresh: bool,
    ) -> Result<Arc<KeySet>, IdentityError> {
        let cached = Self::fresh(&self.keys);
        if let Some(keys) = &cached
            && !refresh
        {
            return Ok(keys.clone());
        }
        let _one_read = self.key_reads.lock().await;
        // Another request may have read the set while this one waited.
        if let Some(keys) = Self::fresh(&self.keys)
            && (cached.is_none() || !Arc::ptr_eq(&keys, cached.as_ref().expect("checked")))
            && !keys.find(kid.as_deref()).is_empty()
        {
            return Ok(keys);
        }
        let keys: KeySet = get_json(http, jwks_uri, None).await?;
        let keys = Arc::new(keys);
        *self.keys.lock().expect("identity provider cache lock") =
            Some((keys.clone(), Instant::now()));
        Ok(keys)
    }
}

async fn get_json<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
    bearer: Option<&str>,
) -> Result<T, IdentityError> {
    let mut request = http
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json");
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.map_err(unreachable)?;
    let status = response.status();
    let body = response.bytes().await.map_err(unreachable)?;
    if !status.is_success() {
        return Err(failed(status, &body));
    }
    serde_json::from_slice(&body)
        .map_err(|err| IdentityError::Refused(format!("unreadable answer from {url}: {err}")))
}

/// The token endpoint's answer.
#[derive(Debug, Deserialize)]
pub struct Tokens {
    #[serde(default)]
    pub access_token: Option<String>,
    #[serde(default)]
    pub refresh_token: Option<String>,
    #[serde(default)]
    pub id_token: Option<String>,
}

/// Redeems an authorization code at the token endpoint, authenticating as
/// the issuer prefers (HTTP Basic unless it only takes the secret in the
/// form, or the provider wants it there: Apple).
pub async fn redeem_code(
    http: &reqwest::Client,
    metadata: &Metadata,
    client_id: &str,
    client_secret: &str,
    code: &str,
    redirect_uri: &str,
    secret_in_form: bool,
) -> Result<Tokens, IdentityError> {
    let methods = &metadata.token_endpoint_auth_methods_supported;
    let basic = !secret_in_form
        && (methods.is_empty() || methods.iter().any(|m| m == "client_secret_basic"));
    let form = {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", "authorization_code")
            .append_pair("code", code)
            .append_pair("redirect_uri", redirect_uri);
        if !basic {
            form.append_pair("client_id", client_id)
                .append_pair("client_secret", client_secret);
        }
        form.finish()
    };
    let mut request = http
        .post(&metadata.token_endpoint)
        .header(reqwest::header::ACCEPT, "application/json")
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        );
    if basic {
        // RFC 6749 2.3.1: both halves are form-encoded before Basic.
        let encode =
            |v: &str| url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>();
        request = request.basic_auth(encode(client_id), Some(encode(client_secret)));
    }
    let response = request.body(form).send().await.map_err(unreachable)?;
    let status = response.status();
    let body = response.bytes().await.map_err(unreachable)?;
    if !status.is_success() {
        return Err(failed(status, &body));
    }
    serde_json::from_slice(&body)
        .map_err(|err| IdentityError::Refused(format!("unreadable token answer: {err}")))
}

pub async fn userinfo(
    http: &reqwest::Client,
    endpoint: &str,
    access_token: &str,
) -> Result<Value, IdentityError> {
    get_json(http, endpoint, Some(access_token)).await
}
