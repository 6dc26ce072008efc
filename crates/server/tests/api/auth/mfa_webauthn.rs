//! WebAuthn as a second factor (`factor_type: webauthn`): a security key
//! is enrolled through a "create" challenge and then answers "request"
//! challenges to raise a session to aal2; bad answers are refused.

use super::authenticator::Authenticator;
use super::*;

const RP_ID: &str = "app.test";
const ORIGIN: &str = "http://app.test";

/// A challenge of factor `id`: (challenge id, its `webauthn` part).
async fn challenge(app: &TestApp, token: &str, id: &str) -> (String, Value) {
    let reply = app
        .post_as(
            token,
            &format!("/factors/{id}/challenge"),
            json!({"webauthn": {"rpId": "ignored.example", "rpOrigins": ["https://ignored.example"]}}),
        )
        .await;
    let reply = reply.assert_ok().clone();
    assert_eq!(reply["type"], "webauthn");
    (
        reply["id"].as_str().unwrap().to_owned(),
        reply["webauthn"].clone(),
    )
}

async fn verify(
    app: &TestApp,
    token: &str,
    id: &str,
    challenge_id: &str,
    kind: &str,
    response: Value,
) -> Reply {
    app.post_as(
        token,
        &format!("/factors/{id}/verify"),
        json!({
            "challenge_id": challenge_id,
            "webauthn": {"rpId": RP_ID, "rpOrigins": [ORIGIN], "type": kind, "credential_response": response},
        }),
    )
    .await
}

/// Enrols and verifies a key for `tokens`' user: (factor id, aal2 tokens).
async fn enrol_key(app: &TestApp, tokens: &Value, key: &mut Authenticator) -> (String, Value) {
    let token = access(tokens);
    let factor = app
        .post_as(
            token,
            "/factors",
            json!({"factor_type": "webauthn", "friendly_name": "YubiKey"}),
        )
        .await;
    let factor = factor.assert_ok().clone();
    assert_eq!(factor["type"], "webauthn");
    assert_eq!(factor["friendly_name"], "YubiKey");
    let id = factor["id"].as_str().unwrap().to_owned();
    let (challenge_id, webauthn) = challenge(app, token, &id).await;
    assert_eq!(webauthn["type"], "create");
    let public_key = &webauthn["credential_options"]["publicKey"];
    assert_eq!(public_key["rp"]["id"], RP_ID);
    // No user-verification policy a browser would call inconsistent with
    // "preferred" verification.
    assert!(
        public_key["extensions"]
            .get("credentialProtectionPolicy")
            .is_none(),
        "{public_key}"
    );
    let response = key.create(public_key);
    let verified = verify(app, token, &id, &challenge_id, "create", response).await;
    (id, verified.assert_ok().clone())
}

on_both_databases!(
    a_security_key_is_enrolled_and_then_raises_a_sign_in_to_aal2,
    bad_answers_to_a_factor_challenge_are_refused,
    eight_answers_with_one_count_raise_one_session
);

/// Issue 43: a security key's answers to eight challenges at once, all with
/// the same signature count (a cloned key), raise exactly one session.
async fn eight_answers_with_one_count_raise_one_session(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.auth.rate_limits.mfa_per_minute = 100;
    })
    .await;
    let tokens = app.sign_up("ada@example.com").await;
    let mut key = Authenticator::new(RP_ID, ORIGIN);
    let (id, _) = enrol_key(&app, &tokens, &mut key).await;
    let mut answers = Vec::new();
    for _ in 0..8 {
        let fresh = app.sign_in("ada@example.com", PASSWORD).await;
        let token = access(fresh.assert_ok()).to_owned();
        let (challenge_id, webauthn) = challenge(&app, &token, &id).await;
        // Each answer carries the count 1.
        key.credentials[0].counter = 0;
        let response = key.get(&webauthn["credential_options"]["publicKey"]);
        answers.push((token, challenge_id, response));
    }
    let replies =
        futures::future::join_all(answers.iter().map(|(token, challenge_id, response)| {
            verify(&app, token, &id, challenge_id, "request", response.clone())
        }))
        .await;
    let raised = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(raised, 1, "{replies:?}");
    assert!(
        replies
            .iter()
            .filter(|r| r.status != 200)
            .all(|r| r.body["error_code"] == "mfa_verification_failed"),
        "{replies:?}"
    );
}

