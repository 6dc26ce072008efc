//! Signing keys: the JWKS, ES256 tokens that verify against it, rotation,
//! keys from the configuration and the HS256 option.

use super::*;
use data_encoding::BASE64URL_NOPAD;
use p256::ecdsa::signature::Verifier;
use prettyscore_server::config::Secret;
use prettyscore_server::tokens::{Key, KeyRing};

async fn jwks(app: &TestApp) -> Reply {
    app.call(reqwest::Method::GET, "/.well-known/jwks.json", None, None)
        .await
}

/// Verifies an ES256 token with a public JWK, as auth-js's getClaims does.
fn verifies_with(jwk: &Value, token: &str) -> bool {
    let x = BASE64URL_NOPAD
        .decode(jwk["x"].as_str().unwrap().as_bytes())
        .unwrap();
    let y = BASE64URL_NOPAD
        .decode(jwk["y"].as_str().unwrap().as_bytes())
        .unwrap();
    let point = p256::EncodedPoint::from_affine_coordinates(
        x.as_slice().into(),
        y.as_slice().into(),
        false,
    );
    let key = p256::ecdsa::VerifyingKey::from_encoded_point(&point).unwrap();
    let (message, signature) = token.rsplit_once('.').unwrap();
    let signature =
        p256::ecdsa::Signature::from_slice(&BASE64URL_NOPAD.decode(signature.as_bytes()).unwrap())
            .unwrap();
    key.verify(message.as_bytes(), &signature).is_ok()
}

on_both_databases!(
    access_tokens_are_es256_and_verify_against_the_jwks,
    a_rotation_keeps_tokens_of_the_old_key_valid
);

async fn access_tokens_are_es256_and_verify_against_the_jwks(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    let header = header(token);
    assert_eq!(header["alg"], "ES256");
    let reply = jwks(&app).await;
    assert_eq!(reply.headers["cache-control"], "public, max-age=600");
    let keys = reply.assert_ok()["keys"].as_array().unwrap().clone();
    assert_eq!(keys.len(), 1);
    let key = &keys[0];
    assert_eq!(key["kty"], "EC");
    assert_eq!(key["crv"], "P-256");
    assert_eq!(key["alg"], "ES256");
    assert_eq!(key["kid"], header["kid"]);
    assert!(key.get("d").is_none(), "never the private part");
    assert!(verifies_with(key, token));
    let mut tampered = token.to_owned();
    tampered.insert(token.find('.').unwrap() + 1, 'x');
    assert!(!verifies_with(key, &tampered));
}

async fn a_rotation_keeps_tokens_of_the_old_key_valid(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let old_kid = header(access(&tokens))["kid"].clone();
    let ring = KeyRing::load(&app.db, &app.config.auth).await.unwrap();
    let new_kid = ring.rotate(&app.db).await.unwrap();
    assert_ne!(json!(new_kid), old_kid);

    // A token of the new key is accepted once the server reloads its keys,
    // which it does on meeting an unknown `kid` (at most once a second).
    let new_token = ring.sign(&claims(access(&tokens)));
    assert_eq!(header(&new_token)["kid"], json!(new_kid));
    eventually("the server to accept a token of the new key", || async {
        app.get_as(&new_token, "/user").await.status.is_success()
    })
    .await;
    // The old key still verifies, and both are published.
    app.get_as(access(&tokens), "/user").await.assert_ok();
    let keys = jwks(&app).await.body["keys"].as_array().unwrap().clone();
    let kids: Vec<&Value> = keys.iter().map(|k| &k["kid"]).collect();
    assert!(
        kids.contains(&&old_kid) && kids.contains(&&json!(new_kid)),
        "{kids:?}"
    );
    // New tokens use the new key.
    let fresh = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    assert_eq!(header(access(&fresh))["kid"], json!(new_kid));
}

on_both_databases!(
    keys_from_the_configuration_sign_and_are_published,
    with_an_hs256_secret_tokens_are_hs256_and_the_jwks_is_empty,
);

async fn keys_from_the_configuration_sign_and_are_published(backend: Backend) {
    let jwk = Key::generate_es256().to_private_jwk();
    let set = json!({"keys": [jwk]}).to_string();
    let app = spawn_app_with(backend, |c| c.auth.jwt_keys = Some(Secret::new(set))).await;
    let tokens = app.sign_up("ada@example.com").await;
    assert_eq!(header(access(&tokens))["kid"], jwk["kid"]);
    let published = jwks(&app).await.body["keys"][0].clone();
    assert_eq!(published["x"], jwk["x"]);
    assert!(published.get("d").is_none());
    assert!(verifies_with(&published, access(&tokens)));
}

async fn with_an_hs256_secret_tokens_are_hs256_and_the_jwks_is_empty(backend: Backend) {
    let app = spawn_app_with(backend, |c| {
        c.auth.jwt_secret = Some(Secret::new(
            "super-secret-jwt-token-with-at-least-32-characters",
        ))
    })
    .await;
    let tokens = app.sign_up("ada@example.com").await;
    assert_eq!(header(access(&tokens))["alg"], "HS256");
    assert_eq!(jwks(&app).await.body, json!({"keys": []}));
    app.get_as(access(&tokens), "/user").await.assert_ok();
}
