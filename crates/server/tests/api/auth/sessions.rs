//! POST /token (password, refresh_token, and the grants that are not
//! enabled), refresh-token rotation and reuse, POST /logout scopes, rate limits.

use super::*;

on_both_databases!(
    wrong_password_and_unknown_user_look_the_same,
    password_sign_in_starts_a_new_session,
    a_refresh_rotates_the_token_and_keeps_the_session,
    concurrent_refreshes_of_one_token_all_succeed_in_the_same_session,
    reuse_after_the_interval_revokes_the_whole_session,
    reuse_within_the_interval_gets_a_fresh_token,
    refresh_errors_have_gotrues_codes,
    a_banned_user_cannot_refresh_or_sign_in,
    grants_that_are_not_enabled_say_so,
    token_requests_are_rate_limited_per_ip,
    logout_global_ends_every_session,
    logout_local_ends_only_this_session,
    logout_others_keeps_only_this_session,
    security_events_are_written_to_the_audit_log
);

async fn wrong_password_and_unknown_user_look_the_same(backend: Backend) {
    let app = spawn_app(backend).await;
    app.sign_up("ada@example.com").await;
    let wrong = app.sign_in("ada@example.com", "wrong-password").await;
    wrong.assert_error(400, "invalid_credentials");
    assert_eq!(wrong.message(), "Invalid login credentials");
    let unknown = app.sign_in("nobody@example.com", PASSWORD).await;
    unknown.assert_error(400, "invalid_credentials");
    assert_eq!(unknown.message(), wrong.message());
}

async fn password_sign_in_starts_a_new_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let first = app.sign_up("ada@example.com").await;
    let reply = app.sign_in("ADA@example.com", PASSWORD).await;
    let second = reply.assert_ok();
    assert_ne!(
        claims(access(&first))["session_id"],
        claims(access(second))["session_id"]
    );
    assert!(second["user"]["last_sign_in_at"].is_string());
}

async fn a_refresh_rotates_the_token_and_keeps_the_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let reply = app.refresh(refresh_of(&tokens)).await;
    let next = reply.assert_ok();
    assert_ne!(refresh_of(next), refresh_of(&tokens));
    assert_eq!(
        claims(access(next))["session_id"],
        claims(access(&tokens))["session_id"]
    );
    assert_eq!(next["user"]["email"], "ada@example.com");
    // The child refreshes again.
    app.refresh(refresh_of(next)).await.assert_ok();
}

async fn concurrent_refreshes_of_one_token_all_succeed_in_the_same_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = refresh_of(&tokens).to_owned();
    let replies = futures::future::join_all((0..8).map(|_| app.refresh(&token))).await;
    for reply in &replies {
        let body = reply.assert_ok();
        assert_eq!(
            claims(access(body))["session_id"],
            claims(access(&tokens))["session_id"]
        );
    }
    // Whatever each tab got still works.
    for reply in &replies {
        app.refresh(refresh_of(&reply.body)).await.assert_ok();
    }
}

async fn reuse_after_the_interval_revokes_the_whole_session(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.refresh_token_reuse_interval_secs = 0
    })
    .await;
    let tokens = app.sign_up("ada@example.com").await;
    let first = refresh_of(&tokens).to_owned();
    let second = app.refresh(&first).await.assert_ok().clone();
    let third = app.refresh(refresh_of(&second)).await.assert_ok().clone();
    // `first` is two generations old: a leak.
    app.refresh(&first)
        .await
        .assert_error(400, "refresh_token_already_used");
    // The family is gone, the live token too, and the access token's session.
    app.refresh(refresh_of(&third))
        .await
        .assert_error(400, "refresh_token_not_found");
    app.get_as(access(&third), "/user")
        .await
        .assert_error(403, "session_not_found");
}

async fn reuse_within_the_interval_gets_a_fresh_token(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let first = refresh_of(&tokens).to_owned();
    let second = app.refresh(&first).await.assert_ok().clone();
    app.refresh(refresh_of(&second)).await.assert_ok();
    // Within the default 10 s reuse interval an older token is tolerated.
    app.refresh(&first).await.assert_ok();
}

async fn refresh_errors_have_gotrues_codes(backend: Backend) {
    let app = spawn_app(backend).await;
    app.refresh("not-a-real-token")
        .await
        .assert_error(400, "refresh_token_not_found");
    let missing = app.post("/token?grant_type=refresh_token", json!({})).await;
    missing.assert_error(400, "validation_failed");
    assert_eq!(missing.body["error"], "invalid_request");
}

