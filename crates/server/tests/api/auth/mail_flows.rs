//! Mail flows: POST /recover, /otp, /verify (POST and the GET of mail
//! links), /resend, GET /reauthenticate, and PKCE.

use super::*;

const VERIFIER: &str = "a-code-verifier-that-is-long-enough-for-pkce-0123456789";

fn challenge() -> String {
    use data_encoding::BASE64URL_NOPAD;
    use sha2::Digest;
    BASE64URL_NOPAD.encode(&sha2::Sha256::digest(VERIFIER.as_bytes()))
}

on_both_databases!(
    recover_answers_the_same_for_known_and_unknown_addresses,
    a_recovery_code_signs_in_and_allows_a_new_password,
    a_second_recovery_mail_within_a_minute_is_refused,
    a_wrong_or_expired_code_is_otp_expired,
    a_mail_link_redirects_with_the_session_in_the_fragment,
    redirects_outside_the_allow_list_go_to_the_site,
    pkce_recovery_redirects_with_a_code_that_is_redeemed_once,
    pkce_codes_expire_after_five_minutes,
    a_code_challenge_needs_its_method,
    otp_signs_up_new_users_and_sends_magic_links_to_known_ones,
    otp_without_create_user_answers_unknown_addresses_as_known_ones,
    resend_sends_the_confirmation_again_after_the_gap,
    a_password_change_can_require_the_reauthentication_nonce,
    the_deployment_keeps_a_safety_cap_on_mails,
    one_client_using_up_its_mails_stops_nobody_elses,
    mails_to_one_recipient_are_limited_per_requesting_address,
    mail_requests_are_rate_limited_per_ip
);

async fn recover_answers_the_same_for_known_and_unknown_addresses(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    let known = app
        .post("/recover", json!({"email": "ada@example.com"}))
        .await;
    let unknown = app
        .post("/recover", json!({"email": "nobody@example.com"}))
        .await;
    assert_eq!(known.assert_ok(), &json!({}));
    assert_eq!(unknown.assert_ok(), &json!({}));
    assert_eq!(app.mail_count("ada@example.com").await, 1);
    assert_eq!(app.mail_count("nobody@example.com").await, 0);
}

async fn a_recovery_code_signs_in_and_allows_a_new_password(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    let (subject, body) = app.last_mail("ada@example.com").await;
    assert!(subject.contains("Reset"), "{subject}");
    let reply = app
        .post(
            "/verify",
            json!({"type": "recovery", "email": "ada@example.com", "token": code_in(&body)}),
        )
        .await;
    let tokens = reply.assert_ok().clone();
    assert_eq!(claims(access(&tokens))["amr"][0]["method"], "recovery");
    app.put_as(
        access(&tokens),
        "/user",
        json!({"password": "brand-new-password"}),
    )
    .await
    .assert_ok();
    app.sign_in("ada@example.com", "brand-new-password")
        .await
        .assert_ok();
}

async fn a_second_recovery_mail_within_a_minute_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    let again = app
        .post("/recover", json!({"email": "ada@example.com"}))
        .await;
    again.assert_error(429, "over_email_send_rate_limit");
    assert!(again.message().contains("after"), "{}", again.message());
}

async fn a_wrong_or_expired_code_is_otp_expired(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    let reply = app
        .post(
            "/verify",
            json!({"type": "recovery", "email": "ada@example.com", "token": "000000"}),
        )
        .await;
    reply.assert_error(403, "otp_expired");
    assert_eq!(reply.message(), "Token has expired or is invalid");

    // A code older than an hour (GoTrue's default lifetime).
    use prettyscore_server::db::entities::one_time_tokens;
    use sea_orm::{EntityTrait, sea_query::Expr};
    one_time_tokens::Entity::update_many()
        .col_expr(
            one_time_tokens::Column::CreatedAt,
            Expr::value(chrono::Utc::now() - chrono::Duration::minutes(61)),
        )
        .exec(&app.db)
        .await
        .unwrap();
    let (_, body) = app.last_mail("ada@example.com").await;
    app.post(
        "/verify",
        json!({"type": "recovery", "email": "ada@example.com", "token": code_in(&body)}),
    )
    .await
    .assert_error(403, "otp_expired");
}

