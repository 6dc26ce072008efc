//! One signing key: its material (EC P-256, RSA or an HS256 secret), JWK
//! import and export, signing and verifying, and the media MAC key derived
//! from it.

use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use aws_lc_rs::encoding::AsBigEndian;
use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{
    ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair,
    ParsedPublicKey, RSA_PKCS1_2048_8192_SHA256, RSA_PKCS1_SHA256, RsaKeyPair,
    RsaPublicKeyComponents,
};
use data_encoding::BASE64URL_NOPAD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use uuid::Uuid;

/// The label under which a key's media MAC key is derived.
pub(super) const MEDIA_KEY_LABEL: &[u8] = b"prettyscore media URL v1";

pub(super) enum Material {
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
    pub(super) kid: Option<String>,
    pub(super) material: Arc<Material>,
    /// HMAC-SHA256 keyed with this key's media MAC key, ready to clone.
    pub(super) media_mac: Hmac<Sha256>,
    /// A short public fingerprint of the media MAC key, named in media
    /// tokens so the right key checks them (a `kid` may hold any character).
    pub(super) media_id: String,
}

pub(super) fn hmac(key: &[u8]) -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key")
}

/// RFC 5915 `ECPrivateKey` for a P-256 scalar, without the public point
/// (aws-lc computes it).
pub(super) fn p256_private_der(d: &[u8]) -> anyhow::Result<Vec<u8>> {
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
pub(super) fn minimal(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    &bytes[start..]
}

impl Key {
    pub(super) fn new(kid: Option<String>, material: Material) -> Self {
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

    pub(super) fn alg(&self) -> &'static str {
        match *self.material {
            Material::Es256 { .. } => "ES256",
            Material::Rs256 { .. } => "RS256",
            Material::Hs256(_) => "HS256",
        }
    }

    pub(super) fn es256(pair: EcdsaKeyPair) -> anyhow::Result<Material> {
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

    pub(super) fn sign(&self, message: &[u8]) -> Vec<u8> {
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

    pub(super) fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
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
    pub(super) fn media_mac(&self, key: &str, exp: i64) -> Hmac<Sha256> {
        let mut mac = self.media_mac.clone();
        mac.update(key.as_bytes());
        mac.update(&[0]);
        mac.update(exp.to_string().as_bytes());
        mac
    }
}

pub(super) fn sign_with(key: &Key, claims: &Value) -> String {
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
