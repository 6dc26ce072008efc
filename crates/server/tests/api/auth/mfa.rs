//! MFA with TOTP: enrol, challenge, verify, unenrol and the aal rules.

use super::*;
use data_encoding::BASE32_NOPAD;
use prettyscore_server::auth::mfa::totp;

pub(super) fn code_for(secret: &str) -> String {
    let seed = BASE32_NOPAD.decode(secret.as_bytes()).unwrap();
    totp(&seed, chrono::Utc::now().timestamp() as u64)
}

/// Enrols and verifies a TOTP factor; returns (factor id, secret, aal2 tokens).
pub(super) async fn enrol_and_verify(app: &TestApp, tokens: &Value) -> (String, String, Value) {
    let token = access(tokens);
    let enrolled = app
        .post_as(
            token,
            "/factors",
            json!({"factor_type": "totp", "friendly_name": "phone"}),
        )
        .await;
    let enrolled = enrolled.assert_ok().clone();
    let id = enrolled["id"].as_str().unwrap().to_owned();
    let secret = enrolled["totp"]["secret"].as_str().unwrap().to_owned();
    let challenge = app
        .post_as(token, &format!("/factors/{id}/challenge"), json!({}))
        .await;
    let challenge_id = challenge.assert_ok()["id"].as_str().unwrap().to_owned();
    let verified = app
        .post_as(
            token,
            &format!("/factors/{id}/verify"),
            json!({"challenge_id": challenge_id, "code": code_for(&secret)}),
        )
        .await;
    (id, secret, verified.assert_ok().clone())
}

on_both_databases!(
    enrolment_returns_an_svg_qr_code_a_secret_and_an_otpauth_uri,
    verifying_a_challenge_raises_the_session_to_aal2,
    a_wrong_code_a_spent_or_expired_challenge_are_refused,
    with_a_verified_factor_aal1_cannot_change_credentials_or_factors,
    an_unverified_factor_can_be_removed_at_aal1,
    anonymous_users_cannot_enrol,
    mfa_requests_are_rate_limited
);

async fn enrolment_returns_an_svg_qr_code_a_secret_and_an_otpauth_uri(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let reply = app
        .post_as(
            access(&tokens),
            "/factors",
            json!({"factor_type": "totp", "friendly_name": "My phone", "issuer": "PrettyScore"}),
        )
        .await;
    let factor = reply.assert_ok();
    assert_eq!(factor["type"], "totp");
    assert_eq!(factor["friendly_name"], "My phone");
    assert!(
        factor["totp"]["qr_code"]
            .as_str()
            .unwrap()
            .starts_with("<svg")
    );
    let secret = factor["totp"]["secret"].as_str().unwrap();
    assert!(BASE32_NOPAD.decode(secret.as_bytes()).is_ok(), "{secret}");
    let uri = factor["totp"]["uri"].as_str().unwrap();
    assert!(
        uri.starts_with("otpauth://totp/PrettyScore:ada%40example.com?secret="),
        "{uri}"
    );
    assert!(uri.contains("&issuer=PrettyScore"), "{uri}");

    let user = app.get_as(access(&tokens), "/user").await;
    assert_eq!(user.body["factors"][0]["status"], "unverified");
    assert_eq!(user.body["factors"][0]["factor_type"], "totp");

    let again = app
        .post_as(
            access(&tokens),
            "/factors",
            json!({"factor_type": "totp", "friendly_name": "My phone"}),
        )
        .await;
    again.assert_error(422, "mfa_factor_name_conflict");
    let phone = app
        .post_as(
            access(&tokens),
            "/factors",
            json!({"factor_type": "phone", "phone": "+15551234567"}),
        )
        .await;
    phone.assert_error(422, "mfa_phone_enroll_not_enabled");
}

async fn verifying_a_challenge_raises_the_session_to_aal2(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let (id, _, aal2) = enrol_and_verify(&app, &tokens).await;
    let claims = claims(access(&aal2));
    assert_eq!(claims["aal"], "aal2");
    assert_eq!(claims["amr"][0]["method"], "totp");
    assert_eq!(claims["amr"][1]["method"], "password");
    assert_eq!(
        claims["session_id"],
        super::claims(access(&tokens))["session_id"]
    );
    assert_eq!(aal2["user"]["factors"][0]["status"], "verified");
    assert_eq!(aal2["user"]["factors"][0]["id"], id);
    // The refreshed session stays aal2.
    let refreshed = app.refresh(refresh_of(&aal2)).await;
    assert_eq!(super::claims(access(refreshed.assert_ok()))["aal"], "aal2");
    // A new sign-in starts at aal1.
    let fresh = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    assert_eq!(super::claims(access(&fresh))["aal"], "aal1");
}

