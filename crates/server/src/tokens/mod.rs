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

mod key;
mod ring;

pub use key::Key;
pub use ring::{JwtError, KeyRing};

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chrono::Utc;

    use data_encoding::BASE64URL_NOPAD;
    use serde_json::{Value, json};

    use super::key::*;
    use super::ring::*;

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
        serde_json::from_str(include_str!(
            "../../tests/fixtures/rsa-2048.private.jwk.json"
        ))
        .unwrap()
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
