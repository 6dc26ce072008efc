//! The admin API with a service-role token, and POST /invite.

use super::*;

on_both_databases!(
    the_admin_api_needs_a_service_role_token,
    admins_create_list_read_update_and_delete_users,
    admins_list_and_delete_a_users_factors,
    generate_link_returns_the_link_and_code_without_mailing,
    an_invite_mails_a_link_that_confirms_the_user
);

async fn the_admin_api_needs_a_service_role_token(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let reply = app.get_as(access(&tokens), "/admin/users").await;
    reply.assert_error(403, "not_admin");
    assert_eq!(reply.message(), "User not allowed");
    app.call(reqwest::Method::GET, "/admin/users", None, None)
        .await
        .assert_error(401, "no_authorization");
}

async fn admins_create_list_read_update_and_delete_users(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    let created = app
        .post_as(
            &admin,
            "/admin/users",
            json!({
                "email": "Bob@Example.com", "password": PASSWORD, "email_confirm": true,
                "user_metadata": {"name": "Bob"}, "app_metadata": {"plan": "pro"},
            }),
        )
        .await;
    let bob = created.assert_ok().clone();
    assert_eq!(bob["email"], "bob@example.com");
    assert!(bob["email_confirmed_at"].is_string());
    assert_eq!(bob["app_metadata"]["plan"], "pro");
    assert_eq!(bob["app_metadata"]["provider"], "email");
    app.sign_in("bob@example.com", PASSWORD).await.assert_ok();
    app.post_as(&admin, "/admin/users", json!({"email": "bob@example.com"}))
        .await
        .assert_error(422, "email_exists");

    for i in 0..3 {
        app.post_as(
            &admin,
            "/admin/users",
            json!({"email": format!("user{i}@example.com")}),
        )
        .await
        .assert_ok();
    }
    let page = app.get_as(&admin, "/admin/users?page=1&per_page=2").await;
    assert_eq!(page.assert_ok()["users"].as_array().unwrap().len(), 2);
    assert_eq!(page.body["aud"], "authenticated");
    assert_eq!(page.headers["x-total-count"], "4");
    let link = page.headers["link"].to_str().unwrap();
    assert!(link.contains("page=2&per_page=2>; rel=\"next\""), "{link}");
    assert!(link.contains("rel=\"last\""), "{link}");

    let id = bob["id"].as_str().unwrap();
    let read = app.get_as(&admin, &format!("/admin/users/{id}")).await;
    assert_eq!(read.assert_ok()["email"], "bob@example.com");
    app.get_as(&admin, &format!("/admin/users/{}", uuid::Uuid::new_v4()))
        .await
        .assert_error(404, "user_not_found");

    let updated = app.put_as(&admin, &format!("/admin/users/{id}"), json!({
            "user_metadata": {"name": "Robert"}, "app_metadata": {"plan": null}, "password": "admin-set-password",
        })).await;
    let updated = updated.assert_ok();
    assert_eq!(updated["user_metadata"]["name"], "Robert");
    assert!(updated["app_metadata"].get("plan").is_none());
    app.sign_in("bob@example.com", "admin-set-password")
        .await
        .assert_ok();

    let banned = app
        .put_as(
            &admin,
            &format!("/admin/users/{id}"),
            json!({"ban_duration": "1h"}),
        )
        .await;
    assert!(banned.assert_ok()["banned_until"].is_string());
    app.sign_in("bob@example.com", "admin-set-password")
        .await
        .assert_error(400, "user_banned");
    app.put_as(
        &admin,
        &format!("/admin/users/{id}"),
        json!({"ban_duration": "none"}),
    )
    .await
    .assert_ok();
    app.sign_in("bob@example.com", "admin-set-password")
        .await
        .assert_ok();
    app.put_as(
        &admin,
        &format!("/admin/users/{id}"),
        json!({"ban_duration": "soon"}),
    )
    .await
    .assert_error(400, "validation_failed");
    // A body that is not an object is GoTrue's `bad_json` (issue 25, item
    // 18: `[]` read as an update of nothing, answered 200).
    for body in [json!([]), json!("x"), json!(null), json!(7)] {
        app.put_as(&admin, &format!("/admin/users/{id}"), body.clone())
            .await
            .assert_error(400, "bad_json");
    }

    app.call(
        reqwest::Method::DELETE,
        &format!("/admin/users/{id}"),
        Some(&admin),
        Some(json!({"should_soft_delete": false})),
    )
    .await
    .assert_ok();
    app.get_as(&admin, &format!("/admin/users/{id}"))
        .await
        .assert_error(404, "user_not_found");
    app.sign_in("bob@example.com", "admin-set-password")
        .await
        .assert_error(400, "invalid_credentials");
}

