//! GET/PUT /user, bearer failures, identities and the endpoints that are not
//! enabled (OAuth, SSO, linking).

use super::*;

on_both_databases!(
    get_user_returns_the_user_object,
    bearer_failures_have_gotrues_codes,
    put_user_merges_metadata_and_null_deletes_a_key,
    a_password_change_signs_out_the_other_sessions,
    password_change_rules,
    with_autoconfirm_an_email_change_still_needs_both_addresses,
    without_autoconfirm_an_email_change_needs_both_addresses,
    a_single_identity_cannot_be_unlinked,
    oauth_sso_and_linking_are_not_enabled,
    settings_and_health_describe_this_deployment,
    cors_lets_browsers_read_the_error_code
);

async fn get_user_returns_the_user_object(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let reply = app.get_as(access(&tokens), "/user").await;
    let user = reply.assert_ok();
    assert_eq!(user["id"], tokens["user"]["id"]);
    assert_eq!(user["email"], "ada@example.com");
    assert!(user["identities"].is_array());
    assert_eq!(reply.headers["x-supabase-api-version"], "2024-01-01");
}

async fn bearer_failures_have_gotrues_codes(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let missing = app.call(reqwest::Method::GET, "/user", None, None).await;
    missing.assert_error(401, "no_authorization");
    assert!(missing.message().contains("Bearer token"));

    let token = access(&tokens);
    let mut tampered = token.to_owned();
    let at = token.find('.').unwrap() + 5;
    let replacement = if &token[at..at + 1] == "A" { "B" } else { "A" };
    tampered.replace_range(at..at + 1, replacement);
    let bad = app.get_as(&tampered, "/user").await;
    bad.assert_error(403, "bad_jwt");
    assert!(
        bad.message().starts_with("invalid JWT"),
        "{}",
        bad.message()
    );

    app.get_as("not.a.jwt", "/user")
        .await
        .assert_error(403, "bad_jwt");

    let mut expired_claims = claims(token);
    expired_claims["exp"] = json!(chrono::Utc::now().timestamp() - 10);
    let expired = app.sign(expired_claims).await;
    let reply = app.get_as(&expired, "/user").await;
    reply.assert_error(403, "bad_jwt");
    assert!(reply.message().contains("expired"), "{}", reply.message());

    let mut ghost = claims(token);
    ghost["sub"] = json!(uuid::Uuid::new_v4());
    let ghost = app.sign(ghost).await;
    app.get_as(&ghost, "/user")
        .await
        .assert_error(403, "user_not_found");
}

async fn put_user_merges_metadata_and_null_deletes_a_key(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    app.put_as(
        token,
        "/user",
        json!({"data": {"name": "Ada", "city": "London"}}),
    )
    .await
    .assert_ok();
    let reply = app
        .put_as(
            token,
            "/user",
            json!({"data": {"city": null, "lang": "en"}}),
        )
        .await;
    assert_eq!(
        reply.assert_ok()["user_metadata"],
        json!({"name": "Ada", "lang": "en"})
    );
}

async fn a_password_change_signs_out_the_other_sessions(backend: Backend) {
    let app = spawn_app(backend).await;
    let mine = app.sign_up("ada@example.com").await;
    let other = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    let reply = app
        .put_as(
            access(&mine),
            "/user",
            json!({"password": "a-new-password"}),
        )
        .await;
    reply.assert_ok();
    app.get_as(access(&other), "/user")
        .await
        .assert_error(403, "session_not_found");
    app.get_as(access(&mine), "/user").await.assert_ok();
    app.refresh(refresh_of(&mine)).await.assert_ok();
    app.sign_in("ada@example.com", PASSWORD)
        .await
        .assert_error(400, "invalid_credentials");
    app.sign_in("ada@example.com", "a-new-password")
        .await
        .assert_ok();
}

async fn password_change_rules(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    app.put_as(token, "/user", json!({"password": PASSWORD}))
        .await
        .assert_error(422, "same_password");
    app.put_as(token, "/user", json!({"password": "123"}))
        .await
        .assert_error(422, "weak_password");
    app.put_as(
        token,
        "/user",
        json!({"password": "new-password-1", "current_password": "wrong"}),
    )
    .await
    .assert_error(400, "current_password_mismatch");
    app.put_as(
        token,
        "/user",
        json!({"password": "new-password-1", "current_password": PASSWORD}),
    )
    .await
    .assert_ok();
}

async fn with_autoconfirm_an_email_change_still_needs_both_addresses(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let other = app.sign_up("bob@example.com").await;
    let reply = app
        .put_as(
            access(&tokens),
            "/user",
            json!({"email": "Ada.Lovelace@example.com"}),
        )
        .await;
    // Nothing changes until the new address's owner confirms it.
    let user = reply.assert_ok();
    assert_eq!(user["email"], "ada@example.com");
    assert_eq!(user["new_email"], "ada.lovelace@example.com");
    app.sign_in("ada.lovelace@example.com", PASSWORD)
        .await
        .assert_error(400, "invalid_credentials");
    // The new address gets the confirmation, the current one is told (and
    // confirms too).
    let (subject, to_new) = app.last_mail("ada.lovelace@example.com").await;
    assert_eq!(subject, "Confirm your new email address");
    let (_, to_current) = app.last_mail("ada@example.com").await;
    assert!(to_current.contains("email address"), "{to_current}");
    app.put_as(access(&other), "/user", json!({"email": "ada@example.com"}))
        .await
        .assert_error(422, "email_exists");

    app.post(
        "/verify",
        json!({"type": "email_change", "email": "ada.lovelace@example.com", "token": code_in(&to_new)}),
    )
    .await
    .assert_ok();
    let done = app
        .post(
            "/verify",
            json!({"type": "email_change", "email": "ada@example.com", "token": code_in(&to_current)}),
        )
        .await;
    assert_eq!(
        done.assert_ok()["user"]["email"],
        "ada.lovelace@example.com"
    );
    app.sign_in("ada.lovelace@example.com", PASSWORD)
        .await
        .assert_ok();
}

