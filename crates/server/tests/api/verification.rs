//! Verification badges: who may call what, one request per user, the form's
//! rules, and an admin's decision applied once (approval sets the badge).

use prettyscore_server::admin::roles::grant_admin;
use prettyscore_server::db::entities::audit_log_entries;
use reqwest::{Method, StatusCode};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::billing::{Caller, assert_error, call, get, ok, post, sandbox_app, sign_up};
use crate::helpers::{Backend, TestApp, on_both_databases};

pub(crate) const REQUEST: &str = "/api/v1/verification/requests";
const MINE: &str = "/api/v1/verification/mine";
pub(crate) const ADMIN: &str = "/api/v1/admin/verification/requests";

pub(crate) fn form() -> Value {
    json!({"fullName": "Ada Lovelace", "reason": "People copy my photos.", "instagramHandle": "@ada.l", "otherSocial": "tiktok.com/@ada"})
}

pub(crate) async fn admin(app: &TestApp) -> Caller {
    let admin = sign_up(app, "admin@example.com").await;
    grant_admin(&app.db, "admin@example.com").await.unwrap();
    admin
}

on_both_databases!(
    only_users_ask_and_only_admins_decide,
    one_request_per_user_with_the_forms_rules,
    approval_sets_the_badge_once_and_rejection_keeps_the_notes
);

async fn only_users_ask_and_only_admins_decide(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let admin = admin(&app).await;
    assert_error(
        &call(&app, Method::POST, REQUEST, None, Some(form())).await,
        StatusCode::UNAUTHORIZED,
        "not_signed_in",
    );
    assert_error(
        &call(&app, Method::GET, MINE, None, None).await,
        StatusCode::UNAUTHORIZED,
        "not_signed_in",
    );
    let (status, request) = post(&app, REQUEST, &ada, form()).await;
    assert_eq!(status, StatusCode::CREATED, "{request}");
    assert_eq!(request["status"], "pending");
    assert_eq!(request["instagramHandle"], "ada.l");
    let approve = format!("{ADMIN}/{}/approve", request["id"].as_str().unwrap());
    let reject = format!("{ADMIN}/{}/reject", request["id"].as_str().unwrap());

    assert_error(
        &call(&app, Method::GET, ADMIN, None, None).await,
        StatusCode::UNAUTHORIZED,
        "not_signed_in",
    );
    assert_error(
        &get(&app, ADMIN, &ada).await,
        StatusCode::FORBIDDEN,
        "admin_only",
    );
    for path in [&approve, &reject] {
        assert_error(
            &call(&app, Method::POST, path, None, Some(json!({}))).await,
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
        );
        assert_error(
            &post(&app, path, &ada, json!({})).await,
            StatusCode::FORBIDDEN,
            "admin_only",
        );
    }
    let listed = ok(get(&app, ADMIN, &admin).await);
    assert_eq!(listed[0]["id"], request["id"]);
    // Another user sees only their own (none).
    let mine = ok(get(&app, MINE, &admin).await);
    assert_eq!(mine, json!({"verified": false, "request": null}));
    let mine = ok(get(&app, MINE, &ada).await);
    assert_eq!(mine["request"]["id"], request["id"]);
    let export = ok(get(&app, "/api/v1/account/export", &ada).await);
    assert_eq!(
        export["sections"]["verification_request"]["id"],
        request["id"]
    );
}

async fn one_request_per_user_with_the_forms_rules(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let mut no_reason = form();
    no_reason["reason"] = json!("  ");
    let reply = post(&app, REQUEST, &ada, no_reason).await;
    assert_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    );
    assert_eq!(
        reply.1["message"],
        "Please tell us why you should be verified"
    );
    let reply = post(&app, REQUEST, &ada, json!({"reason": "x"})).await;
    assert_eq!(reply.1["message"], "Full name is required");
    assert_eq!(
        ok(get(&app, MINE, &ada).await)["request"],
        Value::Null,
        "nothing kept"
    );

    let (first, second) = tokio::join!(
        post(&app, REQUEST, &ada, form()),
        post(&app, REQUEST, &ada, form())
    );
    let mut statuses = [first.0, second.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CONFLICT]);
    let again = post(&app, REQUEST, &ada, form()).await;
    assert_error(&again, StatusCode::CONFLICT, "already_requested");
    assert_eq!(
        again.1["message"],
        "You have already requested verification"
    );
}

