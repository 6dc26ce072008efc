//! What the official client trips over (issue 9): query strings, RS256 keys,
//! GoTrue's email syntax, /verify's order of checks, manual linking, phone
//! sign-in switched off, the OAuth server and reauthentication.

use super::*;
use aws_lc_rs::signature::{RSA_PKCS1_2048_8192_SHA256, RsaPublicKeyComponents};
use data_encoding::BASE64URL_NOPAD;
use prettyscore_server::config::Secret;

on_both_databases!(
    empty_pagination_parameters_are_absent_and_bad_ones_are_json_errors,
    every_endpoint_that_takes_an_email_uses_gotrues_syntax,
    verify_checks_the_phone_or_email_format_before_the_token,
    unlinking_an_identity_needs_manual_linking,
    with_phone_sign_in_off_every_phone_flow_answers_phone_provider_disabled,
    the_oauth_server_is_disabled_behind_the_admin_check,
    reauthentication_without_email_or_phone_is_a_validation_error
);

async fn empty_pagination_parameters_are_absent_and_bad_ones_are_json_errors(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    let admin = app.service_token().await;
    // What auth-js's admin.listUsers() sends without arguments.
    let page = app.get_as(&admin, "/admin/users?page=&per_page=").await;
    assert_eq!(page.assert_ok()["users"].as_array().unwrap().len(), 1);

    let bad = app.get_as(&admin, "/admin/users?page=two").await;
    bad.assert_error(400, "validation_failed");
    assert!(
        bad.message().starts_with("Bad Pagination Parameters"),
        "{}",
        bad.message()
    );
    let bad = app.get_as(&admin, "/admin/users?per_page=-1").await;
    bad.assert_error(400, "validation_failed");
    assert!(bad.message().starts_with("Bad Pagination Parameters"));

    // Any query string the handler cannot read: JSON, never plain text.
    let duplicate = app.get_as(&admin, "/admin/users?page=1&page=2").await;
    duplicate.assert_error(400, "validation_failed");
    let grant = app
        .post(
            "/token?grant_type=password&grant_type=refresh_token",
            json!({}),
        )
        .await;
    grant.assert_error(400, "validation_failed");
}

fn rsa_jwk() -> Value {
    serde_json::from_str(include_str!("../../fixtures/rsa-2048.private.jwk.json")).unwrap()
}

/// Verifies an RS256 token with a public JWK, as `getClaims` does.
fn rs256_verifies_with(jwk: &Value, token: &str) -> bool {
    let part = |name: &str| {
        BASE64URL_NOPAD
            .decode(jwk[name].as_str().unwrap().as_bytes())
            .unwrap()
    };
    let (n, e) = (part("n"), part("e"));
    let key = RsaPublicKeyComponents { n: &n, e: &e };
    let (message, signature) = token.rsplit_once('.').unwrap();
    let signature = BASE64URL_NOPAD.decode(signature.as_bytes()).unwrap();
    key.verify(&RSA_PKCS1_2048_8192_SHA256, message.as_bytes(), &signature)
        .is_ok()
}

on_both_databases!(an_rsa_signing_key_from_the_configuration_signs_rs256,);

async fn an_rsa_signing_key_from_the_configuration_signs_rs256(backend: Backend) {
    let jwk = rsa_jwk();
    let set = json!({"keys": [jwk]}).to_string();
    let app = spawn_app_with(backend, |c| c.auth.jwt_keys = Some(Secret::new(set))).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    assert_eq!(header(token)["alg"], "RS256");
    assert_eq!(header(token)["kid"], jwk["kid"]);

    let published = app
        .call(reqwest::Method::GET, "/.well-known/jwks.json", None, None)
        .await
        .assert_ok()["keys"][0]
        .clone();
    assert_eq!(published["kty"], "RSA");
    assert_eq!(published["alg"], "RS256");
    assert_eq!(published["n"], jwk["n"]);
    assert_eq!(published["e"], jwk["e"]);
    for private in ["d", "p", "q", "dp", "dq", "qi"] {
        assert!(published.get(private).is_none(), "{private} is published");
    }
    assert!(rs256_verifies_with(&published, token));
    let mut tampered = token.to_owned();
    tampered.insert(token.find('.').unwrap() + 1, 'x');
    assert!(!rs256_verifies_with(&published, &tampered));

    app.get_as(token, "/user").await.assert_ok();
    // A service-role token signed with the same key opens the admin API.
    let admin = app.service_token().await;
    assert_eq!(header(&admin)["alg"], "RS256");
    app.get_as(&admin, "/admin/users").await.assert_ok();
}

