//! POST /signup: autoconfirm, confirmation mails, anti-enumeration, the
//! password policy, anonymous sign-ins and the error shape.

use super::*;
use prettyscore_server::db::entities::profiles;
use sea_orm::EntityTrait;

on_both_databases!(
    signup_with_autoconfirm_returns_a_session_and_creates_the_profile,
    signing_up_twice_is_user_already_exists,
    without_autoconfirm_signup_sends_a_confirmation_and_sign_in_waits_for_it,
    without_autoconfirm_a_confirmed_address_gets_a_look_alike_user,
    the_password_policy_is_gotrues,
    a_malformed_email_or_body_is_a_clear_error,
    anonymous_sign_ins_are_off_by_default,
    anonymous_sign_ins_when_enabled_give_an_anonymous_session,
    signups_can_be_disabled,
    phone_signup_without_an_sms_provider_is_a_clear_error
);

async fn signup_with_autoconfirm_returns_a_session_and_creates_the_profile(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("Ada@Example.com").await;
    assert_eq!(tokens["token_type"], "bearer");
    assert_eq!(tokens["expires_in"], 3600);
    assert!(tokens["expires_at"].as_i64().unwrap() > chrono::Utc::now().timestamp());
    assert!(refresh_of(&tokens).len() >= 12);
    let user = &tokens["user"];
    assert_eq!(user["email"], "ada@example.com");
    assert_eq!(user["aud"], "authenticated");
    assert_eq!(user["role"], "authenticated");
    assert_eq!(user["phone"], "");
    assert!(user["email_confirmed_at"].is_string());
    assert!(user["confirmed_at"].is_string());
    assert_eq!(user["app_metadata"]["provider"], "email");
    assert_eq!(user["app_metadata"]["providers"], json!(["email"]));
    assert_eq!(user["identities"][0]["provider"], "email");
    assert_eq!(user["identities"][0]["id"], user["id"]);
    assert!(user["identities"][0]["identity_id"].is_string());
    assert!(
        user.get("factors").is_none(),
        "factors are omitted when none"
    );
    assert_eq!(user["is_anonymous"], false);

    let id: uuid::Uuid = user["id"].as_str().unwrap().parse().unwrap();
    let profile = profiles::Entity::find_by_id(id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(profile.email.as_deref(), Some("ada@example.com"));

    let claims = claims(access(&tokens));
    assert_eq!(claims["sub"], user["id"]);
    assert_eq!(claims["aud"], "authenticated");
    assert_eq!(claims["role"], "authenticated");
    assert_eq!(claims["aal"], "aal1");
    assert_eq!(claims["amr"][0]["method"], "password");
    assert!(claims["session_id"].is_string());
    assert_eq!(claims["is_anonymous"], false);
    assert!(claims["iss"].as_str().unwrap().ends_with("/auth/v1"));
}

async fn signing_up_twice_is_user_already_exists(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    let again = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": "another-one"}),
        )
        .await;
    again.assert_error(422, "user_already_exists");
    assert!(again.message().starts_with("User already registered"));
}

async fn without_autoconfirm_signup_sends_a_confirmation_and_sign_in_waits_for_it(
    backend: Backend,
) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.autoconfirm = false).await;
    let reply = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": PASSWORD, "data": {"name": "Ada"}}),
        )
        .await;
    let user = reply.assert_ok();
    assert!(
        user.get("access_token").is_none(),
        "a bare user, no session"
    );
    assert_eq!(user["email"], "ada@example.com");
    assert!(user["confirmation_sent_at"].is_string());
    assert!(user.get("email_confirmed_at").is_none());
    assert_eq!(user["user_metadata"]["name"], "Ada");

    app.sign_in("ada@example.com", PASSWORD)
        .await
        .assert_error(400, "email_not_confirmed");

    let (subject, body) = app.last_mail("ada@example.com").await;
    assert!(subject.contains("Confirm"), "{subject}");
    let code = code_in(&body);
    let tokens = app
        .post(
            "/verify",
            json!({"type": "signup", "email": "ada@example.com", "token": code}),
        )
        .await;
    let tokens = tokens.assert_ok();
    assert!(tokens["user"]["email_confirmed_at"].is_string());
    assert_eq!(claims(access(tokens))["amr"][0]["method"], "otp");
    app.sign_in("ada@example.com", PASSWORD).await.assert_ok();

    // The code is spent.
    app.post(
        "/verify",
        json!({"type": "signup", "email": "ada@example.com", "token": code}),
    )
    .await
    .assert_error(403, "otp_expired");
}

