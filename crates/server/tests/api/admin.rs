//! The admin role: `prettyscore admin grant|revoke EMAIL`, run as the real
//! binary, and `GET /api/v1/admin/access`, which the web app's admin route
//! guard mirrors.

use crate::harness::{Backend, TestApp, access, insert_user_at, on_both_databases, spawn_app};
use prettyscore_server::admin::roles::grant_admin;
use prettyscore_server::http::extract::is_admin;
use serde_json::json;

fn prettyscore(app: &TestApp, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_prettyscore"))
        .args(args)
        .arg("--data-dir")
        .arg(&app.config.data_dir)
        .env("DATABASE_URL", app.config.database_url())
        .env("RUST_LOG", "error")
        .output()
        .unwrap()
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

on_both_databases!(
    admin_grant_and_revoke_manage_the_admin_role,
    admin_grant_for_an_unknown_email_fails_clearly
);

async fn admin_grant_and_revoke_manage_the_admin_role(backend: Backend) {
    let app = spawn_app(backend).await;
    let user = insert_user_at(&app, "ada@example.com").await;
    assert!(!is_admin(&app.db, user).await.unwrap());

    let granted = prettyscore(&app, &["admin", "grant", "Ada@Example.com"]);
    assert!(granted.status.success(), "{granted:?}");
    assert!(stdout(&granted).contains("is now an admin"), "{granted:?}");
    assert!(is_admin(&app.db, user).await.unwrap());

    let again = prettyscore(&app, &["admin", "grant", "ada@example.com"]);
    assert!(stdout(&again).contains("was already an admin"), "{again:?}");

    let revoked = prettyscore(&app, &["admin", "revoke", "ada@example.com"]);
    assert!(revoked.status.success(), "{revoked:?}");
    assert!(stdout(&revoked).contains("is no longer an admin"));
    assert!(!is_admin(&app.db, user).await.unwrap());
}

async fn admin_grant_for_an_unknown_email_fails_clearly(backend: Backend) {
    let app = spawn_app(backend).await;
    let output = prettyscore(&app, &["admin", "grant", "nobody@example.com"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no user has the email address nobody@example.com"),
        "{stderr}"
    );
}

on_both_databases!(
    admin_access_answers_204_for_admins_only,
    admin_access_ends_when_the_role_is_revoked,
    admin_role_says_yes_or_no_to_every_signed_in_user
);

/// The web app's Admin menu asks here on every page: a plain yes or no, so a
/// non-admin's tab logs no refused request.
async fn admin_role_says_yes_or_no_to_every_signed_in_user(backend: Backend) {
    let app = spawn_app(backend).await;
    let path = "/api/v1/admin/role";
    let anonymous = app.call(reqwest::Method::GET, path, None, None).await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(anonymous.body["code"], "not_signed_in");

    let owner = app.sign_up("owner@example.com").await;
    let other = app.sign_up("other@example.com").await;
    let admin = app.sign_up("admin@example.com").await;
    grant_admin(&app.db, "admin@example.com").await.unwrap();

    for (who, expected) in [(&owner, false), (&other, false), (&admin, true)] {
        let answer = app.get_as(access(who), path).await;
        assert_eq!(answer.status, 200, "{:?}", answer.body);
        assert_eq!(answer.body, json!({ "admin": expected }));
    }

    prettyscore_server::admin::roles::revoke_admin(&app.db, "admin@example.com")
        .await
        .unwrap();
    let after = app.get_as(access(&admin), path).await;
    assert_eq!(after.body, json!({ "admin": false }));
}

async fn admin_access_answers_204_for_admins_only(backend: Backend) {
    let app = spawn_app(backend).await;
    let path = "/api/v1/admin/access";
    let anonymous = app.call(reqwest::Method::GET, path, None, None).await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(
        anonymous.body,
        json!({"code": "not_signed_in", "message": "Please sign in to continue."})
    );
    let forged = app
        .call(reqwest::Method::GET, path, Some("not-a-token"), None)
        .await;
    assert_eq!(forged.status, 401);

    let user = app.sign_up("user@example.com").await;
    let refused = app.get_as(access(&user), path).await;
    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.body,
        json!({"code": "admin_only", "message": "Access denied: Admin only"})
    );

    let admin = app.sign_up("admin@example.com").await;
    grant_admin(&app.db, "admin@example.com").await.unwrap();
    let allowed = app.get_as(access(&admin), path).await;
    assert_eq!(allowed.status, 204, "{:?}", allowed.body);
    // The role, not the session, decides: the other user is still refused.
    assert_eq!(app.get_as(access(&user), path).await.status, 403);
}

async fn admin_access_ends_when_the_role_is_revoked(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.sign_up("admin@example.com").await;
    grant_admin(&app.db, "admin@example.com").await.unwrap();
    assert_eq!(
        app.get_as(access(&admin), "/api/v1/admin/access")
            .await
            .status,
        204
    );
    prettyscore_server::admin::roles::revoke_admin(&app.db, "admin@example.com")
        .await
        .unwrap();
    let after = app.get_as(access(&admin), "/api/v1/admin/access").await;
    assert_eq!(after.status, 403);
    assert_eq!(after.body["code"], "admin_only");
}

#[test]
fn admin_access_is_in_the_openapi_document() {
    let doc = serde_json::to_value(prettyscore_server::app::openapi()).unwrap();
    let get = &doc["paths"]["/api/v1/admin/access"]["get"];
    assert!(
        get.is_object(),
        "{:?}",
        doc["paths"].as_object().unwrap().keys()
    );
    for status in ["204", "401", "403"] {
        assert!(get["responses"][status].is_object(), "{status}");
    }
}
