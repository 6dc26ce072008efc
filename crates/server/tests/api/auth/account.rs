//! /api/v1/account: export and deletion, the `AuthUser` extractor's answer
//! and the development outbox.

use super::*;
use prettyscore_server::db::entities::{profiles, users};
use sea_orm::EntityTrait;

on_both_databases!(
    the_account_endpoints_need_a_signed_in_user,
    a_user_downloads_their_data,
    a_user_deletes_their_account_and_everything_goes,
    the_dev_outbox_is_off_by_default,
    the_dev_outbox_lists_mail_when_enabled
);

async fn the_account_endpoints_need_a_signed_in_user(backend: Backend) {
    let app = spawn_app(backend).await;
    for (method, path) in [
        (reqwest::Method::GET, "/api/v1/account/export"),
        (reqwest::Method::DELETE, "/api/v1/account"),
    ] {
        let reply = app.call(method.clone(), path, None, None).await;
        assert_eq!(reply.status, 401, "{path}");
        assert_eq!(
            reply.body,
            json!({"code": "not_signed_in", "message": "Please sign in to continue."})
        );
        let bad = app.call(method, path, Some("not-a-token"), None).await;
        assert_eq!(bad.body["code"], "not_signed_in");
    }
}

async fn a_user_downloads_their_data(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    app.post_as(
        access(&tokens),
        "/factors",
        json!({"factor_type": "totp", "friendly_name": "phone"}),
    )
    .await
    .assert_ok();
    let mut authenticator = super::authenticator::Authenticator::new("app.test", "http://app.test");
    let options = app
        .post_as(access(&tokens), "/passkeys/registration/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    let credential = authenticator.create(&options["options"]);
    app.post_as(
        access(&tokens),
        "/passkeys/registration/verify",
        json!({"challenge_id": options["challenge_id"], "credential": credential}),
    )
    .await
    .assert_ok();
    let response = app
        .client
        .get(app.url("/api/v1/account/export"))
        .bearer_auth(access(&tokens))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let export: Value = response.json().await.unwrap();
    assert_eq!(export["format"], 1);
    let account = &export["sections"]["account"];
    assert_eq!(account["user"]["email"], "ada@example.com");
    assert_eq!(account["profile"]["email"], "ada@example.com");
    assert_eq!(account["factors"][0]["friendly_name"], "phone");
    assert!(
        !export.to_string().contains("\"secret\""),
        "no factor secrets in the export"
    );
    assert_eq!(account["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(account["passkeys"][0]["friendly_name"], "Passkey");
    assert!(
        !export.to_string().contains("\"credential"),
        "no passkey keys in the export"
    );
}

async fn a_user_deletes_their_account_and_everything_goes(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let id: uuid::Uuid = tokens["user"]["id"].as_str().unwrap().parse().unwrap();
    let reply = app
        .call(
            reqwest::Method::DELETE,
            "/api/v1/account",
            Some(access(&tokens)),
            None,
        )
        .await;
    assert_eq!(reply.status, 204);
    assert!(
        users::Entity::find_by_id(id)
            .one(&app.db)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        profiles::Entity::find_by_id(id)
            .one(&app.db)
            .await
            .unwrap()
            .is_none()
    );
    let after = app
        .call(
            reqwest::Method::GET,
            "/api/v1/account/export",
            Some(access(&tokens)),
            None,
        )
        .await;
    assert_eq!(after.status, 401);
    app.sign_in("ada@example.com", PASSWORD)
        .await
        .assert_error(400, "invalid_credentials");
    // The address can sign up again.
    app.sign_up("ada@example.com").await;
}

async fn the_dev_outbox_is_off_by_default(backend: Backend) {
    let app = spawn_app(backend).await;
    let reply = app
        .call(reqwest::Method::GET, "/api/v1/dev/outbox", None, None)
        .await;
    assert_eq!(reply.status, 404);
}

async fn the_dev_outbox_lists_mail_when_enabled(backend: Backend) {
    let app = spawn_app_with(backend, |c: &mut Config| c.auth.dev_outbox = true).await;
    app.sign_up("ada@example.com").await;
    app.post("/recover", json!({"email": "ada@example.com"}))
        .await
        .assert_ok();
    let reply = app
        .call(
            reqwest::Method::GET,
            "/api/v1/dev/outbox?email=ada@example.com",
            None,
            None,
        )
        .await;
    let messages = reply.assert_ok()["messages"].as_array().unwrap().clone();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["kind"], "recovery");
    assert!(
        messages[0]["body_text"]
            .as_str()
            .unwrap()
            .contains("/auth/v1/verify?token=")
    );
}

#[test]
fn the_account_endpoints_are_in_the_openapi_document() {
    let doc = serde_json::to_value(prettyscore_server::app::openapi()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert!(
        paths["/api/v1/account/export"]["get"].is_object(),
        "{:?}",
        paths.keys()
    );
    assert!(paths["/api/v1/account"]["delete"].is_object());
    assert!(paths["/api/v1/dev/outbox"]["get"].is_object());
    assert!(doc["components"]["schemas"]["AccountExport"].is_object());
}