async fn without_autoconfirm_an_email_change_needs_both_addresses(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.autoconfirm = false).await;
    app.post(
        "/signup",
        json!({"email": "ada@example.com", "password": PASSWORD}),
    )
    .await
    .assert_ok();
    let (_, body) = app.last_mail("ada@example.com").await;
    let tokens = app
        .post(
            "/verify",
            json!({"type": "signup", "email": "ada@example.com", "token": code_in(&body)}),
        )
        .await
        .assert_ok()
        .clone();

    let reply = app
        .put_as(
            access(&tokens),
            "/user",
            json!({"email": "new@example.com"}),
        )
        .await;
    let user = reply.assert_ok();
    assert_eq!(user["email"], "ada@example.com");
    assert_eq!(user["new_email"], "new@example.com");

    let (_, to_new) = app.last_mail("new@example.com").await;
    let (_, to_current) = app.last_mail("ada@example.com").await;
    let half = app
        .post(
            "/verify",
            json!({"type": "email_change", "email": "new@example.com", "token": code_in(&to_new)}),
        )
        .await;
    assert!(
        half.assert_ok()["msg"]
            .as_str()
            .unwrap()
            .contains("Confirmation link accepted")
    );
    let done = app.post("/verify", json!({"type": "email_change", "email": "ada@example.com", "token": code_in(&to_current)})).await;
    assert_eq!(done.assert_ok()["user"]["email"], "new@example.com");
}

async fn a_single_identity_cannot_be_unlinked(backend: Backend) {
    let app = spawn_app_with(backend, |c| c.auth.manual_linking = true).await;
    let tokens = app.sign_up("ada@example.com").await;
    let identity = tokens["user"]["identities"][0]["identity_id"]
        .as_str()
        .unwrap();
    let reply = app
        .delete_as(access(&tokens), &format!("/user/identities/{identity}"))
        .await;
    reply.assert_error(422, "single_identity_not_deletable");
    let unknown = app
        .delete_as(
            access(&tokens),
            &format!("/user/identities/{}", uuid::Uuid::new_v4()),
        )
        .await;
    unknown.assert_error(404, "identity_not_found");
}

async fn oauth_sso_and_linking_are_not_enabled(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let authorize = app
        .call(
            reqwest::Method::GET,
            "/authorize?provider=github",
            None,
            None,
        )
        .await;
    authorize.assert_error(400, "validation_failed");
    assert!(authorize.message().contains("provider is not enabled"));
    let sso = app.post("/sso", json!({"domain": "example.com"})).await;
    sso.assert_error(400, "saml_provider_disabled");
    assert_eq!(sso.message(), "SAML 2.0 is disabled");
    let link = app
        .get_as(
            access(&tokens),
            "/user/identities/authorize?provider=github&skip_http_redirect=true",
        )
        .await;
    link.assert_error(404, "manual_linking_disabled");
    assert_eq!(link.message(), "Manual linking is disabled");
}

async fn settings_and_health_describe_this_deployment(backend: Backend) {
    let app = spawn_app(backend).await;
    let settings = app
        .call(reqwest::Method::GET, "/settings", None, None)
        .await;
    let settings = settings.assert_ok();
    assert_eq!(settings["external"]["email"], true);
    assert_eq!(settings["external"]["phone"], false);
    assert_eq!(settings["external"]["anonymous_users"], false);
    assert_eq!(settings["mailer_autoconfirm"], true);
    assert_eq!(settings["disable_signup"], false);
    app.call(reqwest::Method::GET, "/health", None, None)
        .await
        .assert_ok();
    app.call(reqwest::Method::GET, "/nope", None, None)
        .await
        .assert_error(404, "not_found");
}

async fn cors_lets_browsers_read_the_error_code(backend: Backend) {
    let app = spawn_app(backend).await;
    let response = app
        .client
        .request(
            reqwest::Method::OPTIONS,
            app.url("/auth/v1/token?grant_type=password"),
        )
        .header("Origin", "http://localhost:5173")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization,content-type,apikey,x-client-info,x-supabase-api-version",
        )
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let allowed = response.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    assert!(
        allowed.contains("x-supabase-api-version") && allowed.contains("apikey"),
        "{allowed}"
    );

    let response = app
        .client
        .post(app.url("/auth/v1/token?grant_type=password"))
        .header("Origin", "http://localhost:5173")
        .json(&json!({"email": "x@example.com", "password": "whatever"}))
        .send()
        .await
        .unwrap();
    let exposed = response.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    assert!(exposed.contains("x-supabase-api-version"), "{exposed}");
    assert!(exposed.contains("x-total-count"), "{exposed}");
}