async fn a_mail_link_redirects_with_the_session_in_the_fragment(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    let reply = app
        .call(
            reqwest::Method::POST,
            "/recover?redirect_to=http://app.test/reset",
            None,
            Some(json!({"email": "ada@example.com"})),
        )
        .await;
    reply.assert_ok();
    let (_, body) = app.last_mail("ada@example.com").await;
    let link = link_in(&body);
    assert!(link.contains("/auth/v1/verify?token="), "{link}");
    let response = app.client.get(&link).send().await.unwrap();
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(
        location.starts_with("http://app.test/reset#access_token="),
        "{location}"
    );
    assert!(
        location.contains("&refresh_token=") && location.contains("&type=recovery"),
        "{location}"
    );

    // The link is spent: the second visit redirects with the error.
    let again = app.client.get(&link).send().await.unwrap();
    let location = again.headers()["location"].to_str().unwrap();
    assert!(
        location.contains("#error=access_denied&error_code=otp_expired"),
        "{location}"
    );
}

async fn redirects_outside_the_allow_list_go_to_the_site(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    app.call(
        reqwest::Method::POST,
        "/recover?redirect_to=https://evil.test/",
        None,
        Some(json!({"email": "ada@example.com"})),
    )
    .await
    .assert_ok();
    let (_, body) = app.last_mail("ada@example.com").await;
    let response = app.client.get(link_in(&body)).send().await.unwrap();
    let location = response.headers()["location"].to_str().unwrap();
    assert!(
        location.starts_with("http://app.test#access_token="),
        "{location}"
    );
}

async fn pkce_recovery_redirects_with_a_code_that_is_redeemed_once(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    app.call(
            reqwest::Method::POST,
            "/recover?redirect_to=http://app.test/reset",
            None,
            Some(json!({"email": "ada@example.com", "code_challenge": challenge(), "code_challenge_method": "s256"})),
        )
        .await
        .assert_ok();
    let (_, body) = app.last_mail("ada@example.com").await;
    let response = app.client.get(link_in(&body)).send().await.unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(
        location.starts_with("http://app.test/reset?code="),
        "{location}"
    );
    let code = location.split("code=").nth(1).unwrap().to_owned();

    app.post("/token?grant_type=pkce", json!({"auth_code": code, "code_verifier": "wrong-verifier-wrong-verifier-wrong-verifier-00"}))
            .await
            .assert_error(400, "bad_code_verifier");
    let tokens = app
        .post(
            "/token?grant_type=pkce",
            json!({"auth_code": code, "code_verifier": VERIFIER}),
        )
        .await;
    let tokens = tokens.assert_ok();
    assert_eq!(claims(access(tokens))["amr"][0]["method"], "recovery");
    app.post(
        "/token?grant_type=pkce",
        json!({"auth_code": code, "code_verifier": VERIFIER}),
    )
    .await
    .assert_error(404, "flow_state_not_found");
}

async fn pkce_codes_expire_after_five_minutes(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com", "code_challenge": challenge(), "code_challenge_method": "s256"})).await.assert_ok();
    let (_, body) = app.last_mail("ada@example.com").await;
    let response = app.client.get(link_in(&body)).send().await.unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let code = location.split("code=").nth(1).unwrap().to_owned();
    use prettyscore_server::db::entities::flow_states;
    use sea_orm::{EntityTrait, sea_query::Expr};
    flow_states::Entity::update_many()
        .col_expr(
            flow_states::Column::AuthCodeIssuedAt,
            Expr::value(chrono::Utc::now() - chrono::Duration::minutes(6)),
        )
        .exec(&app.db)
        .await
        .unwrap();
    app.post(
        "/token?grant_type=pkce",
        json!({"auth_code": code, "code_verifier": VERIFIER}),
    )
    .await
    .assert_error(422, "flow_state_expired");
}

async fn a_code_challenge_needs_its_method(backend: Backend) {
    let app = spawn_app(backend).await;
    let reply = app
        .post(
            "/recover",
            json!({"email": "ada@example.com", "code_challenge": challenge()}),
        )
        .await;
    reply.assert_error(400, "validation_failed");
}

