//! Opportunity applications: who may call each endpoint, the form's rules at
//! the server, one application per user (409, also when two arrive at once),
//! the confirmation mail, and the admin list, CSV and contacted mark.

use crate::harness::{Backend, Reply, admin, call, on_both_databases, sign_up_unnamed, spawn_app};
use prettyscore_server::db::entities::audit_log_entries;
use reqwest::{Method, StatusCode};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

const APPLY: &str = "/api/v1/opportunities/applications";
const MINE: &str = "/api/v1/opportunities/applications/mine";
const ADMIN: &str = "/api/v1/admin/opportunities";
const CSV: &str = "/api/v1/admin/opportunities.csv";

fn form(name: &str, email: &str) -> Value {
    json!({
        "fullName": name,
        "email": email,
        "phone": "+14155552671",
        "instagram": "@ada.l",
        "location": "London",
        "bio": "I like cameras.",
        "interests": ["Brand Partnerships", "Fashion Modeling"],
        "agreeTerms": true,
    })
}

on_both_databases!(
    only_signed_in_users_apply_and_only_admins_read_the_applications,
    the_server_keeps_the_forms_rules_with_its_messages,
    one_application_per_user_even_when_two_arrive_at_once,
    admins_list_export_and_mark_applications_contacted,
    the_application_and_its_mail_use_the_accounts_verified_address,
    a_body_that_is_not_one_form_gets_a_clear_message
);