async fn without_autoconfirm_a_confirmed_address_gets_a_look_alike_user(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.autoconfirm = false).await;
    app.post(
        "/signup",
        json!({"email": "ada@example.com", "password": PASSWORD}),
    )
    .await
    .assert_ok();
    let (_, body) = app.last_mail("ada@example.com").await;
    app.post(
        "/verify",
        json!({"type": "signup", "email": "ada@example.com", "token": code_in(&body)}),
    )
    .await
    .assert_ok();

    let reply = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": "something-else"}),
        )
        .await;
    let fake = reply.assert_ok();
    assert_eq!(
        fake["identities"],
        json!([]),
        "anti-enumeration: empty identities"
    );
    // The real password still works, the new one does not.
    app.sign_in("ada@example.com", PASSWORD).await.assert_ok();
    app.sign_in("ada@example.com", "something-else")
        .await
        .assert_error(400, "invalid_credentials");
}

async fn the_password_policy_is_gotrues(backend: Backend) {
    let app = spawn_app(backend).await;
    let short = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": "12345"}),
        )
        .await;
    short.assert_error(422, "weak_password");
    assert_eq!(short.body["weak_password"]["reasons"], json!(["length"]));
    assert!(
        short
            .message()
            .contains("Password should be at least 6 characters")
    );

    let long = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": "x".repeat(73)}),
        )
        .await;
    long.assert_error(400, "validation_failed");

    let missing = app
        .post("/signup", json!({"email": "ada@example.com"}))
        .await;
    missing.assert_error(422, "validation_failed");
}

async fn a_malformed_email_or_body_is_a_clear_error(backend: Backend) {
    let app = spawn_app(backend).await;
    let bad = app
        .post(
            "/signup",
            json!({"email": "not-an-email", "password": PASSWORD}),
        )
        .await;
    bad.assert_error(400, "validation_failed");
    assert_eq!(
        bad.message(),
        "Unable to validate email address: invalid format"
    );

    let response = app
        .client
        .post(app.url("/auth/v1/signup"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert_eq!(response.headers()["x-supabase-api-version"], "2024-01-01");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "bad_json");

    let wrong_type = app
        .post("/signup", json!({"email": 42, "password": PASSWORD}))
        .await;
    wrong_type.assert_error(400, "validation_failed");
}

async fn anonymous_sign_ins_are_off_by_default(backend: Backend) {
    let app = spawn_app(backend).await;
    let reply = app.post("/signup", json!({})).await;
    reply.assert_error(422, "anonymous_provider_disabled");
    assert_eq!(reply.message(), "Anonymous sign-ins are disabled");
}

async fn anonymous_sign_ins_when_enabled_give_an_anonymous_session(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.anonymous_sign_ins = true).await;
    let reply = app
        .post("/signup", json!({"data": {"theme": "dark"}}))
        .await;
    let tokens = reply.assert_ok();
    assert_eq!(tokens["user"]["is_anonymous"], true);
    assert_eq!(tokens["user"]["email"], "");
    assert_eq!(tokens["user"]["identities"], json!([]));
    let claims = claims(access(tokens));
    assert_eq!(claims["is_anonymous"], true);
    assert_eq!(claims["amr"][0]["method"], "anonymous");

    // Adding an email converts the user.
    let token = access(tokens).to_owned();
    let user = app
        .put_as(&token, "/user", json!({"email": "anon@example.com"}))
        .await;
    // Once the address is confirmed (autoconfirm or not: issue 10).
    assert_eq!(user.assert_ok()["new_email"], "anon@example.com");
    let (_, body) = app.last_mail("anon@example.com").await;
    let verified = app
        .post(
            "/verify",
            json!({"type": "email_change", "email": "anon@example.com", "token": code_in(&body)}),
        )
        .await;
    let user = &verified.assert_ok()["user"];
    assert_eq!(user["email"], "anon@example.com");
    assert_eq!(user["is_anonymous"], false);
    assert_eq!(user["identities"][0]["provider"], "email");
}

async fn signups_can_be_disabled(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.disable_signup = true).await;
    let reply = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": PASSWORD}),
        )
        .await;
    reply.assert_error(422, "signup_disabled");
    assert_eq!(reply.message(), "Signups not allowed for this instance");
}

async fn phone_signup_without_an_sms_provider_is_a_clear_error(backend: Backend) {
    let app = spawn_app(backend).await;
    let reply = app
        .post(
            "/signup",
            json!({"phone": "+15551234567", "password": PASSWORD}),
        )
        .await;
    reply.assert_error(422, "phone_provider_disabled");
    assert_eq!(reply.message(), "Phone signups are disabled");
}