async fn otp_signs_up_new_users_and_sends_magic_links_to_known_ones(backend: Backend) {
    // Without the per-address gap between two mail requests (tested apart).
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.rate_limits.email_resend_gap_secs = 0
    })
    .await;
    app.post("/otp", json!({"email": "new@example.com"}))
        .await
        .assert_ok();
    let (_, body) = app.last_mail("new@example.com").await;
    let tokens = app
        .post(
            "/verify",
            json!({"type": "email", "email": "new@example.com", "token": code_in(&body)}),
        )
        .await;
    assert!(tokens.assert_ok()["user"]["email_confirmed_at"].is_string());

    // Now known and confirmed: a magic link.
    app.call(
        reqwest::Method::POST,
        "/otp",
        None,
        Some(json!({"email": "new@example.com"})),
    )
    .await;
    let (subject, body) = app.last_mail("new@example.com").await;
    assert!(subject.contains("sign-in link"), "{subject}");
    let tokens = app
        .post(
            "/verify",
            json!({"type": "magiclink", "email": "new@example.com", "token": code_in(&body)}),
        )
        .await;
    assert_eq!(
        claims(access(tokens.assert_ok()))["amr"][0]["method"],
        "magiclink"
    );
}

async fn otp_without_create_user_answers_unknown_addresses_as_known_ones(backend: Backend) {
    let app = spawn_app(backend).await;
    let reply = app
        .post(
            "/otp",
            json!({"email": "nobody@example.com", "create_user": false}),
        )
        .await;
    // Not GoTrue's 422 otp_disabled: the answer must not tell who has an
    // account. No mail goes out and no user is made.
    assert_eq!(reply.assert_ok(), &json!({}));
    assert_eq!(app.mail_count("nobody@example.com").await, 0);
    app.sign_up("ada@example.com").await;
    let known = app
        .post(
            "/otp",
            json!({"email": "ada@example.com", "create_user": false}),
        )
        .await;
    assert_eq!(known.assert_ok(), &json!({}));
    let sms = app.post("/otp", json!({"phone": "+15551234567"})).await;
    sms.assert_error(422, "phone_provider_disabled");
}

async fn resend_sends_the_confirmation_again_after_the_gap(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.autoconfirm = false;
        c.auth.rate_limits.email_resend_gap_secs = 0;
    })
    .await;
    app.post(
        "/signup",
        json!({"email": "ada@example.com", "password": PASSWORD}),
    )
    .await
    .assert_ok();
    app.post(
        "/resend",
        json!({"type": "signup", "email": "ada@example.com"}),
    )
    .await
    .assert_ok();
    assert_eq!(app.mail_count("ada@example.com").await, 2);
    let (_, body) = app.last_mail("ada@example.com").await;
    app.post(
        "/verify",
        json!({"type": "signup", "email": "ada@example.com", "token": code_in(&body)}),
    )
    .await
    .assert_ok();
    // Unknown addresses get the same answer, and no mail.
    app.post(
        "/resend",
        json!({"type": "signup", "email": "nobody@example.com"}),
    )
    .await
    .assert_ok();
    app.post(
        "/resend",
        json!({"type": "bogus", "email": "ada@example.com"}),
    )
    .await
    .assert_error(400, "validation_failed");
    app.post("/resend", json!({"type": "sms", "phone": "+15551234567"}))
        .await
        .assert_error(422, "phone_provider_disabled");
}

async fn a_password_change_can_require_the_reauthentication_nonce(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.secure_password_change = true
    })
    .await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    app.put_as(token, "/user", json!({"password": "new-password-1"}))
        .await
        .assert_error(400, "reauthentication_needed");
    let reply = app.get_as(token, "/reauthenticate").await;
    assert_eq!(reply.assert_ok(), &json!({}));
    let (_, body) = app.last_mail("ada@example.com").await;
    let nonce = code_in(&body);
    app.put_as(
        token,
        "/user",
        json!({"password": "new-password-1", "nonce": "000000"}),
    )
    .await
    .assert_error(400, "reauthentication_not_valid");
    app.put_as(
        token,
        "/user",
        json!({"password": "new-password-1", "nonce": nonce}),
    )
    .await
    .assert_ok();
    app.sign_in("ada@example.com", "new-password-1")
        .await
        .assert_ok();
    // A second reauthentication mail within the gap is refused.
    app.get_as(token, "/reauthenticate")
        .await
        .assert_error(429, "over_email_send_rate_limit");
}

