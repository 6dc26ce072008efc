//! Security notices (issue 45, section 2): each change of the password, the
//! email address, the phone, an MFA factor, a passkey, a linked identity
//! (see `providers.rs` and `passkeys.rs` for those two) or the account's
//! deletion mails the owner what, when and from where, with a "this wasn't
//! me" link that signs out every session and starts a password reset once.

use super::*;

const ANDROID_CHROME: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";

on_both_databases!(
    a_password_change_tells_the_owner_what_when_and_from_where,
    a_burst_of_changes_gives_one_mail_per_kind_a_minute,
    the_wasnt_me_link_signs_out_everywhere_and_starts_a_reset_once,
    a_used_expired_or_unknown_link_is_refused,
    an_email_change_tells_both_addresses,
    an_admins_change_of_phone_email_or_password_tells_the_owner,
    adding_and_removing_a_second_factor_tell_the_owner,
    a_deleted_account_is_told_without_a_link
);

/// `PUT /auth/v1/user` from an Android phone's Chrome.
async fn update_from_android(app: &TestApp, token: &str, body: Value) -> Reply {
    app.send(
        app.client
            .put(app.url("/auth/v1/user"))
            .header("apikey", "anon")
            .header("user-agent", ANDROID_CHROME)
            .bearer_auth(token)
            .json(&body),
    )
    .await
}

/// The token of the "this wasn't me" link in a notice.
fn secure_token(body: &str) -> String {
    let link = link_in(body);
    let at = link.find("/account/secure?token=").expect("a secure link") + 22;
    link[at..].to_owned()
}

async fn secure(app: &TestApp, token: &str) -> Reply {
    call(
        app,
        Method::POST,
        "/api/v1/account/secure",
        None,
        Some(json!({ "token": token })),
    )
    .await
}

async fn a_password_change_tells_the_owner_what_when_and_from_where(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    assert!(
        app.mails_of_kind("ada@example.com", "security_password_changed")
            .await
            .is_empty()
    );
    update_from_android(&app, access(&tokens), json!({"password": "a-new-secret-1"}))
        .await
        .assert_ok();
    let mails = app
        .mails_of_kind("ada@example.com", "security_password_changed")
        .await;
    assert_eq!(mails.len(), 1);
    let (subject, body) = &mails[0];
    assert_eq!(subject, "Your PrettyScore password was changed");
    assert!(
        body.starts_with("The password of your PrettyScore account was changed."),
        "{body}"
    );
    let today = chrono::Utc::now().format("%-d %B %Y").to_string();
    assert!(body.contains(&format!("When: {today} at ")), "{body}");
    assert!(
        body.contains("From: Chrome on Android, from 127.0.0.x"),
        "{body}"
    );
    assert!(
        !body.contains("127.0.0.1"),
        "the exact address stays out: {body}"
    );
    let link = link_in(body);
    assert!(
        link.starts_with("http://app.test/account/secure?token="),
        "{link}"
    );
    // The development outbox shows it like any other mail.
}

async fn a_burst_of_changes_gives_one_mail_per_kind_a_minute(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    for n in 0..4 {
        app.put_as(
            access(&tokens),
            "/user",
            json!({"password": format!("a-new-secret-{n}")}),
        )
        .await
        .assert_ok();
    }
    assert_eq!(
        app.mails_of_kind("ada@example.com", "security_password_changed")
            .await
            .len(),
        1,
        "four changes in a minute, one mail"
    );
    // Another kind of change in the same minute has its own mail.
    let service = app.service_token().await;
    let id = tokens["user"]["id"].as_str().unwrap();
    app.put_as(
        &service,
        &format!("/admin/users/{id}"),
        json!({"phone": "+15551234567"}),
    )
    .await
    .assert_ok();
    assert_eq!(
        app.mails_of_kind("ada@example.com", "security_phone_changed")
            .await
            .len(),
        1
    );
    // A minute later (its gap gone) the next change is mailed again.
    sql(
        &app,
        "DELETE FROM rate_limit_buckets WHERE key LIKE 'security-notice:%'",
        vec![],
    )
    .await;
    app.put_as(
        access(&tokens),
        "/user",
        json!({"password": "a-new-secret-5"}),
    )
    .await
    .assert_ok();
    assert_eq!(
        app.mails_of_kind("ada@example.com", "security_password_changed")
            .await
            .len(),
        2
    );
}