async fn admins_list_and_delete_a_users_factors(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    let tokens = app.sign_up("ada@example.com").await;
    let factor = app
        .post_as(
            access(&tokens),
            "/factors",
            json!({"factor_type": "totp", "friendly_name": "phone"}),
        )
        .await
        .assert_ok()
        .clone();
    let id = tokens["user"]["id"].as_str().unwrap();
    let list = app
        .get_as(&admin, &format!("/admin/users/{id}/factors"))
        .await;
    assert_eq!(list.assert_ok()[0]["id"], factor["id"]);
    let factor_id = factor["id"].as_str().unwrap();
    let deleted = app
        .delete_as(&admin, &format!("/admin/users/{id}/factors/{factor_id}"))
        .await;
    assert_eq!(deleted.assert_ok()["id"], factor["id"]);
    app.delete_as(&admin, &format!("/admin/users/{id}/factors/{factor_id}"))
        .await
        .assert_error(404, "mfa_factor_not_found");
}

async fn generate_link_returns_the_link_and_code_without_mailing(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    app.sign_up("ada@example.com").await;
    let reply = app.post_as(&admin, "/admin/generate_link", json!({"type": "recovery", "email": "ada@example.com", "redirect_to": "http://app.test/reset"})).await;
    let link = reply.assert_ok().clone();
    assert_eq!(link["email"], "ada@example.com");
    assert_eq!(link["verification_type"], "recovery");
    assert_eq!(link["redirect_to"], "http://app.test/reset");
    assert!(
        link["action_link"]
            .as_str()
            .unwrap()
            .contains("/auth/v1/verify?token=")
    );
    assert_eq!(link["email_otp"].as_str().unwrap().len(), 6);
    assert_eq!(app.mail_count("ada@example.com").await, 0);
    let tokens = app
        .post(
            "/verify",
            json!({"type": "recovery", "token_hash": link["hashed_token"]}),
        )
        .await;
    assert_eq!(tokens.assert_ok()["user"]["email"], "ada@example.com");

    let signup = app
        .post_as(
            &admin,
            "/admin/generate_link",
            json!({"type": "signup", "email": "new@example.com", "password": PASSWORD}),
        )
        .await;
    assert_eq!(signup.assert_ok()["verification_type"], "signup");
    app.post_as(
        &admin,
        "/admin/generate_link",
        json!({"type": "magiclink", "email": "nobody@example.com"}),
    )
    .await
    .assert_error(404, "user_not_found");
    app.post_as(
        &admin,
        "/admin/generate_link",
        json!({"type": "bogus", "email": "ada@example.com"}),
    )
    .await
    .assert_error(400, "validation_failed");
}

async fn an_invite_mails_a_link_that_confirms_the_user(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    let reply = app
        .post_as(
            &admin,
            "/invite",
            json!({"email": "guest@example.com", "data": {"team": "a"}}),
        )
        .await;
    let user = reply.assert_ok().clone();
    assert!(user["invited_at"].is_string());
    assert_eq!(user["user_metadata"]["team"], "a");
    let (subject, body) = app.last_mail("guest@example.com").await;
    assert!(subject.contains("invited"), "{subject}");
    let tokens = app
        .post(
            "/verify",
            json!({"type": "invite", "email": "guest@example.com", "token": code_in(&body)}),
        )
        .await;
    let tokens = tokens.assert_ok();
    assert!(tokens["user"]["email_confirmed_at"].is_string());
    // The invited user sets a password.
    app.put_as(access(tokens), "/user", json!({"password": PASSWORD}))
        .await
        .assert_ok();
    app.sign_in("guest@example.com", PASSWORD).await.assert_ok();
    app.post_as(&admin, "/invite", json!({"email": "guest@example.com"}))
        .await
        .assert_error(422, "email_exists");
}
