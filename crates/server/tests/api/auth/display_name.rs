//! The display name a person shows to others, kept as GoTrue apps keep it
//! (`user_metadata.display_name`): 1-50 visible characters, trimmed, checked
//! wherever the auth API takes metadata (sign-up, `PUT /user`, the admin API).

use super::*;

on_both_databases!(
    a_display_name_is_checked_and_trimmed_at_sign_up,
    put_user_checks_the_display_name_and_null_removes_it,
    the_admin_api_checks_the_display_name_too
);

/// Every refused name, with the status and the user's words for it. A bidi
/// override is refused (400) by the check every auth body goes through,
/// before the name's own rules (422).
fn refused_names() -> Vec<(Value, u16, &'static str)> {
    vec![
        (
            json!(""),
            422,
            "Display name needs at least one visible character",
        ),
        (
            json!(" \u{200B} "),
            422,
            "Display name needs at least one visible character",
        ),
        (
            json!("a".repeat(51)),
            422,
            "Display name must be at most 50 characters",
        ),
        (
            json!("Ada\u{202E}"),
            400,
            "display_name contains a text-direction override character, which is not allowed",
        ),
        (
            json!("Ada\nLovelace"),
            422,
            "Display name contains a control character, which is not allowed",
        ),
        (json!(42), 422, "Display name must be text"),
    ]
}

async fn a_display_name_is_checked_and_trimmed_at_sign_up(backend: Backend) {
    let app = spawn_app(backend).await;
    for (i, (name, status, message)) in refused_names().into_iter().enumerate() {
        let email = format!("bad{i}@example.com");
        let reply = app
            .post(
                "/signup",
                json!({"email": email, "password": PASSWORD, "data": {"display_name": name}}),
            )
            .await;
        reply.assert_error(status, "validation_failed");
        assert_eq!(reply.message(), message);
        // Nothing was created: the address can still sign up.
        app.sign_up(&email).await;
    }

    let tokens = app
        .sign_up_named("ada@example.com", "  Ada Lovelace ")
        .await;
    assert_eq!(
        tokens["user"]["user_metadata"]["display_name"],
        "Ada Lovelace"
    );
    // 50 characters (not bytes) pass.
    let long = "é".repeat(50);
    let tokens = app.sign_up_named("long@example.com", &long).await;
    assert_eq!(tokens["user"]["user_metadata"]["display_name"], long);
    // Optional: a sign-up without one is fine.
    let tokens = app.sign_up("plain@example.com").await;
    assert_eq!(tokens["user"]["user_metadata"], json!({}));
}

async fn put_user_checks_the_display_name_and_null_removes_it(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up_named("ada@example.com", "Ada").await;
    let token = access(&tokens);
    for (name, status, message) in refused_names() {
        let reply = app
            .put_as(
                token,
                "/user",
                json!({"data": {"display_name": name, "city": "Paris"}}),
            )
            .await;
        reply.assert_error(status, "validation_failed");
        assert_eq!(reply.message(), message);
    }
    // A refused name changes nothing, not even the other keys of the patch.
    let user = app.get_as(token, "/user").await;
    assert_eq!(
        user.assert_ok()["user_metadata"],
        json!({"display_name": "Ada"})
    );

    let reply = app
        .put_as(
            token,
            "/user",
            json!({"data": {"display_name": " Ada L. "}}),
        )
        .await;
    assert_eq!(reply.assert_ok()["user_metadata"]["display_name"], "Ada L.");
    let reply = app
        .put_as(token, "/user", json!({"data": {"display_name": null}}))
        .await;
    assert_eq!(reply.assert_ok()["user_metadata"], json!({}));
}

async fn the_admin_api_checks_the_display_name_too(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.service_token().await;
    let reply = app
        .post_as(
            &admin,
            "/admin/users",
            json!({"email": "bob@example.com", "user_metadata": {"display_name": "   "}}),
        )
        .await;
    reply.assert_error(422, "validation_failed");
    let bob = app
        .post_as(
            &admin,
            "/admin/users",
            json!({"email": "bob@example.com", "user_metadata": {"display_name": " Bob "}}),
        )
        .await;
    let bob = bob.assert_ok().clone();
    assert_eq!(bob["user_metadata"]["display_name"], "Bob");
    let path = format!("/admin/users/{}", bob["id"].as_str().unwrap());
    app.put_as(
        &admin,
        &path,
        json!({"user_metadata": {"display_name": "x".repeat(60)}}),
    )
    .await
    .assert_error(422, "validation_failed");
}