async fn the_wasnt_me_link_signs_out_everywhere_and_starts_a_reset_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let first = app.sign_up("ada@example.com").await;
    let second = app.sign_in("ada@example.com", PASSWORD).await.ok();
    // "Someone else" changes the password from the first session (which
    // signs out the second) and signs in again with it.
    app.put_as(
        access(&first),
        "/user",
        json!({"password": "stolen-pass-1"}),
    )
    .await
    .assert_ok();
    let third = app.sign_in("ada@example.com", "stolen-pass-1").await.ok();
    let mails = app
        .mails_of_kind("ada@example.com", "security_password_changed")
        .await;
    let token = secure_token(&mails[0].1);

    // Eight tabs (or a mail scanner and the owner) use the link at once:
    // it works once.
    let uses = (0..8).map(|_| secure(&app, &token));
    let replies = futures::future::join_all(uses).await;
    let worked: Vec<_> = replies.iter().filter(|r| r.status == 200).collect();
    assert_eq!(
        worked.len(),
        1,
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(
        worked[0].body["message"],
        "Every session of your account is signed out. We sent a link to set a new password to a**@example.com."
    );
    for reply in replies.iter().filter(|r| r.status != 200) {
        reply.assert_error(400, "security_link_invalid");
    }

    // Every session is gone: no refresh, no request.
    for tokens in [&first, &second, &third] {
        assert!(!app.refresh(refresh_of(tokens)).await.status.is_success());
        assert!(
            !app.get_as(access(tokens), "/user")
                .await
                .status
                .is_success()
        );
    }
    // One reset mail, whose link sets a new password.
    let resets = app.mails_of_kind("ada@example.com", "recovery").await;
    assert_eq!(resets.len(), 1);
    let code = code_in(&resets[0].1);
    let session = app
        .post(
            "/verify",
            json!({"type": "recovery", "email": "ada@example.com", "token": code}),
        )
        .await
        .ok();
    app.put_as(
        access(&session),
        "/user",
        json!({"password": "mine-again-1"}),
    )
    .await
    .assert_ok();
    app.sign_in("ada@example.com", "mine-again-1")
        .await
        .assert_ok();
}

async fn a_used_expired_or_unknown_link_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = app.sign_up("ada@example.com").await;
    let bob = app.sign_up("bob@example.com").await;
    app.put_as(access(&ada), "/user", json!({"password": "stolen-pass-1"}))
        .await
        .assert_ok();
    let mails = app
        .mails_of_kind("ada@example.com", "security_password_changed")
        .await;
    let token = secure_token(&mails[0].1);

    // Unknown, empty or missing tokens, whoever asks.
    secure(&app, "not-a-token")
        .await
        .assert_error(400, "security_link_invalid");
    secure(&app, "")
        .await
        .assert_error(400, "security_link_invalid");
    let admin = admin(&app).await;
    for caller in [access(&bob), admin.token.as_str()] {
        call(
            &app,
            Method::POST,
            "/api/v1/account/secure",
            Some(caller),
            Some(json!({ "token": "guessed" })),
        )
        .await
        .assert_error(400, "security_link_invalid");
    }
    assert_eq!(
        call(
            &app,
            Method::POST,
            "/api/v1/account/secure",
            None,
            Some(json!({})),
        )
        .await
        .status,
        422
    );
    // Nothing of Ada's was touched by those.
    app.get_as(access(&ada), "/user").await.assert_ok();

    // Older than 7 days: refused.
    let long_ago = chrono::Utc::now() - chrono::Duration::days(8);
    sql(
        &app,
        "UPDATE security_links SET created_at = $1",
        vec![long_ago.into()],
    )
    .await;
    secure(&app, &token)
        .await
        .assert_error(400, "security_link_invalid");
    app.get_as(access(&ada), "/user").await.assert_ok();
    assert!(
        app.mails_of_kind("ada@example.com", "recovery")
            .await
            .is_empty()
    );
}

async fn an_email_change_tells_both_addresses(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    update_from_android(&app, access(&tokens), json!({"email": "ada.l@example.com"}))
        .await
        .assert_ok();
    // Asking is no change yet.
    assert!(
        app.mails_of_kind("ada@example.com", "security_email_changed")
            .await
            .is_empty()
    );
    let (_, to_new) = app.last_mail("ada.l@example.com").await;
    let (_, to_current) = app.last_mail("ada@example.com").await;
    app.post(
        "/verify",
        json!({"type": "email_change", "email": "ada.l@example.com", "token": code_in(&to_new)}),
    )
    .await
    .assert_ok();
    app.post(
        "/verify",
        json!({"type": "email_change", "email": "ada@example.com", "token": code_in(&to_current)}),
    )
    .await
    .assert_ok();
    for address in ["ada@example.com", "ada.l@example.com"] {
        let mails = app.mails_of_kind(address, "security_email_changed").await;
        assert_eq!(mails.len(), 1, "{address}");
        let (subject, body) = &mails[0];
        assert_eq!(subject, "Your PrettyScore email address was changed");
        assert!(
            body.contains("(from ada@example.com to ada.l@example.com)"),
            "{body}"
        );
        assert!(body.contains("/account/secure?token="), "{body}");
    }
}

