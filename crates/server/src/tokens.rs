//! JWT signing keys and the JWS compact form of the tokens the server signs:
//! access tokens, signed media URLs and device cookies.
//!
//! Three sources, in this order: a JWK set of private keys from the
//! configuration (GoTrue's `GOTRUE_JWT_KEYS`), an HS256 secret from the
//! configuration, or ES256 keys kept in the `signing_keys` table, where the
//! first instance to start generates one. Every instance reads the same rows,
//! and reloads them when it meets a `kid` it does not know, so a rotation on
//! one instance is seen by all. Retired keys keep verifying (and stay in the
//! JWKS) until the last token they signed has expired.

use std::sync::RwLock;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use hmac::{Hmac, Mac};
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
};
use serde_json::{Value, json};
use sha2::Sha256;
use uuid::Uuid;

use crate::config::AuthConfig;
use crate::db::entities::signing_keys;

#[derive(Clone)]
enum Material {
    Es256(SigningKey),
    Hs256(Vec<u8>),
}

#[derive(Clone)]
pub struct Key {
    kid: Option<String>,
    material: Material,
}

impl Key {
    fn alg(&self) -> &'static str {
        match self.material {
            Material::Es256(_) => "ES256",
            Material::Hs256(_) => "HS256",
        }
    }

    /// Generates a fresh ES256 key with a random `kid`.
    pub fn generate_es256() -> Self {
        Self {
            kid: Some(Uuid::new_v4().simple().to_string()),
            material: Material::Es256(SigningKey::random(&mut rand::rngs::OsRng)),
        }
    }

    /// Reads one private JWK: EC P-256 (`d` present) or `oct`.
    pub fn from_private_jwk(jwk: &Value) -> anyhow::Result<Self> {
        let field = |name: &str| -> anyhow::Result<Vec<u8>> {
            let text = jwk
                .get(name)
                .and_then(Value::as_str)
                .ok_or_else(|| anyhow!("the JWK has no `{name}`"))?;
            BASE64URL_NOPAD
                .decode(text.trim_end_matches('=').as_bytes())
                .with_context(|| format!("the JWK's `{name}` is not base64url"))
        };
        let kid = jwk.get("kid").and_then(Value::as_str).map(str::to_owned);
        let material = match jwk.get("kty").and_then(Value::as_str) {
            Some("EC") => {
                if jwk.get("crv").and_then(Value::as_str) != Some("P-256") {
                    bail!("only P-256 EC keys (ES256) are supported");
                }
                let d = field("d")?;
                Material::Es256(
                    SigningKey::from_slice(&d).context("the JWK's `d` is not a P-256 key")?,
                )
            }
            Some("oct") => Material::Hs256(field("k")?),
            Some(other) => bail!("unsupported key type {other}: use EC P-256 or oct"),
            None => bail!("the JWK has no `kty`"),
        };
        Ok(Self { kid, material })
    }

    /// The private JWK, as stored in the database.
    pub fn to_private_jwk(&self) -> Value {
        match &self.material {
            Material::Es256(key) => {
                let mut jwk = self.public_jwk().unwrap_or_default();
                jwk["d"] = json!(BASE64URL_NOPAD.encode(&key.to_bytes()));
                jwk
            }
            Material::Hs256(secret) => json!({
                "kty": "oct", "k": BASE64URL_NOPAD.encode(secret), "kid": self.kid, "alg": "HS256",
            }),
        }
    }

    /// The public JWK for the JWKS; `None` for shared secrets, never published.
    pub fn public_jwk(&self) -> Option<Value> {
        let Material::Es256(key) = &self.material else {
            return None;
        };
        let point = key.verifying_key().to_encoded_point(false);
        Some(json!({
            "kty": "EC",
            "crv": "P-256",
            "x": BASE64URL_NOPAD.encode(point.x()?),
            "y": BASE64URL_NOPAD.encode(point.y()?),
            "kid": self.kid,
            "alg": "ES256",
            "use": "sig",
            "key_ops": ["verify"],
        }))
    }

    fn sign(&self, message: &[u8]) -> Vec<u8> {
        match &self.material {
            Material::Es256(key) => {
                let signature: Signature = key.sign(message);
                signature.to_bytes().to_vec()
            }
            Material::Hs256(secret) => {
                let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key");
                mac.update(message);
                mac.finalize().into_bytes().to_vec()
            }
        }
    }

    fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        match &self.material {
            Material::Es256(key) => {
                let verifying: &VerifyingKey = key.verifying_key();
                Signature::from_slice(signature)
                    .is_ok_and(|signature| verifying.verify(message, &signature).is_ok())
            }
            Material::Hs256(secret) => {
                let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key");
                mac.update(message);
                mac.verify_slice(signature).is_ok()
            }
        }
    }
}

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

enum Source {
    Config,
    Database,
}

struct Ring {
    signer: Key,
    verifiers: Vec<Key>,
    loaded_at: Instant,
}

pub struct KeyRing {
    source: Source,
    /// The HS256 secret of `auth.jwt_secret`, which always verifies.
    secret: Option<Key>,
    token_ttl: Duration,
    ring: RwLock<Ring>,
}

