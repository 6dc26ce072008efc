//! The key ring: which key signs and which verify, where they come from
//! (configuration or the `signing_keys` table), rotation, the JWKS, and
//! checking a token.

use std::sync::RwLock;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use hmac::Mac;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::config::AuthConfig;
use crate::db::entities::signing_keys;

use super::key::{Key, Material, sign_with};

/// Why a token was refused; the text follows GoTrue's "invalid JWT: …".
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum JwtError {
    #[error("invalid JWT: unable to parse or verify signature, token is malformed")]
    Malformed,
    #[error("invalid JWT: unable to parse or verify signature, signature is invalid")]
    BadSignature,
    #[error(
        "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired"
    )]
    Expired,
}

pub(super) enum Source {
    Config,
    Database,
}

pub(super) struct Ring {
    pub(super) signer: Key,
    pub(super) verifiers: Vec<Key>,
    pub(super) loaded_at: Instant,
}

/// Tokens whose signature has been checked, until they expire: a client
/// sends the same access token with every request for up to an hour, and the
/// signature check is the costliest step of a signed-in request. Only a
/// cache: every instance checks a token it has not seen.
pub(super) const VERIFIED_CACHE_ENTRIES: usize = 10_000;

pub struct KeyRing {
    source: Source,
    pub(super) verified: std::sync::Mutex<std::collections::HashMap<String, Value>>,
    /// The HS256 secret of `auth.jwt_secret`, which always verifies.
    secret: Option<Key>,
    token_ttl: Duration,
    ring: RwLock<Ring>,
}

impl KeyRing {
    pub async fn load(db: &DatabaseConnection, config: &AuthConfig) -> anyhow::Result<Self> {
        let token_ttl = Duration::from_secs(config.jwt_expiry_secs);
        let secret = config
            .jwt_secret
            .as_ref()
            .map(|secret| Key::new(None, Material::Hs256(secret.expose().as_bytes().to_vec())));
        if let Some(keys) = &config.jwt_keys {
            let set: Value =
                serde_json::from_str(keys.expose()).context("auth.jwt_keys is not JSON")?;
            let list = set.get("keys").unwrap_or(&set);
            let keys = list
                .as_array()
                .ok_or_else(|| anyhow!("auth.jwt_keys must be a JWK set or an array of JWKs"))?
                .iter()
                .map(Key::from_private_jwk)
                .collect::<anyhow::Result<Vec<_>>>()
                .context("auth.jwt_keys holds an unusable key")?;
            let signer = keys
                .first()
                .cloned()
                .ok_or_else(|| anyhow!("auth.jwt_keys is empty"))?;
            return Ok(Self::fixed(Source::Config, signer, keys, secret, token_ttl));
        }
        if let Some(secret) = secret {
            return Ok(Self::fixed(
                Source::Config,
                secret.clone(),
                vec![],
                Some(secret),
                token_ttl,
            ));
        }
        let (signer, verifiers) = load_from_database(db, token_ttl).await?;
        Ok(Self::fixed(
            Source::Database,
            signer,
            verifiers,
            None,
            token_ttl,
        ))
    }

    pub(super) fn fixed(
        source: Source,
        signer: Key,
        verifiers: Vec<Key>,
        secret: Option<Key>,
        token_ttl: Duration,
    ) -> Self {
        Self {
            source,
            verified: std::sync::Mutex::new(std::collections::HashMap::new()),
            secret,
            token_ttl,
            ring: RwLock::new(Ring {
                signer,
                verifiers,
                loaded_at: Instant::now(),
            }),
        }
    }

    /// Signs `claims` as a compact JWS with the current key.
    pub fn sign(&self, claims: &Value) -> String {
        let ring = self.ring.read().expect("key ring lock");
        sign_with(&ring.signer, claims)
    }

    /// A media token for the object `key`, good until `exp` (unix seconds):
    /// `<exp>.<key id>.<HMAC-SHA256>`, all URL-safe.
    pub fn sign_media(&self, key: &str, exp: i64) -> String {
        let ring = self.ring.read().expect("key ring lock");
        let signer = &ring.signer;
        let mac = signer.media_mac(key, exp).finalize().into_bytes();
        format!("{exp}.{}.{}", signer.media_id, BASE64URL_NOPAD.encode(&mac))
    }