async fn an_admins_change_of_phone_email_or_password_tells_the_owner(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let id = tokens["user"]["id"].as_str().unwrap();
    let service = app.service_token().await;
    let path = format!("/admin/users/{id}");
    let user = app
        .put_as(&service, &path, json!({"phone": "+1 555 123 4567"}))
        .await
        .ok();
    assert_eq!(user["phone"], "15551234567");
    let mails = app
        .mails_of_kind("ada@example.com", "security_phone_changed")
        .await;
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].1.starts_with(
            "The phone number of your PrettyScore account was changed (now ending in 67)."
        ),
        "{}",
        mails[0].1
    );
    // The same number again is no change.
    app.put_as(&service, &path, json!({"phone": "+15551234567"}))
        .await
        .assert_ok();
    app.put_as(&service, &path, json!({"password": "set-by-admin-1"}))
        .await
        .assert_ok();
    assert_eq!(
        app.mails_of_kind("ada@example.com", "security_password_changed")
            .await
            .len(),
        1
    );
    app.put_as(&service, &path, json!({"email": "ada.new@example.com"}))
        .await
        .assert_ok();
    for address in ["ada@example.com", "ada.new@example.com"] {
        assert_eq!(
            app.mails_of_kind(address, "security_email_changed")
                .await
                .len(),
            1,
            "{address}"
        );
    }
    // Another account's number is refused and tells nobody.
    let bob = app.sign_up("bob@example.com").await;
    let bob_id = bob["user"]["id"].as_str().unwrap();
    app.put_as(
        &service,
        &format!("/admin/users/{bob_id}"),
        json!({"phone": "15551234567"}),
    )
    .await
    .assert_error(422, "phone_exists");
    assert!(
        app.mails_of_kind("bob@example.com", "security_phone_changed")
            .await
            .is_empty()
    );
}

async fn adding_and_removing_a_second_factor_tell_the_owner(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    // An unverified factor is no way in yet: no mail for it.
    let pending = app
        .post_as(access(&tokens), "/factors", json!({"factor_type": "totp"}))
        .await
        .ok();
    app.delete_as(
        access(&tokens),
        &format!("/factors/{}", pending["id"].as_str().unwrap()),
    )
    .await
    .assert_ok();
    assert!(
        app.mails_of_kind("ada@example.com", "security_mfa_factor_removed")
            .await
            .is_empty()
    );

    let (id, _, aal2) = super::mfa::enrol_and_verify(&app, &tokens).await;
    let added = app
        .mails_of_kind("ada@example.com", "security_mfa_factor_added")
        .await;
    assert_eq!(added.len(), 1);
    assert!(
        added[0].1.contains("(authenticator app \"phone\")"),
        "{}",
        added[0].1
    );
    app.delete_as(access(&aal2), &format!("/factors/{id}"))
        .await
        .assert_ok();
    let removed = app
        .mails_of_kind("ada@example.com", "security_mfa_factor_removed")
        .await;
    assert_eq!(removed.len(), 1);
    assert!(removed[0].1.contains("/account/secure?token="));
}

async fn a_deleted_account_is_told_without_a_link(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let reply = app
        .call(
            Method::DELETE,
            "/api/v1/account",
            Some(access(&tokens)),
            None,
        )
        .await;
    assert_eq!(reply.status, 204);
    let mails = app
        .mails_of_kind("ada@example.com", "security_account_deleted")
        .await;
    assert_eq!(mails.len(), 1);
    let (subject, body) = &mails[0];
    assert_eq!(subject, "Your PrettyScore account was deleted");
    assert!(
        !body.contains("http"),
        "no link to an account that is gone: {body}"
    );

    // The admin API's deletion tells the owner too.
    let bob = app.sign_up("bob@example.com").await;
    let service = app.service_token().await;
    app.delete_as(
        &service,
        &format!("/admin/users/{}", bob["user"]["id"].as_str().unwrap()),
    )
    .await
    .assert_ok();
    assert_eq!(
        app.mails_of_kind("bob@example.com", "security_account_deleted")
            .await
            .len(),
        1
    );
}