async fn a_banned_user_cannot_refresh_or_sign_in(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let admin = app.service_token().await;
    let id = tokens["user"]["id"].as_str().unwrap();
    app.put_as(
        &admin,
        &format!("/admin/users/{id}"),
        json!({"ban_duration": "24h"}),
    )
    .await
    .assert_ok();
    app.sign_in("ada@example.com", PASSWORD)
        .await
        .assert_error(400, "user_banned");
    let refresh = app.refresh(refresh_of(&tokens)).await;
    assert_eq!(refresh.status, 400, "{:?}", refresh.body);
}

async fn grants_that_are_not_enabled_say_so(backend: Backend) {
    let app = spawn_app(backend).await;
    let id_token = app
        .post(
            "/token?grant_type=id_token",
            json!({"provider": "google", "id_token": "x"}),
        )
        .await;
    id_token.assert_error(400, "provider_disabled");
    let web3 = app
        .post(
            "/token?grant_type=web3",
            json!({"chain": "solana", "message": "m", "signature": "s"}),
        )
        .await;
    web3.assert_error(400, "web3_provider_disabled");
    app.post("/token?grant_type=magic", json!({}))
        .await
        .assert_error(400, "unsupported_grant_type");
}

async fn token_requests_are_rate_limited_per_ip(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| {
        c.auth.rate_limits.token_per_5min = 3
    })
    .await;
    for _ in 0..3 {
        app.sign_in("nobody@example.com", PASSWORD)
            .await
            .assert_error(400, "invalid_credentials");
    }
    let limited = app.sign_in("nobody@example.com", PASSWORD).await;
    limited.assert_error(429, "over_request_rate_limit");
}

async fn logout_global_ends_every_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let one = app.sign_up("ada@example.com").await;
    let two = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    let reply = app.post_as(access(&one), "/logout", json!({})).await;
    assert_eq!(reply.status, 204);
    assert_eq!(reply.body, Value::Null);
    app.get_as(access(&two), "/user")
        .await
        .assert_error(403, "session_not_found");
    app.refresh(refresh_of(&two))
        .await
        .assert_error(400, "refresh_token_not_found");
    app.refresh(refresh_of(&one))
        .await
        .assert_error(400, "refresh_token_not_found");
}

async fn logout_local_ends_only_this_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let one = app.sign_up("ada@example.com").await;
    let two = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    assert_eq!(
        app.post_as(access(&one), "/logout?scope=local", json!({}))
            .await
            .status,
        204
    );
    app.get_as(access(&one), "/user")
        .await
        .assert_error(403, "session_not_found");
    app.get_as(access(&two), "/user").await.assert_ok();
    app.refresh(refresh_of(&two)).await.assert_ok();
}

async fn logout_others_keeps_only_this_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let one = app.sign_up("ada@example.com").await;
    let two = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    let three = app
        .sign_in("ada@example.com", PASSWORD)
        .await
        .assert_ok()
        .clone();
    assert_eq!(
        app.post_as(access(&one), "/logout?scope=others", json!({}))
            .await
            .status,
        204
    );
    app.get_as(access(&one), "/user").await.assert_ok();
    app.get_as(access(&two), "/user")
        .await
        .assert_error(403, "session_not_found");
    app.get_as(access(&three), "/user")
        .await
        .assert_error(403, "session_not_found");
    app.post_as(access(&one), "/logout?scope=everything", json!({}))
        .await
        .assert_error(400, "validation_failed");
}

async fn security_events_are_written_to_the_audit_log(backend: Backend) {
    let app = spawn_app(backend).await;
    use prettyscore_server::db::entities::audit_log_entries;
    use sea_orm::{EntityTrait, QueryOrder};
    let tokens = app.sign_up("ada@example.com").await;
    assert_eq!(
        app.post_as(access(&tokens), "/logout", json!({}))
            .await
            .status,
        204
    );
    let entries = audit_log_entries::Entity::find()
        .order_by_asc(audit_log_entries::Column::Id)
        .all(&app.db)
        .await
        .unwrap();
    let actions: Vec<&str> = entries
        .iter()
        .map(|e| e.payload["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["user_signedup", "login", "logout"]);
    assert_eq!(entries[1].payload["actor_id"], tokens["user"]["id"]);
    assert_eq!(entries[1].payload["actor_username"], "ada@example.com");
    assert_eq!(entries[1].ip_address, "127.0.0.1");
}