    /// Whether `token` is a live media token of this server for exactly `key`.
    pub async fn verify_media(&self, db: &DatabaseConnection, key: &str, token: &str) -> bool {
        let Some((exp, rest)) = token.split_once('.') else {
            return false;
        };
        let Some((id, mac)) = rest.split_once('.') else {
            return false;
        };
        let (Ok(exp), Ok(mac)) = (exp.parse::<i64>(), BASE64URL_NOPAD.decode(mac.as_bytes()))
        else {
            return false;
        };
        if exp <= Utc::now().timestamp() {
            return false;
        }
        let check = |ring: &Self| {
            let keys = ring.ring.read().expect("key ring lock");
            let mut candidates = keys
                .verifiers
                .iter()
                .chain(std::iter::once(&keys.signer))
                .chain(ring.secret.iter())
                .filter(|candidate| candidate.media_id == id)
                .peekable();
            let known = candidates.peek().is_some();
            let valid = candidates
                .any(|candidate| candidate.media_mac(key, exp).verify_slice(&mac).is_ok());
            (known, valid)
        };
        match check(self) {
            (_, true) => true,
            (true, false) => false,
            (false, false) => self.maybe_reload(db).await && check(self).1,
        }
    }

    /// The public keys, for `/.well-known/jwks.json`.
    pub fn jwks(&self) -> Value {
        let ring = self.ring.read().expect("key ring lock");
        let keys: Vec<Value> = ring.verifiers.iter().filter_map(Key::public_jwk).collect();
        json!({ "keys": keys })
    }

    /// Verifies the signature and expiry and returns the claims.
    pub async fn verify(&self, db: &DatabaseConnection, token: &str) -> Result<Value, JwtError> {
        let cached = self
            .verified
            .lock()
            .expect("verified tokens lock")
            .get(token)
            .cloned();
        if let Some(claims) = cached {
            let exp = claims.get("exp").and_then(Value::as_i64).unwrap_or(0);
            if exp <= Utc::now().timestamp() {
                self.verified
                    .lock()
                    .expect("verified tokens lock")
                    .remove(token);
                return Err(JwtError::Expired);
            }
            return Ok(claims);
        }
        let claims = self.verify_signature(db, token).await?;
        let mut verified = self.verified.lock().expect("verified tokens lock");
        if verified.len() >= VERIFIED_CACHE_ENTRIES {
            let now = Utc::now().timestamp();
            verified.retain(|_, claims| claims["exp"].as_i64().unwrap_or(0) > now);
            if verified.len() >= VERIFIED_CACHE_ENTRIES {
                verified.clear();
            }
        }
        verified.insert(token.to_owned(), claims.clone());
        Ok(claims)
    }

    pub(super) async fn verify_signature(
        &self,
        db: &DatabaseConnection,
        token: &str,
    ) -> Result<Value, JwtError> {
        let parts: Vec<&str> = token.split('.').collect();
        let [header, payload, signature] = parts[..] else {
            return Err(JwtError::Malformed);
        };
        let decode = |part: &str| BASE64URL_NOPAD.decode(part.as_bytes()).ok();
        let header: Value = decode(header)
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or(JwtError::Malformed)?;
        let claims: Value = decode(payload)
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or(JwtError::Malformed)?;
        let signature = decode(signature).ok_or(JwtError::Malformed)?;
        let alg = header
            .get("alg")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let kid = header.get("kid").and_then(Value::as_str);
        let message = &token.as_bytes()[..token.rfind('.').unwrap_or(0)];

        let mut verified = self.check(alg, kid, message, &signature);
        if !verified && kid.is_some() && self.maybe_reload(db).await {
            verified = self.check(alg, kid, message, &signature);
        }
        if !verified {
            return Err(JwtError::BadSignature);
        }
        let exp = claims
            .get("exp")
            .and_then(Value::as_i64)
            .ok_or(JwtError::Malformed)?;
        if exp <= Utc::now().timestamp() {
            return Err(JwtError::Expired);
        }
        Ok(claims)
    }

