//! Checking an OpenID Connect ID token (OpenID Connect Core 3.1.3.7): the
//! signature against the issuer's published keys (RS256 or ES256 only; never
//! `none` or a shared secret), then issuer, audience, expiry and nonce.

use std::future::Future;
use std::sync::Arc;

use aws_lc_rs::signature::{
    ECDSA_P256_SHA256_FIXED, RSA_PKCS1_2048_8192_SHA256, RsaPublicKeyComponents, UnparsedPublicKey,
};
use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use serde_json::Value;

use super::IdentityError;
use super::oidc::KeySet;

/// Clocks differ a little between us and the provider.
const LEEWAY_SECS: i64 = 60;

/// Which check an ID token failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenRejected {
    #[error("it is not a signed JWT")]
    Malformed,
    #[error("it is signed with {0}, which is not accepted")]
    Algorithm(String),
    #[error("its signature does not match the provider's keys")]
    Signature,
    #[error("it was issued by {0}, not by the provider")]
    Issuer(String),
    #[error("it was issued for another application")]
    Audience,
    #[error("it has expired")]
    Expired,
    #[error("it was issued in the future")]
    NotYetValid,
    #[error("its nonce does not match this sign-in")]
    Nonce,
    #[error("it has no `{0}`")]
    Claim(&'static str),
}

pub struct Expected<'a> {
    pub issuers: &'a [String],
    pub audiences: &'a [String],
    /// The nonce this sign-in sent; `None` when it sent none, and then the
    /// token must carry none either.
    pub nonce: Option<&'a str>,
}

/// Checks `token` and returns its claims. `keys(kid, refresh)` gives the
/// issuer's key set; it is asked again with `refresh` when no cached key
/// checks the signature (the issuer rotated its keys).
pub async fn check<F, Fut>(
    token: &str,
    expected: &Expected<'_>,
    keys: F,
) -> Result<Value, IdentityError>
where
    F: Fn(Option<String>, bool) -> Fut,
    Fut: Future<Output = Result<Arc<KeySet>, IdentityError>>,
{
    let parts: Vec<&str> = token.trim().split('.').collect();
    let [header, payload, signature] = parts[..] else {
        return Err(TokenRejected::Malformed.into());
    };
    let decode = |part: &str| {
        BASE64URL_NOPAD
            .decode(part.trim_end_matches('=').as_bytes())
            .ok()
    };
    let header: Value = decode(header)
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or(TokenRejected::Malformed)?;
    let claims: Value = decode(payload)
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .filter(Value::is_object)
        .ok_or(TokenRejected::Malformed)?;
    let signature = decode(signature).ok_or(TokenRejected::Malformed)?;
    let alg = header.get("alg").and_then(Value::as_str).unwrap_or("none");
    if !matches!(alg, "RS256" | "ES256") {
        return Err(TokenRejected::Algorithm(alg.to_owned()).into());
    }
    let kid = header.get("kid").and_then(Value::as_str).map(str::to_owned);
    let message = &token.trim().as_bytes()[..token.trim().rfind('.').unwrap_or(0)];

    let signed_by = |set: Arc<KeySet>| {
        set.find(kid.as_deref())
            .into_iter()
            .any(|jwk| verifies(jwk, alg, message, &signature))
    };
    if !signed_by(keys(kid.clone(), false).await?) && !signed_by(keys(kid.clone(), true).await?) {
        return Err(TokenRejected::Signature.into());
    }
    check_claims(&claims, expected, Utc::now().timestamp())?;
    Ok(claims)
}

fn verifies(jwk: &Value, alg: &str, message: &[u8], signature: &[u8]) -> bool {
    let field = |name: &str| {
        jwk.get(name).and_then(Value::as_str).and_then(|v| {
            BASE64URL_NOPAD
                .decode(v.trim_end_matches('=').as_bytes())
                .ok()
        })
    };
    if let Some(key_alg) = jwk.get("alg").and_then(Value::as_str)
        && key_alg != alg
    {
        return false;
    }
    match (alg, jwk.get("kty").and_then(Value::as_str)) {
        ("RS256", Some("RSA")) => {
            let (Some(n), Some(e)) = (field("n"), field("e")) else {
                return false;
            };
            RsaPublicKeyComponents { n: &n, e: &e }
                .verify(&RSA_PKCS1_2048_8192_SHA256, message, signature)
                .is_ok()
        }
        ("ES256", Some("EC")) => {
            if jwk.get("crv").and_then(Value::as_str) != Some("P-256") {
                return false;
            }
            let (Some(x), Some(y)) = (field("x"), field("y")) else {
                return false;
            };
            let mut point = Vec::with_capacity(65);
            point.push(4);
            point.extend_from_slice(&x);
            point.extend_from_slice(&y);
            UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, point)
                .verify(message, signature)
                .is_ok()
        }
        _ => false,
    }
}