async fn the_deployment_keeps_a_safety_cap_on_mails(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.rate_limits.emails_per_hour = 2
    })
    .await;
    for email in ["a@example.com", "b@example.com"] {
        app.post("/otp", json!({"email": email})).await.assert_ok();
    }
    app.post("/otp", json!({"email": "c@example.com"}))
        .await
        .assert_error(429, "over_email_send_rate_limit");
}

/// Issue 25, item 12: the deployment's 30 mails an hour were one budget for
/// everyone, so one client could stop every user's recovery and
/// confirmation mails. Now 30 an hour is each client address's own.
async fn one_client_using_up_its_mails_stops_nobody_elses(backend: Backend) {
    in_one_window(3600, move || {
        one_client_using_up_its_mails_stops_nobody_elses_once(backend)
    })
    .await;
}

async fn one_client_using_up_its_mails_stops_nobody_elses_once(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.trust_x_forwarded_for = true;
        // Out of the way, so the mail limits are what this test meets.
        c.auth.rate_limits.mail_requests_per_5min = 1000;
    })
    .await;
    app.sign_up("ada@example.com").await;
    let spammer = "203.0.113.9";
    for n in 0..30 {
        app.post_from(
            spammer,
            "/otp",
            json!({"email": format!("user{n}@example.com")}),
        )
        .await
        .assert_ok();
    }
    let refused = app
        .post_from(spammer, "/otp", json!({"email": "user30@example.com"}))
        .await;
    refused.assert_error(429, "over_email_send_rate_limit");
    assert!(refused.headers.contains_key("retry-after"));
    assert_eq!(app.mail_count("user30@example.com").await, 0);
    // Everyone else still gets their mail: a recovery, a magic sign-up.
    app.post_from(
        "198.51.100.7",
        "/recover",
        json!({"email": "ada@example.com"}),
    )
    .await
    .assert_ok();
    assert_eq!(app.mail_count("ada@example.com").await, 1);
    app.post_from("198.51.100.8", "/otp", json!({"email": "bob@example.com"}))
        .await
        .assert_ok();
    assert_eq!(app.mail_count("bob@example.com").await, 1);
}

/// One client address may have 10 mails an hour sent to one recipient (the
/// per-address gap aside); the recipient asking from elsewhere still gets
/// theirs, and an unknown address is refused alike.
async fn mails_to_one_recipient_are_limited_per_requesting_address(backend: Backend) {
    in_one_window(3600, move || {
        mails_to_one_recipient_are_limited_per_requesting_address_once(backend)
    })
    .await;
}

async fn mails_to_one_recipient_are_limited_per_requesting_address_once(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.trust_x_forwarded_for = true;
        c.auth.rate_limits.mail_requests_per_5min = 1000;
        c.auth.rate_limits.email_resend_gap_secs = 0;
    })
    .await;
    app.sign_up("ada@example.com").await;
    let pest = "203.0.113.9";
    let mut answers = Vec::new();
    for email in ["ada@example.com", "nobody@example.com"] {
        for _ in 0..10 {
            app.post_from(pest, "/recover", json!({"email": email}))
                .await
                .assert_ok();
        }
        let refused = app
            .post_from(pest, "/recover", json!({"email": email}))
            .await;
        refused.assert_error(429, "over_email_send_rate_limit");
        answers.push(refused.body);
    }
    assert_eq!(answers[0], answers[1], "known and unknown look alike");
    assert_eq!(app.mail_count("ada@example.com").await, 10);
    app.post_from(
        "198.51.100.7",
        "/recover",
        json!({"email": "ada@example.com"}),
    )
    .await
    .assert_ok();
    assert_eq!(app.mail_count("ada@example.com").await, 11);
}

async fn mail_requests_are_rate_limited_per_ip(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.rate_limits.mail_requests_per_5min = 2
    })
    .await;
    app.post("/recover", json!({"email": "a@example.com"}))
        .await
        .assert_ok();
    app.post("/recover", json!({"email": "b@example.com"}))
        .await
        .assert_ok();
    app.post("/recover", json!({"email": "c@example.com"}))
        .await
        .assert_error(429, "over_request_rate_limit");
}