impl KeyRing {
    pub async fn load(db: &DatabaseConnection, config: &AuthConfig) -> anyhow::Result<Self> {
        let token_ttl = Duration::from_secs(config.jwt_expiry_secs);
        let secret = config.jwt_secret.as_ref().map(|secret| Key {
            kid: None,
            material: Material::Hs256(secret.expose().as_bytes().to_vec()),
        });
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

    fn fixed(
        source: Source,
        signer: Key,
        verifiers: Vec<Key>,
        secret: Option<Key>,
        token_ttl: Duration,
    ) -> Self {
        Self {
            source,
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

    /// The public keys, for `/.well-known/jwks.json`.
    pub fn jwks(&self) -> Value {
        let ring = self.ring.read().expect("key ring lock");
        let keys: Vec<Value> = ring.verifiers.iter().filter_map(Key::public_jwk).collect();
        json!({ "keys": keys })
    }

    /// Verifies the signature and expiry and returns the claims.
    pub async fn verify(&self, db: &DatabaseConnection, token: &str) -> Result<Value, JwtError> {
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

    fn check(&self, alg: &str, kid: Option<&str>, message: &[u8], signature: &[u8]) -> bool {
        let ring = self.ring.read().expect("key ring lock");
        ring.verifiers
            .iter()
            .chain(self.secret.iter())
            .filter(|key| key.alg() == alg)
            .filter(|key| kid.is_none() || key.kid.is_none() || key.kid.as_deref() == kid)
            .any(|key| key.verify(message, signature))
    }

    /// Reloads database keys at most once a second; true if it did.
    async fn maybe_reload(&self, db: &DatabaseConnection) -> bool {
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

fn sign_with(key: &Key, claims: &Value) -> String {
    let mut header = json!({"alg": key.alg(), "typ": "JWT"});
    if let Some(kid) = &key.kid {
        header["kid"] = json!(kid);
    }
    let signing_input = format!(
        "{}.{}",
        BASE64URL_NOPAD.encode(header.to_string().as_bytes()),
        BASE64URL_NOPAD.encode(claims.to_string().as_bytes())
    );
    let signature = key.sign(signing_input.as_bytes());
    format!("{signing_input}.{}", BASE64URL_NOPAD.encode(&signature))
}

async fn insert_key(db: &DatabaseConnection, key: &Key) -> anyhow::Result<()> {
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
async fn load_from_database(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(signer: Key, verifiers: Vec<Key>) -> KeyRing {
        KeyRing::fixed(
            Source::Config,
            signer,
            verifiers,
            None,
            Duration::from_secs(60),
        )
    }

    fn check(ring: &KeyRing, token: &str) -> bool {
        let (message, signature) = token.rsplit_once('.').unwrap();
        let header: Value = serde_json::from_slice(
            &BASE64URL_NOPAD
                .decode(message.split('.').next().unwrap().as_bytes())
                .unwrap(),
        )
        .unwrap();
        ring.check(
            header["alg"].as_str().unwrap(),
            header["kid"].as_str(),
            message.as_bytes(),
            &BASE64URL_NOPAD.decode(signature.as_bytes()).unwrap(),
        )
    }

    #[test]
    fn es256_tokens_verify_with_their_key_and_not_with_another() {
        let key = Key::generate_es256();
        let ring_a = ring(key.clone(), vec![key]);
        let other = Key::generate_es256();
        let ring_b = ring(other.clone(), vec![other]);
        let token = ring_a.sign(&json!({"sub": "x", "exp": 1}));
        assert!(check(&ring_a, &token));
        assert!(!check(&ring_b, &token));
        let mut tampered = token.clone();
        let at = token.find('.').unwrap() + 3;
        tampered.replace_range(
            at..at + 1,
            if &token[at..at + 1] == "A" { "B" } else { "A" },
        );
        assert!(!check(&ring_a, &tampered));
    }

    #[test]
    fn a_private_jwk_round_trips_and_the_public_one_hides_d() {
        let key = Key::generate_es256();
        let private = key.to_private_jwk();
        let again = Key::from_private_jwk(&private).unwrap();
        assert_eq!(again.public_jwk(), key.public_jwk());
        let public = key.public_jwk().unwrap();
        assert!(public.get("d").is_none());
        assert_eq!(public["alg"], "ES256");
    }

    #[test]
    fn hs256_keys_are_never_published() {
        let key = Key::from_private_jwk(&json!({"kty": "oct", "k": "c2VjcmV0"})).unwrap();
        assert!(key.public_jwk().is_none());
        let ring = ring(key.clone(), vec![key]);
        assert_eq!(ring.jwks(), json!({"keys": []}));
        let token = ring.sign(&json!({"exp": 1}));
        assert!(check(&ring, &token));
    }

    #[test]
    fn rsa_keys_are_refused_with_a_clear_message() {
        let err = Key::from_private_jwk(&json!({"kty": "RSA"})).err().unwrap();
        assert!(
            err.to_string().contains("unsupported key type RSA"),
            "{err}"
        );
    }
}