async fn the_application_and_its_mail_use_the_accounts_verified_address(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up_unnamed(&app, "ada@example.com").await.token;
    let other = sign_up_unnamed(&app, "victim@example.com").await.token;
    let admin = admin(&app).await.token;
    // Typed: somebody else's address. The mail must not go there.
    let Reply {
        status,
        body: saved,
        ..
    } = call(
        &app,
        Method::POST,
        APPLY,
        Some(&ada),
        Some(form("Ada", "victim@example.com")),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    assert_eq!(saved["email"], "ada@example.com");
    assert_eq!(app.mail_count("victim@example.com").await, 0);
    assert_eq!(app.mail_count("ada@example.com").await, 1);
    let (_, text) = app.last_mail("ada@example.com").await;
    assert!(text.contains("Hi Ada"), "{text}");

    // Without any address in the body, too; the admins see the account's address.
    let mut body = form("Victor", "");
    body.as_object_mut().unwrap().remove("email");
    let Reply {
        status,
        body: saved,
        ..
    } = call(&app, Method::POST, APPLY, Some(&other), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    assert_eq!(app.mail_count("victim@example.com").await, 1);
    let Reply { body: list, .. } = call(&app, Method::GET, ADMIN, Some(&admin), None).await;
    let emails: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["victim@example.com", "ada@example.com"]);

    // An account whose address is not confirmed is told to confirm it first.
    let bob = sign_up_unnamed(&app, "bob@example.com").await.token;
    {
        use prettyscore_server::db::entities::users;
        use sea_orm::sea_query::Expr;
        use sea_orm::{ColumnTrait, QueryFilter};
        users::Entity::update_many()
            .col_expr(
                users::Column::EmailConfirmedAt,
                Expr::value(Option::<chrono::DateTime<chrono::Utc>>::None),
            )
            .filter(users::Column::Email.eq("bob@example.com"))
            .exec(&app.db)
            .await
            .unwrap();
    }
    let Reply {
        status,
        body: error,
        ..
    } = call(
        &app,
        Method::POST,
        APPLY,
        Some(&bob),
        Some(form("Bob", "bob@example.com")),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    assert_eq!(
        error["message"],
        "Please confirm your email address first: the team answers applications there"
    );
    assert_eq!(app.mail_count("bob@example.com").await, 0);
}

async fn a_body_that_is_not_one_form_gets_a_clear_message(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up_unnamed(&app, "ada@example.com").await.token;
    // An array of the form's values in field order: serde would have read it as the form.
    let positional = json!([
        "Ada",
        "ada@example.com",
        "+14155552671",
        "ada.l",
        "London",
        "bio",
        ["Fashion Modeling"],
        true
    ]);
    for body in [
        positional,
        json!([form("Ada", "ada@example.com")]),
        json!([]),
        json!("Ada"),
        json!(null),
    ] {
        let Reply {
            status,
            body: error,
            ..
        } = call(&app, Method::POST, APPLY, Some(&ada), Some(body.clone())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {error}");
        assert_eq!(error["code"], "validation_failed");
        assert_eq!(
            error["message"],
            "The application must be sent as one form (a JSON object with fullName, location and the other fields), not as a list or a single value",
            "{body}"
        );
    }
    assert_eq!(
        call(&app, Method::GET, MINE, Some(&ada), None).await.status,
        StatusCode::NOT_FOUND,
        "nothing was kept"
    );
    assert_eq!(app.mail_count("ada@example.com").await, 0);
}

async fn only_signed_in_users_apply_and_only_admins_read_the_applications(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up_unnamed(&app, "ada@example.com").await.token;
    let admin = admin(&app).await.token;
    let body = Some(form("Ada", "ada@example.com"));

    let Reply {
        status,
        body: error,
        ..
    } = call(&app, Method::POST, APPLY, None, body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{error}");
    assert_eq!(error["code"], "not_signed_in");
    assert_eq!(
        call(&app, Method::GET, MINE, None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    let Reply {
        status,
        body: error,
        ..
    } = call(&app, Method::GET, MINE, Some(&ada), None).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );

    let Reply {
        status, body: mine, ..
    } = call(&app, Method::POST, APPLY, Some(&ada), body).await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    let id = mine["id"].as_str().unwrap().to_owned();
    let contacted = format!("{ADMIN}/{id}/contacted");

    for path in [ADMIN, CSV] {
        assert_eq!(
            call(&app, Method::GET, path, None, None).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        let Reply {
            status,
            body: error,
            ..
        } = call(&app, Method::GET, path, Some(&ada), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
        assert_eq!(error["code"], "admin_only");
        assert_eq!(
            call(&app, Method::GET, path, Some(&admin), None)
                .await
                .status,
            StatusCode::OK,
            "{path}"
        );
    }
    assert_eq!(
        call(&app, Method::POST, &contacted, None, None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&app, Method::POST, &contacted, Some(&ada), None)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // The owner reads their own application; the admin's is another user's.
    let Reply {
        status, body: own, ..
    } = call(&app, Method::GET, MINE, Some(&ada), None).await;
    assert_eq!(
        (status, own["id"].as_str()),
        (StatusCode::OK, Some(id.as_str()))
    );
    assert_eq!(
        call(&app, Method::GET, MINE, Some(&admin), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // It is in the applicant's data export.
    let Reply { body: export, .. } = call(
        &app,
        Method::GET,
        "/api/v1/account/export",
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(
        export["sections"]["opportunity_application"]["id"],
        id.as_str(),
        "{export}"
    );
}

async fn the_server_keeps_the_forms_rules_with_its_messages(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up_unnamed(&app, "ada@example.com").await.token;
    let cases: Vec<(&str, Value, &str)> = vec![
        ("fullName", json!(""), "Full name is required"),
        (
            "fullName",
            json!("x".repeat(101)),
            "Full name must be less than 100 characters",
        ),
        (
            "phone",
            json!("+0123"),
            "Phone must be in E.164 format (e.g., +14155552671)",
        ),
        (
            "phone",
            json!("+1234567890123456"),
            "Phone must be in E.164 format (e.g., +14155552671)",
        ),
        (
            "instagram",
            json!("ada-l"),
            "Instagram handle must be 1-30 characters (letters, numbers, dots, underscores)",
        ),
        ("location", json!(""), "Location is required"),
        (
            "location",
            json!("x".repeat(201)),
            "Location must be less than 200 characters",
        ),
        (
            "bio",
            json!("x".repeat(1001)),
            "Bio must be less than 1000 characters",
        ),
        ("agreeTerms", json!(false), "You must agree to the terms"),
    ];
    for (field, value, message) in cases {
        let mut body = form("Ada", "ada@example.com");
        body[field] = value;
        let Reply {
            status,
            body: error,
            ..
        } = call(&app, Method::POST, APPLY, Some(&ada), Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{field}: {error}");
        assert_eq!(error["code"], "validation_failed");
        assert_eq!(error["message"], message, "{field}");
    }
    // The first broken rule in the form's order wins.
    let mut body = form("", "not-an-address");
    body["agreeTerms"] = json!(false);
    let Reply { body: error, .. } = call(&app, Method::POST, APPLY, Some(&ada), Some(body)).await;
    assert_eq!(error["message"], "Full name is required");
    // Nothing was kept, and no mail went out.
    assert_eq!(
        call(&app, Method::GET, MINE, Some(&ada), None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.mail_count("ada@example.com").await,
        0,
        "no mail for a refused form"
    );

    // At the limits, and with the optional fields left out, it is accepted.
    let body = json!({
        "fullName": "x".repeat(100),
        "email": "ada@example.com",
        "location": "x".repeat(200),
        "bio": "",
        "agreeTerms": true,
    });
    let Reply {
        status,
        body: saved,
        ..
    } = call(&app, Method::POST, APPLY, Some(&ada), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    assert_eq!(saved["phone"], Value::Null);
    assert_eq!(saved["interests"], json!([]));
}

async fn one_application_per_user_even_when_two_arrive_at_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up_unnamed(&app, "ada@example.com").await.token;
    let body = Some(form("Ada Lovelace", "ada.work@example.com"));
    let (first, second) = tokio::join!(
        call(&app, Method::POST, APPLY, Some(&ada), body.clone()),
        call(&app, Method::POST, APPLY, Some(&ada), body.clone()),
    );
    let mut statuses = [first.status, second.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::CONFLICT],
        "{first:?} {second:?}"
    );
    let Reply {
        status,
        body: error,
        ..
    } = call(&app, Method::POST, APPLY, Some(&ada), body).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error["code"], "already_applied");
    assert_eq!(error["message"], "You've already submitted an application");

    // One confirmation, to the account's address (not the one typed), with
    // the 48-hour promise.
    assert_eq!(app.mail_count("ada.work@example.com").await, 0);
    assert_eq!(app.mail_count("ada@example.com").await, 1);
    let (subject, text) = app.last_mail("ada@example.com").await;
    assert!(subject.contains("application"), "{subject}");
    assert!(
        text.contains("Hi Ada Lovelace") && text.contains("within 48 hours"),
        "{text}"
    );
    assert!(
        text.contains("Fashion Modeling, Brand Partnerships"),
        "{text}"
    );
}

async fn admins_list_export_and_mark_applications_contacted(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = admin(&app).await.token;
    let ada = sign_up_unnamed(&app, "ada@example.com").await.token;
    let bob = sign_up_unnamed(&app, "bob@example.com").await.token;
    let Reply { body: first, .. } = call(
        &app,
        Method::POST,
        APPLY,
        Some(&ada),
        Some(form("Ada", "ada@example.com")),
    )
    .await;
    let mut formula = form("=HYPERLINK(\"http://evil\")", "bob@example.com");
    formula["bio"] = json!("Line one\nand \"two\"");
    let Reply { body: second, .. } =
        call(&app, Method::POST, APPLY, Some(&bob), Some(formula)).await;

    let Reply { body: list, .. } = call(&app, Method::GET, ADMIN, Some(&admin), None).await;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            second["id"].as_str().unwrap(),
            first["id"].as_str().unwrap()
        ],
        "newest first"
    );
    assert_eq!(list[1]["instagram"], "ada.l", "stored without the @");

    let reply = app.call(Method::GET, CSV, Some(&admin), None).await;
    assert_eq!(reply.headers["content-type"], "text/csv; charset=utf-8");
    assert!(
        reply.headers["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let csv = reply.body.as_str().unwrap().to_owned();
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(lines.len(), 4, "header, two rows, the empty end: {csv}");
    assert!(
        lines[1].contains("\"'=HYPERLINK(\"\"http://evil\"\")\""),
        "defused: {}",
        lines[1]
    );
    assert!(
        lines[1].contains("\"Line one\nand \"\"two\"\"\""),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("\"Ada\"") && lines[2].ends_with("\"waiting\""));

    let contacted = format!("{ADMIN}/{}/contacted", first["id"].as_str().unwrap());
    let Reply {
        status,
        body: marked,
        ..
    } = call(&app, Method::POST, &contacted, Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{marked}");
    let at = marked["contactedAt"].as_str().unwrap().to_owned();
    let Reply { body: again, .. } = call(&app, Method::POST, &contacted, Some(&admin), None).await;
    assert_eq!(again["contactedAt"], at.as_str(), "the first mark stays");
    let audits = audit_log_entries::Entity::find()
        .all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.payload["action"] == "opportunity_application_contacted")
        .count();
    assert_eq!(audits, 1, "one audit record however often it is marked");
    let Reply { body: mine, .. } = call(&app, Method::GET, MINE, Some(&ada), None).await;
    assert_eq!(mine["contactedAt"], at.as_str());

    let unknown = format!("{ADMIN}/{}/contacted", uuid::Uuid::new_v4());
    assert_eq!(
        call(&app, Method::POST, &unknown, Some(&admin), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let Reply {
        status,
        body: error,
        ..
    } = call(
        &app,
        Method::POST,
        &format!("{ADMIN}/nope/contacted"),
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
}