async fn every_endpoint_that_takes_an_email_uses_gotrues_syntax(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    let bad = "xx:;x@x.x";
    let replies = [
        app.post("/signup", json!({"email": bad, "password": PASSWORD}))
            .await,
        app.post("/otp", json!({"email": bad})).await,
        app.post("/recover", json!({"email": bad})).await,
        app.post("/resend", json!({"type": "signup", "email": bad}))
            .await,
        app.post_as(&admin, "/admin/users", json!({"email": bad}))
            .await,
        app.post_as(&admin, "/invite", json!({"email": bad})).await,
        app.post_as(
            &admin,
            "/admin/generate_link",
            json!({"type": "magiclink", "email": bad}),
        )
        .await,
    ];
    for reply in replies {
        reply.assert_error(400, "validation_failed");
        assert_eq!(
            reply.message(),
            "Unable to validate email address: invalid format"
        );
    }
    // GoTrue's rule lets these through.
    app.post(
        "/signup",
        json!({"email": "o'brien+tag@mail.example.co", "password": PASSWORD}),
    )
    .await
    .assert_ok();
}

async fn verify_checks_the_phone_or_email_format_before_the_token(backend: Backend) {
    let app = spawn_app(backend).await;
    let phone = app
        .post(
            "/verify",
            json!({"type": "sms", "phone": "12ab", "token": "123456"}),
        )
        .await;
    phone.assert_error(400, "validation_failed");
    assert_eq!(
        phone.message(),
        "Invalid phone number format (E.164 required)"
    );
    let email = app
        .post(
            "/verify",
            json!({"type": "signup", "email": "xx:;x@x.x", "token": "123456"}),
        )
        .await;
    email.assert_error(422, "validation_failed");
    assert_eq!(email.message(), "Invalid email format");
    // Well-formed, but no such code.
    app.post(
        "/verify",
        json!({"type": "sms", "phone": "+15551234567", "token": "123456"}),
    )
    .await
    .assert_error(403, "otp_expired");
}

async fn unlinking_an_identity_needs_manual_linking(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let identity = tokens["user"]["identities"][0]["identity_id"]
        .as_str()
        .unwrap();
    let reply = app
        .delete_as(access(&tokens), &format!("/user/identities/{identity}"))
        .await;
    reply.assert_error(404, "manual_linking_disabled");
    assert_eq!(reply.message(), "Manual linking is disabled");
    // Still signed-in only.
    app.call(
        reqwest::Method::DELETE,
        &format!("/user/identities/{identity}"),
        None,
        None,
    )
    .await
    .assert_error(401, "no_authorization");
}

async fn with_phone_sign_in_off_every_phone_flow_answers_phone_provider_disabled(backend: Backend) {
    let app = spawn_app(backend).await;
    let phone = "+15551234567";
    let signup = app
        .post("/signup", json!({"phone": phone, "password": PASSWORD}))
        .await;
    signup.assert_error(422, "phone_provider_disabled");
    assert_eq!(signup.message(), "Phone signups are disabled");
    app.post("/otp", json!({"phone": phone}))
        .await
        .assert_error(422, "phone_provider_disabled");
    app.post("/resend", json!({"type": "sms", "phone": phone}))
        .await
        .assert_error(422, "phone_provider_disabled");
    let password = app
        .post(
            "/token?grant_type=password",
            json!({"phone": phone, "password": PASSWORD}),
        )
        .await;
    password.assert_error(422, "phone_provider_disabled");
    assert_eq!(password.message(), "Phone logins are disabled");
    let settings = app
        .call(reqwest::Method::GET, "/settings", None, None)
        .await;
    assert_eq!(settings.assert_ok()["external"]["phone"], false);
}

async fn the_oauth_server_is_disabled_behind_the_admin_check(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    for path in ["/admin/oauth/clients", "/admin/oauth/clients/abc"] {
        let reply = app.get_as(&admin, path).await;
        reply.assert_error(404, "feature_disabled");
        assert_eq!(reply.message(), "OAuth server is disabled");
    }
    let create = app
        .post_as(&admin, "/admin/oauth/clients", json!({"client_name": "x"}))
        .await;
    create.assert_error(404, "feature_disabled");
    // Not an admin: refused before anything is said about the feature.
    app.call(reqwest::Method::GET, "/admin/oauth/clients", None, None)
        .await
        .assert_error(401, "no_authorization");
    let user = app.sign_up("ada@example.com").await;
    app.get_as(access(&user), "/admin/oauth/clients")
        .await
        .assert_error(403, "not_admin");
}

async fn reauthentication_without_email_or_phone_is_a_validation_error(backend: Backend) {
    let app = spawn_app_with(backend, |c| c.auth.anonymous_sign_ins = true).await;
    let anonymous = app.post("/signup", json!({})).await;
    let token = access(anonymous.assert_ok()).to_owned();
    let reply = app.get_as(&token, "/reauthenticate").await;
    reply.assert_error(400, "validation_failed");
    assert_eq!(
        reply.message(),
        "Reauthentication requires the user to have an email or a phone number"
    );
}