async fn a_security_key_is_enrolled_and_then_raises_a_sign_in_to_aal2(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let mut key = Authenticator::new(RP_ID, ORIGIN);
    let (id, aal2) = enrol_key(&app, &tokens, &mut key).await;
    let first = claims(access(&aal2));
    assert_eq!(first["aal"], "aal2");
    assert_eq!(first["amr"][0]["method"], "mfa/webauthn");
    assert_eq!(aal2["user"]["factors"][0]["factor_type"], "webauthn");
    assert_eq!(aal2["user"]["factors"][0]["status"], "verified");

    // A new sign-in starts at aal1; the key's assertion raises it.
    let fresh = app.sign_in("ada@example.com", PASSWORD).await;
    let fresh = fresh.assert_ok().clone();
    let token = access(&fresh);
    assert_eq!(claims(token)["aal"], "aal1");
    let (challenge_id, webauthn) = challenge(&app, token, &id).await;
    assert_eq!(webauthn["type"], "request");
    let public_key = &webauthn["credential_options"]["publicKey"];
    assert_eq!(
        public_key["allowCredentials"][0]["id"].as_str().unwrap(),
        data_encoding::BASE64URL_NOPAD.encode(&key.credentials[0].id)
    );
    let response = key.get(public_key);
    let raised = verify(&app, token, &id, &challenge_id, "request", response).await;
    let raised = raised.assert_ok().clone();
    let claims = claims(access(&raised));
    assert_eq!(claims["aal"], "aal2");
    assert_eq!(claims["amr"][0]["method"], "mfa/webauthn");

    // A second key is a second factor; the first is excluded from its creation.
    let second = app
        .post_as(
            access(&raised),
            "/factors",
            json!({"factor_type": "webauthn", "friendly_name": "Backup key"}),
        )
        .await;
    let second = second.assert_ok()["id"].as_str().unwrap().to_owned();
    let (_, webauthn) = challenge(&app, access(&raised), &second).await;
    assert_eq!(
        webauthn["credential_options"]["publicKey"]["excludeCredentials"][0]["id"],
        public_key["allowCredentials"][0]["id"]
    );

    // Unenrolled at aal2, the factor is gone.
    let gone = app
        .delete_as(access(&raised), &format!("/factors/{id}"))
        .await;
    gone.assert_ok();
    assert_eq!(
        count_where(
            &app,
            "mfa_factors",
            "factor_type = 'webauthn' AND status = 'verified'"
        )
        .await,
        0
    );
}

async fn bad_answers_to_a_factor_challenge_are_refused(backend: Backend) {
    // Eighteen calls to the MFA endpoints, more than a minute's default.
    let app = spawn_app_with(backend, |config| {
        config.auth.rate_limits.mfa_per_minute = 100;
    })
    .await;
    let tokens = app.sign_up("ada@example.com").await;
    let bob = app.sign_up("bob@example.com").await;
    let mut key = Authenticator::new(RP_ID, ORIGIN);
    let (id, _) = enrol_key(&app, &tokens, &mut key).await;
    let fresh = app.sign_in("ada@example.com", PASSWORD).await;
    let fresh = fresh.assert_ok().clone();
    let token = access(&fresh);

    // Missing or malformed `webauthn`.
    let (challenge_id, webauthn) = challenge(&app, token, &id).await;
    let public_key = webauthn["credential_options"]["publicKey"].clone();
    let good = key.get(&public_key);
    let path = format!("/factors/{id}/verify");
    let bodies = [
        json!({"challenge_id": challenge_id}),
        json!({"challenge_id": challenge_id, "webauthn": {"type": "sign", "credential_response": good}}),
        json!({"challenge_id": challenge_id, "webauthn": {"type": "request"}}),
        json!({"challenge_id": challenge_id, "webauthn": {"type": "create", "credential_response": good}}),
        json!({"challenge_id": challenge_id, "webauthn": {"type": "request", "credential_response": {"id": 1}}}),
    ];
    for body in bodies {
        app.post_as(token, &path, body)
            .await
            .assert_error(400, "validation_failed");
    }

    // A forged signature, another origin.
    key.tamper = true;
    let (challenge_id, webauthn) = challenge(&app, token, &id).await;
    let forged = key.get(&webauthn["credential_options"]["publicKey"]);
    verify(&app, token, &id, &challenge_id, "request", forged)
        .await
        .assert_error(422, "mfa_verification_failed");
    key.tamper = false;
    key.origin = "http://evil.test".into();
    let (challenge_id, webauthn) = challenge(&app, token, &id).await;
    let elsewhere = key.get(&webauthn["credential_options"]["publicKey"]);
    verify(&app, token, &id, &challenge_id, "request", elsewhere)
        .await
        .assert_error(422, "mfa_verification_failed");
    key.origin = ORIGIN.into();

    // Another user's factor; a spent challenge.
    let (challenge_id, webauthn) = challenge(&app, token, &id).await;
    let response = key.get(&webauthn["credential_options"]["publicKey"]);
    verify(
        &app,
        access(&bob),
        &id,
        &challenge_id,
        "request",
        response.clone(),
    )
    .await
    .assert_error(404, "mfa_factor_not_found");
    verify(&app, token, &id, &challenge_id, "request", response.clone())
        .await
        .assert_ok();
    verify(&app, token, &id, &challenge_id, "request", response)
        .await
        .assert_error(404, "mfa_challenge_not_found");
    assert_eq!(claims(token)["aal"], "aal1");
}
