//! Sign in with Apple's two peculiarities: its client secret is a short JWT
//! signed (ES256) with the team's key, and the person's name is sent once,
//! as the `user` form field of the first callback, never in the ID token.

use anyhow::{Context, anyhow};
use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
use chrono::Utc;
use data_encoding::{BASE64, BASE64URL_NOPAD};
use serde_json::{Value, json};

use crate::config::AppleSigning;

/// Apple accepts a client secret for at most six months; ours lives minutes.
const SECRET_LIFETIME_SECS: i64 = 300;

pub struct ClientSecretSigner {
    team_id: String,
    key_id: String,
    client_id: String,
    key: EcdsaKeyPair,
}

impl ClientSecretSigner {
    pub fn new(config: &AppleSigning, client_id: &str) -> anyhow::Result<Self> {
        if config.team_id.trim().is_empty() || config.key_id.trim().is_empty() {
            anyhow::bail!("apple.team_id and apple.key_id are required");
        }
        let pem = config
            .private_key
            .as_ref()
            .ok_or_else(|| anyhow!("apple.private_key (the .p8 key) is required"))?;
        let body: String = pem
            .expose()
            .lines()
            .filter(|line| !line.starts_with("-----"))
            .flat_map(|line| line.trim().chars())
            .collect();
        let der = BASE64
            .decode(body.as_bytes())
            .context("apple.private_key is not a PEM key")?;
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der)
            .or_else(|_| EcdsaKeyPair::from_private_key_der(&ECDSA_P256_SHA256_FIXED_SIGNING, &der))
            .map_err(|err| anyhow!("apple.private_key is not a P-256 key: {err}"))?;
        Ok(Self {
            team_id: config.team_id.trim().to_owned(),
            key_id: config.key_id.trim().to_owned(),
            client_id: client_id.to_owned(),
            key,
        })
    }

    /// A fresh client secret for one token request.
    pub fn sign(&self) -> Result<String, String> {
        let now = Utc::now().timestamp();
        let part = |value: Value| BASE64URL_NOPAD.encode(value.to_string().as_bytes());
        let signing_input = format!(
            "{}.{}",
            part(json!({"alg": "ES256", "kid": self.key_id})),
            part(json!({
                "iss": self.team_id,
                "iat": now,
                "exp": now + SECRET_LIFETIME_SECS,
                "aud": "https://appleid.apple.com",
                "sub": self.client_id,
            }))
        );
        let signature = self
            .key
            .sign(&SystemRandom::new(), signing_input.as_bytes())
            .map_err(|_| "the Apple client secret could not be signed".to_owned())?;
        Ok(format!(
            "{signing_input}.{}",
            BASE64URL_NOPAD.encode(signature.as_ref())
        ))
    }
}

/// Adds the name from Apple's first-callback `user` field
/// (`{"name":{"firstName","lastName"},"email"}`) to the ID token's claims.
pub fn add_first_sign_in_name(claims: &mut Value, user: &str) {
    let Ok(user) = serde_json::from_str::<Value>(user) else {
        return;
    };
    let part = |name: &str| {
        user.pointer(&format!("/name/{name}"))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let (given, family) = (part("firstName"), part("lastName"));
    let Value::Object(claims) = claims else {
        return;
    };
    if let Some(given) = &given {
        claims.entry("given_name").or_insert(json!(given));
    }
    if let Some(family) = &family {
        claims.entry("family_name").or_insert(json!(family));
    }
    let full = [given, family]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    if !full.is_empty() {
        claims.entry("name").or_insert(json!(full));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    #[test]
    fn the_client_secret_is_an_es256_jwt_apple_can_check() {
        let pair = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).unwrap();
        let der = pair.to_pkcs8v1().unwrap();
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            BASE64.encode(der.as_ref())
        );
        let signer = ClientSecretSigner::new(
            &AppleSigning {
                team_id: "TEAM123".into(),
                key_id: "KEY456".into(),
                private_key: Some(crate::config::Secret::new(pem)),
            },
            "app.prettyscore.web",
        )
        .unwrap();
        let secret = signer.sign().unwrap();
        let parts: Vec<&str> = secret.split('.').collect();
        let decode = |p: &str| -> Value {
            serde_json::from_slice(&BASE64URL_NOPAD.decode(p.as_bytes()).unwrap()).unwrap()
        };
        assert_eq!(decode(parts[0]), json!({"alg": "ES256", "kid": "KEY456"}));
        let claims = decode(parts[1]);
        assert_eq!(claims["iss"], "TEAM123");
        assert_eq!(claims["sub"], "app.prettyscore.web");
        assert_eq!(claims["aud"], "https://appleid.apple.com");
        let message = format!("{}.{}", parts[0], parts[1]);
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, pair.public_key().as_ref())
            .verify(
                message.as_bytes(),
                &BASE64URL_NOPAD.decode(parts[2].as_bytes()).unwrap(),
            )
            .expect("signed by the team's key");
    }

    #[test]
    fn the_first_callback_name_fills_missing_claims_only() {
        let mut claims = json!({"sub": "001", "email": "a@b.co"});
        add_first_sign_in_name(
            &mut claims,
            r#"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"a@b.co"}"#,
        );
        assert_eq!(claims["name"], "Ada Lovelace");
        assert_eq!(claims["given_name"], "Ada");
        let mut named = json!({"sub": "001", "name": "Countess"});
        add_first_sign_in_name(&mut named, r#"{"name":{"firstName":"Ada"}}"#);
        assert_eq!(named["name"], "Countess");
        let mut untouched = json!({"sub": "001"});
        add_first_sign_in_name(&mut untouched, "not json");
        assert_eq!(untouched, json!({"sub": "001"}));
    }
}