async fn approval_sets_the_badge_once_and_rejection_keeps_the_notes(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let bob = sign_up(&app, "bob@example.com").await;
    let admin = admin(&app).await;
    let ada_request = post(&app, REQUEST, &ada, form()).await.1;
    let bob_request = post(&app, REQUEST, &bob, form()).await.1;
    let approve = format!("{ADMIN}/{}/approve", ada_request["id"].as_str().unwrap());
    let approved = ok(post(
        &app,
        &approve,
        &admin,
        json!({"adminNotes": "Checked the Instagram."}),
    )
    .await);
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["adminNotes"], "Checked the Instagram.");
    let twice = post(&app, &approve, &admin, json!({})).await;
    assert_error(&twice, StatusCode::CONFLICT, "conflict");
    let mine = ok(get(&app, MINE, &ada).await);
    assert_eq!(mine["verified"], true);
    assert_eq!(
        ok(get(&app, "/api/v1/dashboard", &ada).await)["verified"],
        true
    );
    // A verified user has nothing more to ask (the request exists anyway).
    assert_error(
        &post(&app, REQUEST, &ada, form()).await,
        StatusCode::CONFLICT,
        "already_verified",
    );

    let reject = format!("{ADMIN}/{}/reject", bob_request["id"].as_str().unwrap());
    let rejected = ok(post(
        &app,
        &reject,
        &admin,
        json!({"adminNotes": "No public profile."}),
    )
    .await);
    assert_eq!(rejected["status"], "rejected");
    let mine = ok(get(&app, MINE, &bob).await);
    assert_eq!(
        (
            mine["verified"].clone(),
            mine["request"]["adminNotes"].clone()
        ),
        (json!(false), json!("No public profile."))
    );
    assert_error(
        &post(
            &app,
            &approve.replace(
                ada_request["id"].as_str().unwrap(),
                bob_request["id"].as_str().unwrap(),
            ),
            &admin,
            json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "conflict",
    );
    let unknown = format!("{ADMIN}/{}/approve", uuid::Uuid::new_v4());
    assert_error(
        &post(&app, &unknown, &admin, json!({})).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );

    let decisions = audit_log_entries::Entity::find()
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| {
            e.payload["action"]
                .as_str()
                .is_some_and(|a| a.starts_with("verification_request_"))
        })
        .count();
    assert_eq!(decisions, 2, "one audit record per decision");
}

mod audit_page {
    //! `/admin/audit`: administrators' decisions only, newest first, in
    //! pages, with before and after; for admins only.

    use prettyscore_server::db::audit::{record, record_admin};
    use reqwest::{Method, StatusCode};
    use serde_json::json;

    use super::{ADMIN, REQUEST, admin, form};
    use crate::billing::{assert_error, call, get, ok, post, sandbox_app, sign_up};
    use crate::helpers::{Backend, on_both_databases};

    const AUDIT: &str = "/api/v1/admin/audit";

    on_both_databases!(admins_see_their_decisions_in_pages_and_nobody_else_does);

    async fn admins_see_their_decisions_in_pages_and_nobody_else_does(backend: Backend) {
        let app = sandbox_app(backend).await;
        let ada = sign_up(&app, "ada@example.com").await;
        let admin = admin(&app).await;
        assert_error(
            &call(&app, Method::GET, AUDIT, None, None).await,
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
        );
        assert_error(
            &get(&app, AUDIT, &ada).await,
            StatusCode::FORBIDDEN,
            "admin_only",
        );

        let request = post(&app, REQUEST, &ada, form()).await.1;
        let approve = format!("{ADMIN}/{}/approve", request["id"].as_str().unwrap());
        ok(post(&app, &approve, &admin, json!({"adminNotes": "ok"})).await);
        let page = ok(get(&app, AUDIT, &admin).await);
        let entries = page["entries"].as_array().unwrap();
        assert_eq!(
            entries.len(),
            1,
            "sign-ups and sign-ins are not admin decisions: {page}"
        );
        assert_eq!(entries[0]["action"], "verification_request_approved");
        assert_eq!(entries[0]["adminEmail"], "admin@example.com");
        assert_eq!(entries[0]["details"]["before"], "pending");
        assert_eq!(entries[0]["details"]["after"], "approved");
        assert_eq!(page["nextBefore"], serde_json::Value::Null);

        // 55 more decisions (and some other entries): pages of 50, newest first.
        for i in 0..55 {
            record_admin(
                &app.db,
                "test_decision",
                admin.id,
                Some("admin@example.com"),
                "127.0.0.1",
                json!({"n": i}),
            )
            .await;
            record(
                &app.db,
                "login",
                Some(ada.id),
                Some("ada@example.com"),
                "127.0.0.1",
                json!({}),
            )
            .await;
        }
        let first = ok(get(&app, AUDIT, &admin).await);
        let entries = first["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 50);
        assert_eq!(entries[0]["details"]["n"], 54, "newest first");
        let before = first["nextBefore"].as_str().unwrap();
        let second = ok(get(&app, &format!("{AUDIT}?before={before}"), &admin).await);
        let rest = second["entries"].as_array().unwrap();
        assert_eq!(rest.len(), 6, "5 test decisions and the approval");
        assert_eq!(rest[0]["details"]["n"], 4);
        assert_eq!(rest[5]["action"], "verification_request_approved");
        assert_eq!(second["nextBefore"], serde_json::Value::Null);
    }
}