    pub(super) fn check(
        &self,
        alg: &str,
        kid: Option<&str>,
        message: &[u8],
        signature: &[u8],
    ) -> bool {
        let ring = self.ring.read().expect("key ring lock");
        ring.verifiers
            .iter()
            .chain(self.secret.iter())
            .filter(|key| key.alg() == alg)
            .filter(|key| kid.is_none() || key.kid.is_none() || key.kid.as_deref() == kid)
            .any(|key| key.verify(message, signature))
    }

    /// Reloads database keys at most once a second; true if it did.
    pub(super) async fn maybe_reload(&self, db: &DatabaseConnection) -> bool {
        if !matches!(self.source, Source::Database) {
            return false;
        }
        {
            let ring = self.ring.read().expect("key ring lock");
            if ring.loaded_at.elapsed() < Duration::from_secs(1) {
                return false;
            }
        }
        match load_from_database(db, self.token_ttl).await {
            Ok((signer, verifiers)) => {
                *self.ring.write().expect("key ring lock") = Ring {
                    signer,
                    verifiers,
                    loaded_at: Instant::now(),
                };
                // A key may have been withdrawn: tokens it signed must stop
                // working now, not when they expire.
                self.verified.lock().expect("verified tokens lock").clear();
                true
            }
            Err(err) => {
                tracing::warn!(error = ?err, "could not reload the signing keys");
                false
            }
        }
    }

    /// Reloads database keys every minute, so a rotation done elsewhere is
    /// picked up for signing too.
    pub fn spawn_refresh(self: &std::sync::Arc<Self>, db: DatabaseConnection) {
        if !matches!(self.source, Source::Database) {
            return;
        }
        let ring = std::sync::Arc::clone(self);
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(Duration::from_secs(60));
            interval.tick().await;
            loop {
                interval.tick().await;
                ring.maybe_reload(&db).await;
            }
        });
    }

    /// Generates a new database key that signs from now on and retires the
    /// others (they keep verifying until their tokens expire).
    pub async fn rotate(&self, db: &DatabaseConnection) -> anyhow::Result<String> {
        if !matches!(self.source, Source::Database) {
            bail!("the signing keys come from the configuration; rotate them there");
        }
        let key = Key::generate_es256();
        let kid = key.kid.clone().unwrap_or_default();
        signing_keys::Entity::update_many()
            .col_expr(
                signing_keys::Column::RetiredAt,
                sea_orm::sea_query::Expr::value(Utc::now()),
            )
            .filter(signing_keys::Column::RetiredAt.is_null())
            .exec(db)
            .await?;
        insert_key(db, &key).await?;
        let (signer, verifiers) = load_from_database(db, self.token_ttl).await?;
        *self.ring.write().expect("key ring lock") = Ring {
            signer,
            verifiers,
            loaded_at: Instant::now(),
        };
        Ok(kid)
    }
}

pub(super) async fn insert_key(db: &DatabaseConnection, key: &Key) -> anyhow::Result<()> {
    signing_keys::ActiveModel {
        id: Set(Uuid::now_v7()),
        kid: Set(key.kid.clone().unwrap_or_default()),
        algorithm: Set(key.alg().to_owned()),
        private_jwk: Set(key.to_private_jwk()),
        created_at: Set(Utc::now()),
        retired_at: Set(None),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// The newest live key signs; keys retired less than a token lifetime ago
/// still verify. Generates the first key when there is none.
pub(super) async fn load_from_database(
    db: &DatabaseConnection,
    token_ttl: Duration,
) -> anyhow::Result<(Key, Vec<Key>)> {
    for _ in 0..2 {
        let rows = signing_keys::Entity::find()
            .order_by_desc(signing_keys::Column::CreatedAt)
            .all(db)
            .await?;
        let horizon =
            Utc::now() - chrono::Duration::from_std(token_ttl)? - chrono::Duration::minutes(5);
        let mut signer = None;
        let mut verifiers = Vec::new();
        for row in rows {
            if row.retired_at.is_some_and(|at| at < horizon) {
                continue;
            }
            let key = Key::from_private_jwk(&row.private_jwk)
                .with_context(|| format!("signing key {} is unusable", row.kid))?;
            if row.retired_at.is_none() && signer.is_none() {
                signer = Some(key.clone());
            }
            verifiers.push(key);
        }
        if let Some(signer) = signer {
            return Ok((signer, verifiers));
        }
        insert_key(db, &Key::generate_es256()).await?;
    }
    bail!("no signing key could be created")
}