fn check_claims(claims: &Value, expected: &Expected<'_>, now: i64) -> Result<(), TokenRejected> {
    let issuer = claims
        .get("iss")
        .and_then(Value::as_str)
        .ok_or(TokenRejected::Claim("iss"))?;
    if !expected
        .issuers
        .iter()
        .any(|own| own.trim_end_matches('/') == issuer.trim_end_matches('/'))
    {
        return Err(TokenRejected::Issuer(issuer.to_owned()));
    }
    let audiences: Vec<&str> = match claims.get("aud") {
        Some(Value::String(aud)) => vec![aud.as_str()],
        Some(Value::Array(auds)) => auds.iter().filter_map(Value::as_str).collect(),
        _ => return Err(TokenRejected::Claim("aud")),
    };
    let ours = |aud: &str| expected.audiences.iter().any(|own| own == aud);
    if !audiences.iter().any(|aud| ours(aud)) {
        return Err(TokenRejected::Audience);
    }
    // With several audiences, the party it was issued to must be us.
    if let Some(azp) = claims.get("azp").and_then(Value::as_str)
        && audiences.len() > 1
        && !ours(azp)
    {
        return Err(TokenRejected::Audience);
    }
    let exp = claims
        .get("exp")
        .and_then(Value::as_i64)
        .ok_or(TokenRejected::Claim("exp"))?;
    if exp + LEEWAY_SECS <= now {
        return Err(TokenRejected::Expired);
    }
    if let Some(iat) = claims.get("iat").and_then(Value::as_i64)
        && iat - LEEWAY_SECS > now
    {
        return Err(TokenRejected::NotYetValid);
    }
    let nonce = claims.get("nonce").and_then(Value::as_str);
    match (expected.nonce, nonce) {
        (None, None) => Ok(()),
        (Some(wanted), Some(got)) if nonce_matches(wanted, got) => Ok(()),
        _ => Err(TokenRejected::Nonce),
    }
}

/// The nonce as sent, or (native sign-in SDKs, Apple's among them) its
/// SHA-256 in hex, which is what the token then carries.
fn nonce_matches(wanted: &str, got: &str) -> bool {
    use sha2::{Digest, Sha256};
    let hashed = Sha256::digest(wanted.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>();
    got == wanted || got == hashed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn expected<'a>(issuers: &'a [String], audiences: &'a [String]) -> Expected<'a> {
        Expected {
            issuers,
            audiences,
            nonce: Some("n-1"),
        }
    }

    #[test]
    fn each_claim_is_checked() {
        let issuers = vec!["https://id.example".to_owned()];
        let audiences = vec!["client".to_owned()];
        let now = 1_800_000_000;
        let good = json!({"iss": "https://id.example/", "aud": "client", "exp": now + 300,
                          "iat": now, "nonce": "n-1", "sub": "1"});
        assert_eq!(
            check_claims(&good, &expected(&issuers, &audiences), now),
            Ok(())
        );
        let with = |key: &str, value: Value| {
            let mut claims = good.clone();
            claims[key] = value;
            check_claims(&claims, &expected(&issuers, &audiences), now)
        };
        assert_eq!(
            with("iss", json!("https://evil.example")),
            Err(TokenRejected::Issuer("https://evil.example".into()))
        );
        assert_eq!(with("aud", json!("other")), Err(TokenRejected::Audience));
        assert_eq!(with("aud", json!(["other", "client"])), Ok(()));
        assert_eq!(with("exp", json!(now - 61)), Err(TokenRejected::Expired));
        assert_eq!(with("exp", json!(now - 30)), Ok(()), "within the leeway");
        assert_eq!(
            with("iat", json!(now + 3600)),
            Err(TokenRejected::NotYetValid)
        );
        assert_eq!(with("nonce", json!("n-2")), Err(TokenRejected::Nonce));
        let mut no_nonce = good.clone();
        no_nonce.as_object_mut().unwrap().remove("nonce");
        assert_eq!(
            check_claims(&no_nonce, &expected(&issuers, &audiences), now),
            Err(TokenRejected::Nonce)
        );
        let mut multi = good.clone();
        multi["aud"] = json!(["client", "other"]);
        multi["azp"] = json!("other");
        assert_eq!(
            check_claims(&multi, &expected(&issuers, &audiences), now),
            Err(TokenRejected::Audience)
        );
    }

    #[test]
    fn a_hashed_nonce_matches() {
        // SHA-256("abc")
        let hashed = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert!(nonce_matches("abc", hashed));
        assert!(nonce_matches("abc", "abc"));
        assert!(!nonce_matches("abc", "abd"));
    }

    #[tokio::test]
    async fn unsigned_and_shared_secret_tokens_are_refused() {
        let issuers = vec!["https://id.example".to_owned()];
        let audiences = vec!["client".to_owned()];
        let part = |v: Value| BASE64URL_NOPAD.encode(v.to_string().as_bytes());
        let claims = part(
            json!({"iss": "https://id.example", "aud": "client", "exp": 4_000_000_000i64, "nonce": "n-1"}),
        );
        for alg in ["none", "HS256"] {
            let token = format!("{}.{claims}.c2ln", part(json!({"alg": alg})));
            let result = check(&token, &expected(&issuers, &audiences), |_, _| async {
                Ok(Arc::new(KeySet::default()))
            })
            .await;
            assert!(
                matches!(
                    result,
                    Err(IdentityError::InvalidToken(TokenRejected::Algorithm(_)))
                ),
                "{alg}: {result:?}"
            );
        }
        assert!(matches!(
            check("not-a-jwt", &expected(&issuers, &audiences), |_, _| async {
                Ok(Arc::new(KeySet::default()))
            })
            .await,
            Err(IdentityError::InvalidToken(TokenRejected::Malformed))
        ));
    }
}
