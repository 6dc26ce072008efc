//! JWT signing keys and the JWS compact form of the tokens the server signs:
//! access tokens and device cookies; and the MAC of signed media URLs.
//!
//! Three sources, in this order: a JWK set of private keys from the
//! configuration (GoTrue's `GOTRUE_JWT_KEYS`: EC P-256, RSA or `oct`), an
//! HS256 secret from the configuration, or ES256 keys kept in the
//! `signing_keys` table, where the first instance to start generates one.
//! Every instance reads the same rows, and reloads them when it meets a `kid`
//! it does not know, so a rotation on one instance is seen by all. Retired
//! keys keep verifying (and stay in the JWKS) until the last token they signed
//! has expired.
//!
//! ES256 and RS256 are signed and verified with aws-lc-rs (already linked for
//! TLS): its P-256 arithmetic is several times faster than the pure-Rust
//! `p256` crate, and every signed-in request verifies a token. Public keys
//! are parsed once, when a key is loaded.
//!
//! Media URLs need no public-key signature: only this server reads them back.
//! Each key carries a media MAC key derived from its private material
//! (HMAC-SHA256 of a fixed label under the key), so media URLs rotate with the
//! signing keys and cost one HMAC to make or check.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use aws_lc_rs::encoding::AsBigEndian;
use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{
    ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair,
    ParsedPublicKey, RSA_PKCS1_2048_8192_SHA256, RSA_PKCS1_SHA256, RsaKeyPair,
    RsaPublicKeyComponents,
};
use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use hmac::{Hmac, Mac};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
};
use serde_json::{Value, json};
use sha2::Sha256;
use uuid::Uuid;

use crate::config::AuthConfig;
use crate::db::entities::signing_keys;

/// The label under which a key's media MAC key is derived.
const MEDIA_KEY_LABEL: &[u8] = b"prettyscore media URL v1";

enum Material {
    Es256 {
        pair: EcdsaKeyPair,
        public: ParsedPublicKey,
    },
    Rs256 {
        pair: RsaKeyPair,
        public: ParsedPublicKey,
        /// The private JWK as configured (RSA keys are never generated here).
        jwk: Value,
    },
    Hs256(Vec<u8>),
}

#[derive(Clone)]
pub struct Key {
    kid: Option<String>,
    material: Arc<Material>,
    /// HMAC-SHA256 keyed with this key's media MAC key, ready to clone.
    media_mac: Hmac<Sha256>,
    /// A short public fingerprint of the media MAC key, named in media
    /// tokens so the right key checks them (a `kid` may hold any character).
    media_id: String,
}

fn hmac(key: &[u8]) -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key")
}

/// RFC 5915 `ECPrivateKey` for a P-256 scalar, without the public point
/// (aws-lc computes it).
fn p256_private_der(d: &[u8]) -> anyhow::Result<Vec<u8>> {
    let d = d
        .strip_prefix(&[0][..])
        .filter(|_| d.len() == 33)
        .unwrap_or(d);
    if d.len() > 32 {
        bail!("the JWK's `d` is not a P-256 key");
    }
    let mut der = vec![0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20];
    der.extend(std::iter::repeat_n(0, 32 - d.len()));
    der.extend_from_slice(d);
    // [0] { OID prime256v1 }
    der.extend_from_slice(&[
        0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07,
    ]);
    Ok(der)
}

/// A big-endian unsigned integer without leading zero bytes.
fn minimal(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    &bytes[start..]
}

impl Key {
    fn new(kid: Option<String>, material: Material) -> Self {
        let secret: Vec<u8> = match &material {
            Material::Es256 { pair, .. } => pair
                .private_key()
                .as_be_bytes()
                .map(|bytes| bytes.as_ref().to_vec())
                .unwrap_or_default(),
            Material::Rs256 { jwk, .. } => jwk
                .get("d")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .as_bytes()
                .to_vec(),
            Material::Hs256(secret) => secret.clone(),
        };
        let mut derive = hmac(&secret);
        derive.update(MEDIA_KEY_LABEL);
        let media_key = derive.finalize().into_bytes();
        let mut fingerprint = hmac(&media_key);
        fingerprint.update(b"id");
        let media_id = BASE64URL_NOPAD.encode(&fingerprint.finalize().into_bytes()[..6]);
        Self {
            kid,
            material: Arc::new(material),
            media_mac: hmac(&media_key),
            media_id,
        }
    }