async fn a_wrong_code_a_spent_or_expired_challenge_are_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    let factor = app
        .post_as(token, "/factors", json!({"factor_type": "totp"}))
        .await
        .assert_ok()
        .clone();
    let id = factor["id"].as_str().unwrap();
    let secret = factor["totp"]["secret"].as_str().unwrap();
    let challenge = app
        .post_as(token, &format!("/factors/{id}/challenge"), json!({}))
        .await;
    let challenge = challenge.assert_ok().clone();
    assert_eq!(challenge["type"], "totp");
    assert!(challenge["expires_at"].as_i64().unwrap() > chrono::Utc::now().timestamp());
    let challenge_id = challenge["id"].as_str().unwrap();

    let correct = code_for(secret);
    let wrong = if correct == "000000" {
        "111111"
    } else {
        "000000"
    };
    let reply = app
        .post_as(
            token,
            &format!("/factors/{id}/verify"),
            json!({"challenge_id": challenge_id, "code": wrong}),
        )
        .await;
    reply.assert_error(422, "mfa_verification_failed");
    assert_eq!(reply.message(), "Invalid TOTP code entered");

    use prettyscore_server::db::entities::mfa_challenges;
    use sea_orm::{EntityTrait, sea_query::Expr};
    mfa_challenges::Entity::update_many()
        .col_expr(
            mfa_challenges::Column::CreatedAt,
            Expr::value(chrono::Utc::now() - chrono::Duration::minutes(6)),
        )
        .exec(&app.db)
        .await
        .unwrap();
    app.post_as(
        token,
        &format!("/factors/{id}/verify"),
        json!({"challenge_id": challenge_id, "code": correct}),
    )
    .await
    .assert_error(422, "mfa_challenge_expired");
    app.post_as(
        token,
        &format!("/factors/{}/challenge", uuid::Uuid::new_v4()),
        json!({}),
    )
    .await
    .assert_error(404, "mfa_factor_not_found");
}

async fn with_a_verified_factor_aal1_cannot_change_credentials_or_factors(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let (id, _, aal2) = enrol_and_verify(&app, &tokens).await;
    let aal1 = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    let token = access(&aal1);
    app.put_as(token, "/user", json!({"password": "another-password"}))
        .await
        .assert_error(401, "insufficient_aal");
    app.put_as(token, "/user", json!({"email": "x@example.com"}))
        .await
        .assert_error(401, "insufficient_aal");
    app.put_as(token, "/user", json!({"data": {"ok": true}}))
        .await
        .assert_ok();
    app.post_as(
        token,
        "/factors",
        json!({"factor_type": "totp", "friendly_name": "second"}),
    )
    .await
    .assert_error(422, "insufficient_aal");
    app.delete_as(token, &format!("/factors/{id}"))
        .await
        .assert_error(422, "insufficient_aal");

    // At aal2 the same requests pass.
    let token = access(&aal2);
    app.post_as(
        token,
        "/factors",
        json!({"factor_type": "totp", "friendly_name": "second"}),
    )
    .await
    .assert_ok();
    let removed = app.delete_as(token, &format!("/factors/{id}")).await;
    assert_eq!(removed.assert_ok()["id"], id);
}

async fn an_unverified_factor_can_be_removed_at_aal1(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let factor = app
        .post_as(access(&tokens), "/factors", json!({"factor_type": "totp"}))
        .await
        .assert_ok()
        .clone();
    let id = factor["id"].as_str().unwrap();
    app.delete_as(access(&tokens), &format!("/factors/{id}"))
        .await
        .assert_ok();
    let user = app.get_as(access(&tokens), "/user").await;
    assert!(user.body.get("factors").is_none());
}

async fn anonymous_users_cannot_enrol(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.anonymous_sign_ins = true).await;
    let tokens = app.post("/signup", json!({})).await.assert_ok().clone();
    let reply = app
        .post_as(access(&tokens), "/factors", json!({"factor_type": "totp"}))
        .await;
    assert_eq!(reply.status, 403);
}

async fn mfa_requests_are_rate_limited(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.rate_limits.mfa_per_minute = 2
    })
    .await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    let factor = app
        .post_as(token, "/factors", json!({"factor_type": "totp"}))
        .await
        .assert_ok()
        .clone();
    let id = factor["id"].as_str().unwrap();
    app.post_as(token, &format!("/factors/{id}/challenge"), json!({}))
        .await
        .assert_ok();
    app.post_as(token, &format!("/factors/{id}/challenge"), json!({}))
        .await
        .assert_ok();
    app.post_as(token, &format!("/factors/{id}/challenge"), json!({}))
        .await
        .assert_error(429, "over_request_rate_limit");
}
