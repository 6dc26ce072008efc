//! Verification badges: who may call what, one request per user, the form's
//! rules, and an admin's decision applied once (approval sets the badge).

use crate::harness::{
    Backend, Reply, admin, call, get, on_both_databases, post, sandbox_app, sign_up,
};
use prettyscore_server::db::entities::audit_log_entries;
use reqwest::{Method, StatusCode};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

pub(crate) const REQUEST: &str = "/api/v1/verification/requests";
const MINE: &str = "/api/v1/verification/mine";
pub(crate) const ADMIN: &str = "/api/v1/admin/verification/requests";

pub(crate) fn form() -> Value {
    json!({"fullName": "Ada Lovelace", "reason": "People copy my photos.", "instagramHandle": "@ada.l", "otherSocial": "tiktok.com/@ada"})
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
    call(&app, Method::POST, REQUEST, None, Some(form()))
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    call(&app, Method::GET, MINE, None, None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let Reply {
        status,
        body: request,
        ..
    } = post(&app, REQUEST, &ada, form()).await;
    assert_eq!(status, StatusCode::CREATED, "{request}");
    assert_eq!(request["status"], "pending");
    assert_eq!(request["instagramHandle"], "ada.l");
    let approve = format!("{ADMIN}/{}/approve", request["id"].as_str().unwrap());
    let reject = format!("{ADMIN}/{}/reject", request["id"].as_str().unwrap());

    call(&app, Method::GET, ADMIN, None, None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    get(&app, ADMIN, &ada)
        .await
        .assert_error(StatusCode::FORBIDDEN, "admin_only");
    for path in [&approve, &reject] {
        call(&app, Method::POST, path, None, Some(json!({})))
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
        post(&app, path, &ada, json!({}))
            .await
            .assert_error(StatusCode::FORBIDDEN, "admin_only");
    }
    let listed = get(&app, ADMIN, &admin).await.ok();
    assert_eq!(listed[0]["id"], request["id"]);
    // Another user sees only their own (none).
    let mine = get(&app, MINE, &admin).await.ok();
    assert_eq!(mine, json!({"verified": false, "request": null}));
    let mine = get(&app, MINE, &ada).await.ok();
    assert_eq!(mine["request"]["id"], request["id"]);
    let export = get(&app, "/api/v1/account/export", &ada).await.ok();
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
    reply.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(
        reply.body["message"],
        "Please tell us why you should be verified"
    );
    let reply = post(&app, REQUEST, &ada, json!({"reason": "x"})).await;
    assert_eq!(reply.body["message"], "Full name is required");
    assert_eq!(
        get(&app, MINE, &ada).await.ok()["request"],
        Value::Null,
        "nothing kept"
    );

    let (first, second) = tokio::join!(
        post(&app, REQUEST, &ada, form()),
        post(&app, REQUEST, &ada, form())
    );
    let mut statuses = [first.status, second.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CONFLICT]);
    let again = post(&app, REQUEST, &ada, form()).await;
    again.assert_error(StatusCode::CONFLICT, "already_requested");
    assert_eq!(
        again.body["message"],
        "You have already requested verification"
    );
}

async fn approval_sets_the_badge_once_and_rejection_keeps_the_notes(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let bob = sign_up(&app, "bob@example.com").await;
    let admin = admin(&app).await;
    let ada_request = post(&app, REQUEST, &ada, form()).await.body;
    let bob_request = post(&app, REQUEST, &bob, form()).await.body;
    let approve = format!("{ADMIN}/{}/approve", ada_request["id"].as_str().unwrap());
    let approved = post(
        &app,
        &approve,
        &admin,
        json!({"adminNotes": "Checked the Instagram."}),
    )
    .await
    .ok();
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["adminNotes"], "Checked the Instagram.");
    let twice = post(&app, &approve, &admin, json!({})).await;
    twice.assert_error(StatusCode::CONFLICT, "conflict");
    let mine = get(&app, MINE, &ada).await.ok();
    assert_eq!(mine["verified"], true);
    assert_eq!(
        get(&app, "/api/v1/dashboard", &ada).await.ok()["verified"],
        true
    );
    // A verified user has nothing more to ask (the request exists anyway).
    post(&app, REQUEST, &ada, form())
        .await
        .assert_error(StatusCode::CONFLICT, "already_verified");

    let reject = format!("{ADMIN}/{}/reject", bob_request["id"].as_str().unwrap());
    let rejected = post(
        &app,
        &reject,
        &admin,
        json!({"adminNotes": "No public profile."}),
    )
    .await
    .ok();
    assert_eq!(rejected["status"], "rejected");
    let mine = get(&app, MINE, &bob).await.ok();
    assert_eq!(
        (
            mine["verified"].clone(),
            mine["request"]["adminNotes"].clone()
        ),
        (json!(false), json!("No public profile."))
    );
    post(
        &app,
        &approve.replace(
            ada_request["id"].as_str().unwrap(),
            bob_request["id"].as_str().unwrap(),
        ),
        &admin,
        json!({}),
    )
    .await
    .assert_error(StatusCode::CONFLICT, "conflict");
    let unknown = format!("{ADMIN}/{}/approve", uuid::Uuid::new_v4());
    post(&app, &unknown, &admin, json!({}))
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");

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

    use super::{ADMIN, REQUEST, form};
    use crate::harness::{
        Backend, admin, call, get, on_both_databases, post, sandbox_app, sign_up,
    };

    const AUDIT: &str = "/api/v1/admin/audit";

    on_both_databases!(admins_see_their_decisions_in_pages_and_nobody_else_does);

    async fn admins_see_their_decisions_in_pages_and_nobody_else_does(backend: Backend) {
        let app = sandbox_app(backend).await;
        let ada = sign_up(&app, "ada@example.com").await;
        let admin = admin(&app).await;
        call(&app, Method::GET, AUDIT, None, None)
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
        get(&app, AUDIT, &ada)
            .await
            .assert_error(StatusCode::FORBIDDEN, "admin_only");

        let request = post(&app, REQUEST, &ada, form()).await.body;
        let approve = format!("{ADMIN}/{}/approve", request["id"].as_str().unwrap());
        post(&app, &approve, &admin, json!({"adminNotes": "ok"}))
            .await
            .ok();
        let page = get(&app, AUDIT, &admin).await.ok();
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
        let first = get(&app, AUDIT, &admin).await.ok();
        let entries = first["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 50);
        assert_eq!(entries[0]["details"]["n"], 54, "newest first");
        let before = first["nextBefore"].as_str().unwrap();
        let second = get(&app, &format!("{AUDIT}?before={before}"), &admin)
            .await
            .ok();
        let rest = second["entries"].as_array().unwrap();
        assert_eq!(rest.len(), 6, "5 test decisions and the approval");
        assert_eq!(rest[0]["details"]["n"], 4);
        assert_eq!(rest[5]["action"], "verification_request_approved");
        assert_eq!(second["nextBefore"], serde_json::Value::Null);
    }
}