    fn alg(&self) -> &'static str {
        match *self.material {
            Material::Es256 { .. } => "ES256",
            Material::Rs256 { .. } => "RS256",
            Material::Hs256(_) => "HS256",
        }
    }

    fn es256(pair: EcdsaKeyPair) -> anyhow::Result<Material> {
        let public = ParsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, pair.public_key().as_ref())
            .map_err(|err| anyhow!("unusable P-256 public key: {err}"))?;
        Ok(Material::Es256 { pair, public })
    }

    /// Generates a fresh ES256 key with a random `kid`.
    pub fn generate_es256() -> Self {
        let pair =
            EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).expect("P-256 key generation");
        Self::new(
            Some(Uuid::new_v4().simple().to_string()),
            Self::es256(pair).expect("a generated key is usable"),
        )
    }

    /// Reads one private JWK: EC P-256 (`d` present), RSA (`d`, `p`, `q`,
    /// `dp`, `dq`, `qi` present) or `oct`.
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
                let pair = EcdsaKeyPair::from_private_key_der(
                    &ECDSA_P256_SHA256_FIXED_SIGNING,
                    &p256_private_der(&field("d")?)?,
                )
                .map_err(|err| anyhow!("the JWK's `d` is not a P-256 key: {err}"))?;
                if let (Ok(x), Ok(y)) = (field("x"), field("y")) {
                    let mut point = vec![4];
                    point.extend_from_slice(&x);
                    point.extend_from_slice(&y);
                    if pair.public_key().as_ref() != point.as_slice() {
                        bail!("the JWK's `x` and `y` are not the public key of its `d`");
                    }
                }
                Self::es256(pair)?
            }
            Some("RSA") => {
                if let Some(alg) = jwk.get("alg").and_then(Value::as_str)
                    && alg != "RS256"
                {
                    bail!("RSA keys sign RS256 only, not {alg}");
                }
                let (n, e) = (field("n")?, field("e")?);
                let components = aws_lc_rs::rsa::KeyPairComponents {
                    public_key: RsaPublicKeyComponents {
                        n: minimal(&n),
                        e: minimal(&e),
                    },
                    d: field("d")?,
                    p: field("p")?,
                    q: field("q")?,
                    dP: field("dp")?,
                    dQ: field("dq")?,
                    qInv: field("qi")?,
                };
                let pair = RsaKeyPair::from_components(&components)
                    .map_err(|err| anyhow!("the RSA JWK is not a usable key: {err}"))?;
                let public = components
                    .public_key
                    .to_parsed_public_key(&RSA_PKCS1_2048_8192_SHA256)
                    .map_err(|err| anyhow!("the RSA JWK's public key is unusable: {err}"))?;
                Material::Rs256 {
                    pair,
                    public,
                    jwk: jwk.clone(),
                }
            }
            Some("oct") => Material::Hs256(field("k")?),
            Some(other) => bail!("unsupported key type {other}: use EC P-256, RSA or oct"),
            None => bail!("the JWK has no `kty`"),
        };
        Ok(Self::new(kid, material))
    }

    /// The private JWK, as stored in the database.
    pub fn to_private_jwk(&self) -> Value {
        match &*self.material {
            Material::Es256 { pair, .. } => {
                let mut jwk = self.public_jwk().unwrap_or_default();
                let d = pair
                    .private_key()
                    .as_be_bytes()
                    .map(|bytes| BASE64URL_NOPAD.encode(bytes.as_ref()))
                    .unwrap_or_default();
                jwk["d"] = json!(d);
                jwk
            }
            Material::Rs256 { jwk, .. } => jwk.clone(),
            Material::Hs256(secret) => json!({
                "kty": "oct", "k": BASE64URL_NOPAD.encode(secret), "kid": self.kid, "alg": "HS256",
            }),
        }
    }

    /// The public JWK for the JWKS; `None` for shared secrets, never published.
    pub fn public_jwk(&self) -> Option<Value> {
        match &*self.material {
            Material::Es256 { pair, .. } => {
                let point = pair.public_key().as_ref();
                let (x, y) = point.get(1..).filter(|xy| xy.len() == 64)?.split_at(32);
                Some(json!({
                    "kty": "EC",
                    "crv": "P-256",
                    "x": BASE64URL_NOPAD.encode(x),
                    "y": BASE64URL_NOPAD.encode(y),
                    "kid": self.kid,
                    "alg": "ES256",
                    "use": "sig",
                    "key_ops": ["verify"],
                }))
            }
            Material::Rs256 { jwk, .. } => Some(json!({
                "kty": "RSA",
                "n": jwk["n"],
                "e": jwk["e"],
                "kid": self.kid,
                "alg": "RS256",
                "use": "sig",
                "key_ops": ["verify"],
            })),
            Material::Hs256(_) => None,
        }
    }

    fn sign(&self, message: &[u8]) -> Vec<u8> {
        match &*self.material {
            Material::Es256 { pair, .. } => pair
                .sign(&SystemRandom::new(), message)
                .expect("ES256 signing")
                .as_ref()
                .to_vec(),
            Material::Rs256 { pair, .. } => {
                let mut signature = vec![0; pair.public_modulus_len()];
                pair.sign(
                    &RSA_PKCS1_SHA256,
                    &SystemRandom::new(),
                    message,
                    &mut signature,
                )
                .expect("RS256 signing");
                signature
            }
            Material::Hs256(secret) => {
                let mut mac = hmac(secret);
                mac.update(message);
                mac.finalize().into_bytes().to_vec()
            }
        }
    }

    fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        match &*self.material {
            Material::Es256 { public, .. } | Material::Rs256 { public, .. } => {
                public.verify_sig(message, signature).is_ok()
            }
            Material::Hs256(secret) => {
                let mut mac = hmac(secret);
                mac.update(message);
                mac.verify_slice(signature).is_ok()
            }
        }
    }

    /// The media MAC of `key` until `exp`.
    fn media_mac(&self, key: &str, exp: i64) -> Hmac<Sha256> {
        let mut mac = self.media_mac.clone();
        mac.update(key.as_bytes());
        mac.update(&[0]);
        mac.update(exp.to_string().as_bytes());
        mac
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

/// Tokens whose signature has been checked, until they expire: a client
/// sends the same access token with every request for up to an hour, and the
/// signature check is the costliest step of a signed-in request. Only a
/// cache: every instance checks a token it has not seen.
const VERIFIED_CACHE_ENTRIES: usize = 10_000;

pub struct KeyRing {
    source: Source,
    verified: std::sync::Mutex<std::collections::HashMap<String, Value>>,
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

    fn fixed(
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

    async fn verify_signature(
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

    fn rsa_jwk() -> Value {
        serde_json::from_str(include_str!("../tests/fixtures/rsa-2048.private.jwk.json")).unwrap()
    }

    #[test]
    fn an_rsa_private_jwk_signs_rs256_and_publishes_n_and_e() {
        let jwk = rsa_jwk();
        let key = Key::from_private_jwk(&jwk).unwrap();
        let ring = ring(key.clone(), vec![key.clone()]);
        let token = ring.sign(&json!({"sub": "x", "exp": 1}));
        let header: Value = serde_json::from_slice(
            &BASE64URL_NOPAD
                .decode(token.split('.').next().unwrap().as_bytes())
                .unwrap(),
        )
        .unwrap();
        assert_eq!(header["alg"], "RS256");
        assert_eq!(header["kid"], "test-rsa-1");
        assert!(check(&ring, &token));
        let public = &ring.jwks()["keys"][0];
        assert_eq!(public["kty"], "RSA");
        assert_eq!(public["n"], jwk["n"]);
        assert_eq!(public["e"], jwk["e"]);
        assert_eq!(public["alg"], "RS256");
        assert!(public.get("d").is_none() && public.get("p").is_none());
        // A token of another key does not verify.
        let other = ring_of_es256();
        assert!(!check(&ring, &other.sign(&json!({"exp": 1}))));
    }

    fn ring_of_es256() -> KeyRing {
        let key = Key::generate_es256();
        ring(key.clone(), vec![key])
    }

    #[test]
    fn an_inconsistent_rsa_jwk_is_refused_with_a_clear_message() {
        let mut jwk = rsa_jwk();
        jwk["d"] = jwk["p"].clone();
        let err = Key::from_private_jwk(&jwk).err().unwrap();
        assert!(err.to_string().contains("not a usable key"), "{err}");
        let err = Key::from_private_jwk(&json!({"kty": "OKP"})).err().unwrap();
        assert!(
            err.to_string().contains("unsupported key type OKP"),
            "{err}"
        );
    }

    #[test]
    fn an_ec_jwk_whose_public_part_does_not_match_is_refused() {
        let mut jwk = Key::generate_es256().to_private_jwk();
        jwk["x"] = Key::generate_es256().to_private_jwk()["x"].clone();
        assert!(Key::from_private_jwk(&jwk).is_err());
    }

    #[tokio::test]
    async fn a_verified_token_is_remembered_until_it_expires_and_forgeries_never_are() {
        let db = sea_orm::Database::connect("sqlite::memory:").await.unwrap();
        let ring = ring_of_es256();
        let token = ring.sign(&json!({"sub": "x", "exp": Utc::now().timestamp() + 60}));
        assert!(ring.verify(&db, &token).await.is_ok());
        assert!(ring.verified.lock().unwrap().contains_key(&token));
        assert!(ring.verify(&db, &token).await.is_ok());
        // Change a character inside the signature, not its last one: the last
        // base64url character carries padding bits, and changing those makes
        // the token malformed rather than forged.
        let at = token.len() - 10;
        let swapped = if &token[at..=at] == "A" { "B" } else { "A" };
        let forged = format!("{}{swapped}{}", &token[..at], &token[at + 1..]);
        assert_eq!(ring.verify(&db, &forged).await, Err(JwtError::BadSignature));
        assert!(!ring.verified.lock().unwrap().contains_key(&forged));
        // A remembered token stops working when it expires.
        let short = ring.sign(&json!({"sub": "x", "exp": Utc::now().timestamp() + 1}));
        assert!(ring.verify(&db, &short).await.is_ok());
        ring.verified.lock().unwrap().get_mut(&short).unwrap()["exp"] =
            json!(Utc::now().timestamp() - 1);
        assert_eq!(ring.verify(&db, &short).await, Err(JwtError::Expired));
    }

    #[tokio::test]
    async fn media_tokens_grant_one_key_until_they_expire_and_rotate_with_the_keys() {
        let db = sea_orm::Database::connect("sqlite::memory:").await.unwrap();
        let ring = ring_of_es256();
        let exp = Utc::now().timestamp() + 60;
        let token = ring.sign_media("photos/a.jpg", exp);
        assert!(ring.verify_media(&db, "photos/a.jpg", &token).await);
        assert!(!ring.verify_media(&db, "photos/b.jpg", &token).await);
        let expired = ring.sign_media("photos/a.jpg", Utc::now().timestamp() - 1);
        assert!(!ring.verify_media(&db, "photos/a.jpg", &expired).await);
        let (stamp, rest) = token.split_once('.').unwrap();
        let later = format!("{}.{rest}", stamp.parse::<i64>().unwrap() + 1);
        assert!(!ring.verify_media(&db, "photos/a.jpg", &later).await);
        // Another key (another server, or the key after a rotation) made it.
        assert!(
            !ring_of_es256()
                .verify_media(&db, "photos/a.jpg", &token)
                .await
        );
        assert!(
            token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        );
    }
}
