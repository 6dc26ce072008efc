//! Adults only, confirmed addresses and the terms (issue 41): the sign-up's
//! `data.date_of_birth` and `data.terms_version`, the account endpoints, the
//! admin's correction, reserved display names, and the one gate
//! (`CommunityMember`) on every community endpoint.

use chrono::Utc;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::State as Listing;
use crate::harness::{
    ADULT_BIRTH_DATE, Backend, Caller, PASSWORD, TestApp, access, admin, astronaut, call, count,
    count_where, get, insert_photo, insert_user, make_member, on_both_databases, post, save_photo,
    sign_up, spawn_app, spawn_app_with, sql, store_original,
};

/// A date of birth of someone who turns 18 tomorrow.
fn minor_birth_date() -> String {
    let today = Utc::now().date_naive();
    let eighteen_tomorrow = today
        .checked_sub_months(chrono::Months::new(18 * 12))
        .unwrap()
        .succ_opt()
        .unwrap();
    eighteen_tomorrow.format("%Y-%m-%d").to_string()
}

/// Signs up through the auth API with `data`; the caller.
async fn sign_up_with(app: &TestApp, email: &str, data: Value) -> Caller {
    let tokens = app
        .post(
            "/signup",
            json!({"email": email, "password": PASSWORD, "data": data}),
        )
        .await
        .assert_ok()
        .clone();
    let token = access(&tokens).to_owned();
    let id = crate::harness::claims(&token)["sub"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    Caller {
        token,
        id,
        email: email.to_owned(),
    }
}

async fn standing(app: &TestApp, caller: &Caller) -> Value {
    get(app, "/api/v1/account/standing", caller).await.ok()
}

on_both_databases!(
    a_sign_up_without_a_date_or_terms_still_makes_the_account_as_gotrue_does,
    a_minor_signing_up_is_refused_and_nothing_is_stored,
    the_date_stays_out_of_the_metadata_and_put_user_cannot_set_it,
    declaring_a_date_of_birth_later_works_once,
    eight_declarations_at_once_store_one_date,
    the_terms_are_answered_to_anyone_and_accepted_by_the_owner,
    a_new_version_of_the_terms_closes_the_community_until_accepted,
    only_an_admin_corrects_a_date_and_the_correction_is_audited,
    every_community_endpoint_asks_for_an_adult_on_file,
    every_community_endpoint_asks_for_the_terms_and_a_confirmed_address,
    with_smtp_a_sign_up_waits_for_its_confirmation_mail,
    scoring_edits_and_the_personality_test_stay_open,
    a_contestant_who_is_not_a_member_receives_no_request,
    names_posing_as_the_service_are_refused,
    the_reserved_words_come_from_the_configuration,
    the_export_has_the_date_and_every_acceptance,
    only_an_adult_on_file_is_on_the_leaderboard,
);

async fn a_sign_up_without_a_date_or_terms_still_makes_the_account_as_gotrue_does(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up_bare("ada@example.com").await;
    assert!(tokens["access_token"].is_string(), "a session: {tokens}");
    assert_eq!(tokens["user"]["user_metadata"], json!({}));
    let ada = Caller {
        token: access(&tokens).to_owned(),
        id: tokens["user"]["id"].as_str().unwrap().parse().unwrap(),
        email: "ada@example.com".into(),
    };
    let standing = standing(&app, &ada).await;
    assert_eq!(standing["date_of_birth_on_file"], false);
    assert_eq!(standing["terms_accepted"], false);
    assert_eq!(standing["confirmed"], true, "autoconfirm without SMTP");
    assert_eq!(standing["member"], false);
    get(&app, "/api/v1/contact-requests/sent", &ada)
        .await
        .assert_error(403, "age_required");
    // Scoring and the rest of the account stay open.
    get(&app, "/api/v1/personality/results", &ada).await.ok();
}

async fn a_minor_signing_up_is_refused_and_nothing_is_stored(backend: Backend) {
    let app = spawn_app_with(backend, |c| c.auth.anonymous_sign_ins = true).await;
    let minor = minor_birth_date();
    let email = "young@example.com";
    let refused = app
        .post(
            "/signup",
            json!({"email": email, "password": PASSWORD, "data": {"date_of_birth": minor, "display_name": "Kid"}}),
        )
        .await;
    refused.assert_error(422, "underage");
    // By magic link, and as an anonymous user, alike.
    app.post(
        "/otp",
        json!({"email": email, "data": {"date_of_birth": minor}}),
    )
    .await
    .assert_error(422, "underage");
    app.post("/signup", json!({"data": {"date_of_birth": minor}}))
        .await
        .assert_error(422, "underage");
    for table in [
        "users",
        "identities",
        "profiles",
        "birth_dates",
        "mail_outbox",
    ] {
        assert_eq!(count(&app, table).await, 0, "{table}");
    }
    assert_eq!(
        count_where(&app, "rate_limit_buckets", "key LIKE '%young%'").await,
        0,
        "not even the address is kept"
    );
    assert_eq!(
        count_where(
            &app,
            "audit_log_entries",
            "CAST(payload AS TEXT) LIKE '%young%'"
        )
        .await,
        0
    );

    // Eighteen today is an adult.
    let today = Utc::now().date_naive();
    let eighteen = today
        .checked_sub_months(chrono::Months::new(18 * 12))
        .unwrap()
        .format("%Y-%m-%d")
        .to_string();
    let adult = sign_up_with(&app, email, json!({"date_of_birth": eighteen})).await;
    assert_eq!(standing(&app, &adult).await["adult"], true);
    // A date that is not one is a clear 422.
    app.post(
        "/signup",
        json!({"email": "typo@example.com", "password": PASSWORD, "data": {"date_of_birth": "1990-02-30"}}),
    )
    .await
    .assert_error(422, "validation_failed");
}

async fn the_date_stays_out_of_the_metadata_and_put_user_cannot_set_it(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let user = app.get_as(&ada.token, "/user").await.ok();
    assert_eq!(user["user_metadata"], json!({"display_name": "ada"}));
    assert!(!user.to_string().contains(ADULT_BIRTH_DATE));

    let minor = minor_birth_date();
    let updated = app
        .put_as(
            &ada.token,
            "/user",
            json!({"data": {"date_of_birth": minor, "terms_version": "0.1"}}),
        )
        .await
        .ok();
    assert_eq!(updated["user_metadata"], json!({"display_name": "ada"}));
    let standing = standing(&app, &ada).await;
    assert_eq!(standing["adult"], true);
    assert_eq!(standing["member"], true);
    assert_eq!(count_where(&app, "birth_dates", "source = 'self'").await, 1);
}

async fn declaring_a_date_of_birth_later_works_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let path = "/api/v1/account/date-of-birth";
    call(
        &app,
        Method::POST,
        path,
        None,
        Some(json!({"date_of_birth": "1990-05-17"})),
    )
    .await
    .assert_error(401, "not_signed_in");
    let service = app.service_token().await;
    call(
        &app,
        Method::POST,
        path,
        Some(&service),
        Some(json!({"date_of_birth": "1990-05-17"})),
    )
    .await
    .assert_error(401, "not_signed_in");

    let tokens = app.sign_up_bare("ada@example.com").await;
    let ada = Caller {
        token: access(&tokens).to_owned(),
        id: tokens["user"]["id"].as_str().unwrap().parse().unwrap(),
        email: "ada@example.com".into(),
    };
    post(
        &app,
        path,
        &ada,
        json!({"date_of_birth": minor_birth_date()}),
    )
    .await
    .assert_error(422, "underage");
    assert_eq!(count(&app, "birth_dates").await, 0, "nothing stored");
    post(&app, path, &ada, json!({"date_of_birth": "17.05.1990"}))
        .await
        .assert_error(422, "validation_failed");

    let recorded = post(&app, path, &ada, json!({"date_of_birth": "1990-05-17"})).await;
    assert_eq!(recorded.status, StatusCode::CREATED, "{}", recorded.body);
    assert_eq!(recorded.body["standing"]["adult"], true);
    post(&app, path, &ada, json!({"date_of_birth": "1980-01-01"}))
        .await
        .assert_error(409, "date_of_birth_on_file");
    // The other user's date is theirs: declaring one does not touch Ada's.
    let bob = sign_up(&app, "bob@example.com").await;
    post(&app, path, &bob, json!({"date_of_birth": "1980-01-01"}))
        .await
        .assert_error(409, "date_of_birth_on_file");
    assert_eq!(count(&app, "birth_dates").await, 2);
}

async fn eight_declarations_at_once_store_one_date(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up_bare("ada@example.com").await;
    let token = access(&tokens).to_owned();
    let replies = futures::future::join_all((0..8).map(|n| {
        let app = &app;
        let token = token.clone();
        async move {
            call(
                app,
                Method::POST,
                "/api/v1/account/date-of-birth",
                Some(&token),
                Some(json!({"date_of_birth": format!("1990-05-{:02}", n + 1)})),
            )
            .await
        }
    }))
    .await;
    let created = replies
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{replies:?}");
    for reply in replies.iter().filter(|r| r.status != StatusCode::CREATED) {
        reply.assert_error(409, "date_of_birth_on_file");
    }
    assert_eq!(count(&app, "birth_dates").await, 1);
}

async fn the_terms_are_answered_to_anyone_and_accepted_by_the_owner(backend: Backend) {
    let app = spawn_app(backend).await;
    let version = app.config.community.terms_version.clone();
    let terms = call(&app, Method::GET, "/api/v1/terms", None, None)
        .await
        .ok();
    assert_eq!(terms["version"], version);
    assert_eq!(terms["guidelines_url"], "/guidelines");
    assert!(terms["date"].is_string());

    let path = "/api/v1/account/terms";
    call(
        &app,
        Method::POST,
        path,
        None,
        Some(json!({"version": version})),
    )
    .await
    .assert_error(401, "not_signed_in");
    let service = app.service_token().await;
    call(
        &app,
        Method::POST,
        path,
        Some(&service),
        Some(json!({"version": version})),
    )
    .await
    .assert_error(401, "not_signed_in");

    let tokens = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": PASSWORD, "data": {"date_of_birth": ADULT_BIRTH_DATE}}),
        )
        .await
        .assert_ok()
        .clone();
    let ada = Caller {
        token: access(&tokens).to_owned(),
        id: tokens["user"]["id"].as_str().unwrap().parse().unwrap(),
        email: "ada@example.com".into(),
    };
    get(&app, "/api/v1/partners/me", &ada)
        .await
        .assert_error(403, "terms_required");
    post(&app, path, &ada, json!({"version": "0.9"}))
        .await
        .assert_error(409, "terms_version_mismatch");
    // A sign-up with outdated terms is refused the same way.
    app.post(
        "/signup",
        json!({"email": "bob@example.com", "password": PASSWORD, "data": {"terms_version": "0.9"}}),
    )
    .await
    .assert_error(422, "terms_version_mismatch");

    let accepted = post(&app, path, &ada, json!({"version": version}))
        .await
        .ok();
    assert_eq!(accepted["standing"]["terms_accepted"], true);
    assert_eq!(accepted["standing"]["member"], true);
    // Twice (two tabs) changes nothing.
    post(&app, path, &ada, json!({"version": version}))
        .await
        .ok();
    assert_eq!(
        count_where(&app, "terms_acceptances", &format!("version = '{version}'")).await,
        1
    );
    get(&app, "/api/v1/contact-requests/sent", &ada).await.ok();
}

async fn a_new_version_of_the_terms_closes_the_community_until_accepted(backend: Backend) {
    let app = spawn_app_with(backend, |c| c.community.terms_version = "2.0".into()).await;
    let ada = sign_up(&app, "ada@example.com").await;
    // Ada accepted 1.0 long ago, and 2.0 at sign-up: take the 2.0 away.
    sql(
        &app,
        "DELETE FROM terms_acceptances WHERE user_id = $1",
        vec![ada.id.into()],
    )
    .await;
    sql(
        &app,
        "INSERT INTO terms_acceptances (id, user_id, version) VALUES ($1, $2, '1.0')",
        vec![Uuid::now_v7().into(), ada.id.into()],
    )
    .await;
    get(&app, "/api/v1/contact-requests/received", &ada)
        .await
        .assert_error(403, "terms_required");
    post(
        &app,
        "/api/v1/account/terms",
        &ada,
        json!({"version": "2.0"}),
    )
    .await
    .ok();
    get(&app, "/api/v1/contact-requests/received", &ada)
        .await
        .ok();
    assert_eq!(count(&app, "terms_acceptances").await, 2, "both are kept");
}

async fn only_an_admin_corrects_a_date_and_the_correction_is_audited(backend: Backend) {
    let app = spawn_app(backend).await;
    let boss = admin(&app).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let bob = sign_up(&app, "bob@example.com").await;
    let path = format!("/api/v1/admin/users/{}/date-of-birth", ada.id);
    let body = json!({"date_of_birth": "1991-05-17", "reason": "A typo, shown by ID"});

    call(&app, Method::PUT, &path, None, Some(body.clone()))
        .await
        .assert_error(401, "not_signed_in");
    let service = app.service_token().await;
    call(&app, Method::PUT, &path, Some(&service), Some(body.clone()))
        .await
        .assert_error(401, "not_signed_in");
    for caller in [&ada, &bob] {
        call(
            &app,
            Method::PUT,
            &path,
            Some(&caller.token),
            Some(body.clone()),
        )
        .await
        .assert_error(403, "admin_only");
    }
    call(
        &app,
        Method::PUT,
        &path,
        Some(&boss.token),
        Some(json!({"date_of_birth": "1991-05-17", "reason": "  "})),
    )
    .await
    .assert_error(422, "validation_failed");
    call(
        &app,
        Method::PUT,
        &format!("/api/v1/admin/users/{}/date-of-birth", Uuid::new_v4()),
        Some(&boss.token),
        Some(body.clone()),
    )
    .await
    .assert_error(404, "not_found");
    assert_eq!(
        count_where(&app, "birth_dates", "source = 'admin'").await,
        0
    );

    let corrected = call(&app, Method::PUT, &path, Some(&boss.token), Some(body))
        .await
        .ok();
    assert_eq!(corrected["standing"]["adult"], true);
    assert_eq!(
        count_where(&app, "birth_dates", "source = 'admin'").await,
        1
    );
    let audit = get(&app, "/api/v1/admin/audit", &boss).await.ok();
    let text = audit.to_string();
    assert!(text.contains("date_of_birth_corrected"), "{text}");
    assert!(
        text.contains(ADULT_BIRTH_DATE) && text.contains("1991-05-17"),
        "{text}"
    );
    assert!(text.contains("A typo, shown by ID"), "{text}");

    // A correction to a minor's date closes the community to them.
    let minor = minor_birth_date();
    call(
        &app,
        Method::PUT,
        &path,
        Some(&boss.token),
        Some(json!({"date_of_birth": minor, "reason": "The real date"})),
    )
    .await
    .ok();
    get(&app, "/api/v1/contact-requests/sent", &ada)
        .await
        .assert_error(403, "age_required");
}

/// Every community endpoint, with a body each could take (the gate answers
/// before any of it is read).
fn community_endpoints(photo: Uuid, request: Uuid) -> Vec<(Method, String, Option<Value>)> {
    let any = Uuid::new_v4();
    vec![
        (
            Method::POST,
            "/api/v1/contest/entries".into(),
            Some(json!({"photo_id": photo, "attest_adult": true, "attest_original": true})),
        ),
        (
            Method::POST,
            "/api/v1/contact-requests".into(),
            Some(json!({"photoId": photo, "message": "Hello there, nice photo!"})),
        ),
        (
            Method::GET,
            "/api/v1/contact-requests/received".into(),
            None,
        ),
        (Method::GET, "/api/v1/contact-requests/sent".into(), None),
        (
            Method::GET,
            format!("/api/v1/contact-requests/{request}"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/contact-requests/{request}/approve"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/contact-requests/{request}/deny"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/contact-requests/{request}/block"),
            None,
        ),
        (
            Method::GET,
            format!("/api/v1/contact-requests/with/{photo}"),
            None,
        ),
        (
            Method::GET,
            format!("/api/v1/contact-requests/with?photoIds={photo}"),
            None,
        ),
        (
            Method::GET,
            format!("/api/v1/contact-requests/{request}/messages"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/contact-requests/{request}/messages"),
            Some(json!({"id": any, "body": "hi"})),
        ),
        (
            Method::POST,
            format!("/api/v1/contact-requests/{request}/messages/read"),
            Some(json!({"seq": 1})),
        ),
        (
            Method::GET,
            format!("/api/v1/contact-requests/{request}/messages/stream"),
            None,
        ),
        (Method::GET, "/api/v1/contact-requests/unread".into(), None),
        (Method::GET, "/api/v1/events/stream".into(), None),
        (
            Method::POST,
            "/api/v1/partners".into(),
            Some(json!({"display_name": "Ada", "website": "https://ada.example"})),
        ),
        (Method::GET, "/api/v1/partners/me".into(), None),
        (Method::GET, "/api/v1/payouts/earnings".into(), None),
        (
            Method::POST,
            "/api/v1/payouts/account".into(),
            Some(json!({})),
        ),
        (
            Method::GET,
            format!("/api/v1/payouts/sandbox/accounts/{any}"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/payouts/sandbox/accounts/{any}/complete"),
            None,
        ),
    ]
}

/// A listed photo of a member and a contact request id (none exists: the
/// gate answers first).
async fn targets(app: &TestApp) -> (Uuid, Uuid) {
    let owner = insert_user(app).await;
    let photo = insert_photo(app, owner, 9.0, Utc::now(), Listing::Listed).await;
    (photo, Uuid::new_v4())
}

/// `POST /api/v1/photos` with `public_listing`.
fn listing_form() -> reqwest::multipart::Form {
    astronaut()
        .text("public_listing", "true")
        .text("display_name", "Ada")
}

async fn assert_gated(app: &TestApp, caller: &Caller, code: &str) {
    let (photo, request) = targets(app).await;
    for (method, path, body) in community_endpoints(photo, request) {
        let reply = call(app, method.clone(), &path, Some(&caller.token), body).await;
        assert_eq!(
            (reply.status, reply.body["code"].as_str()),
            (StatusCode::FORBIDDEN, Some(code)),
            "{method} {path}: {}",
            reply.body
        );
    }
    save_photo(app, &caller.token, listing_form())
        .await
        .assert_error(403, code);
}

async fn every_community_endpoint_asks_for_an_adult_on_file(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up_bare("ada@example.com").await;
    let ada = Caller {
        token: access(&tokens).to_owned(),
        id: tokens["user"]["id"].as_str().unwrap().parse().unwrap(),
        email: "ada@example.com".into(),
    };
    assert_gated(&app, &ada, "age_required").await;
    // Anonymous callers are not signed in, on every one of them.
    let (photo, request) = targets(&app).await;
    for (method, path, body) in community_endpoints(photo, request) {
        call(&app, method, &path, None, body)
            .await
            .assert_error(401, "not_signed_in");
    }
    // With the date (and the terms) on file, the same calls pass the gate.
    make_member(&app, ada.id).await;
    get(&app, "/api/v1/contact-requests/sent", &ada).await.ok();
    get(&app, "/api/v1/payouts/earnings", &ada).await.ok();
    let saved = save_photo(&app, &ada.token, listing_form()).await;
    assert_eq!(saved.status, StatusCode::CREATED, "{}", saved.body);
}

async fn every_community_endpoint_asks_for_the_terms_and_a_confirmed_address(backend: Backend) {
    let app = spawn_app(backend).await;
    // The date but not the terms.
    let tokens = app
        .post(
            "/signup",
            json!({"email": "ada@example.com", "password": PASSWORD, "data": {"date_of_birth": ADULT_BIRTH_DATE}}),
        )
        .await
        .assert_ok()
        .clone();
    let ada = Caller {
        token: access(&tokens).to_owned(),
        id: tokens["user"]["id"].as_str().unwrap().parse().unwrap(),
        email: "ada@example.com".into(),
    };
    assert_gated(&app, &ada, "terms_required").await;

    // Date and terms, but the address is not confirmed.
    make_terms(&app, ada.id).await;
    sql(
        &app,
        "UPDATE users SET email_confirmed_at = NULL WHERE id = $1",
        vec![ada.id.into()],
    )
    .await;
    assert_gated(&app, &ada, "confirmation_required").await;
    let standing = standing(&app, &ada).await;
    assert_eq!(
        (
            standing["adult"].clone(),
            standing["terms_accepted"].clone(),
            standing["confirmed"].clone()
        ),
        (json!(true), json!(true), json!(false))
    );
    // A confirmed phone counts as well as an email.
    sql(
        &app,
        "UPDATE users SET phone = '15550100', phone_confirmed_at = $1 WHERE id = $2",
        vec![Utc::now().into(), ada.id.into()],
    )
    .await;
    get(&app, "/api/v1/contact-requests/sent", &ada).await.ok();
}

async fn with_smtp_a_sign_up_waits_for_its_confirmation_mail(backend: Backend) {
    let app = spawn_app_with(backend, |c| {
        // Nothing listens there: the mail waits in the outbox, which is enough.
        c.auth.smtp = Some(prettyscore_server::config::SmtpConfig {
            host: "127.0.0.1".into(),
            port: 9,
            username: None,
            password: None,
            security: prettyscore_server::config::SmtpSecurity::None,
            from: "no-reply@example.com".into(),
        });
    })
    .await;
    assert!(
        !app.config.auth.autoconfirm(),
        "confirmation is on with SMTP"
    );
    let reply = app
        .post(
            "/signup",
            json!({"email": "bob@example.com", "password": PASSWORD, "data": app.member_data()}),
        )
        .await;
    reply.assert_ok();
    assert!(
        reply.body["access_token"].is_null(),
        "no session before the mail: {}",
        reply.body
    );
    assert!(reply.body["email_confirmed_at"].is_null());
    assert_eq!(count(&app, "birth_dates").await, 1, "the date is on file");
    assert_eq!(count(&app, "terms_acceptances").await, 1);
}

async fn make_terms(app: &TestApp, user: Uuid) {
    sql(
        app,
        "INSERT INTO terms_acceptances (id, user_id, version) VALUES ($1, $2, $3)",
        vec![
            Uuid::now_v7().into(),
            user.into(),
            app.config.community.terms_version.clone().into(),
        ],
    )
    .await;
}

async fn scoring_edits_and_the_personality_test_stay_open(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up_bare("ada@example.com").await;
    let ada = Caller {
        token: access(&tokens).to_owned(),
        id: tokens["user"]["id"].as_str().unwrap().parse().unwrap(),
        email: "ada@example.com".into(),
    };
    get(&app, "/api/v1/personality/quiz", &ada).await.ok();
    get(&app, "/api/v1/personality/results", &ada).await.ok();
    get(&app, "/api/v1/edits/quota", &ada).await.ok();
    get(&app, "/api/v1/dashboard", &ada).await.ok();
    // A private save (no listing) is open too.
    let saved = save_photo(&app, &ada.token, astronaut()).await;
    assert_eq!(saved.status, StatusCode::CREATED, "{}", saved.body);
}

async fn a_contestant_who_is_not_a_member_receives_no_request(backend: Backend) {
    let app = spawn_app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let owner = insert_user(&app).await;
    let photo = insert_photo(&app, owner, 9.0, Utc::now(), Listing::Listed).await;
    // Listed (an adult on file), but the terms in force not accepted.
    sql(
        &app,
        "DELETE FROM terms_acceptances WHERE user_id = $1",
        vec![owner.into()],
    )
    .await;
    post(
        &app,
        "/api/v1/contact-requests",
        &fan,
        json!({"photoId": photo, "message": "Hello there, nice photo!"}),
    )
    .await
    .assert_error(403, "recipient_unavailable");
    assert_eq!(count(&app, "contact_requests").await, 0);
}

async fn names_posing_as_the_service_are_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    for name in [
        "PrettyScore Support Team",
        "Adm1n",
        "S U P P O R T",
        "ＯＦＦＩＣＩＡＬ",
    ] {
        let mut data = app.member_data();
        data["display_name"] = json!(name);
        let reply = app
            .post(
                "/signup",
                json!({"email": "fake@example.com", "password": PASSWORD, "data": data}),
            )
            .await;
        reply.assert_error(422, "validation_failed");
        assert!(
            reply.message().contains("pose as the service"),
            "{name}: {}",
            reply.body
        );
    }
    assert_eq!(count(&app, "users").await, 0);

    let ada = sign_up(&app, "ada@example.com").await;
    app.put_as(
        &ada.token,
        "/user",
        json!({"data": {"display_name": "Mod3rator Ada"}}),
    )
    .await
    .assert_error(422, "validation_failed");
    app.put_as(
        &ada.token,
        "/user",
        json!({"data": {"full_name": "PrettyScore Staff"}}),
    )
    .await
    .assert_error(422, "validation_failed");
    app.put_as(
        &ada.token,
        "/user",
        json!({"data": {"display_name": "Ada L."}}),
    )
    .await
    .ok();

    // A leaderboard listing's name too.
    let listed = save_photo(
        &app,
        &ada.token,
        astronaut()
            .text("public_listing", "true")
            .text("display_name", "Official PrettyScore"),
    )
    .await;
    listed.assert_error(422, "validation_failed");

    // A name set before the rule does not reach a contestant.
    let old = sign_up(&app, "old@example.com").await;
    sql(
        &app,
        "UPDATE users SET raw_user_meta_data = $1 WHERE id = $2",
        vec![
            json!({"display_name": "Support Team"}).into(),
            old.id.into(),
        ],
    )
    .await;
    let owner = insert_user(&app).await;
    let photo = insert_photo(&app, owner, 9.0, Utc::now(), Listing::Listed).await;
    post(
        &app,
        "/api/v1/contact-requests",
        &old,
        json!({"photoId": photo, "message": "Hello there, nice photo!"}),
    )
    .await
    .assert_error(422, "validation_failed");
}

async fn the_reserved_words_come_from_the_configuration(backend: Backend) {
    let app = spawn_app_with(backend, |c| {
        c.community.reserved_name_words = vec!["acme".into()];
    })
    .await;
    let mut data = app.member_data();
    data["display_name"] = json!("Support");
    app.post(
        "/signup",
        json!({"email": "ok@example.com", "password": PASSWORD, "data": data}),
    )
    .await
    .assert_ok();
    let mut data = app.member_data();
    data["display_name"] = json!("A.C.M.E helpdesk");
    app.post(
        "/signup",
        json!({"email": "no@example.com", "password": PASSWORD, "data": data}),
    )
    .await
    .assert_error(422, "validation_failed");
}

async fn the_export_has_the_date_and_every_acceptance(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    sql(
        &app,
        "INSERT INTO terms_acceptances (id, user_id, version) VALUES ($1, $2, '0.9')",
        vec![Uuid::now_v7().into(), ada.id.into()],
    )
    .await;
    let export = get(&app, "/api/v1/account/export", &ada).await.ok();
    let account = &export["sections"]["account"];
    assert_eq!(account["date_of_birth"]["date_of_birth"], ADULT_BIRTH_DATE);
    assert_eq!(account["date_of_birth"]["source"], "self");
    let versions: Vec<&str> = account["terms_acceptances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions.len(), 2, "{account}");
    assert!(versions.contains(&"0.9"));
    assert!(versions.contains(&app.config.community.terms_version.as_str()));
    assert!(account["terms_acceptances"][0]["accepted_at"].is_string());

    // Never shown to others: not in another user's view of Ada's account.
    let bob = sign_up(&app, "bob@example.com").await;
    let bobs = get(&app, "/api/v1/account/export", &bob).await.ok();
    assert!(!bobs.to_string().contains(&ada.id.to_string()));
}

/// A listing from before the age question, or of a user an admin found to
/// be a minor, is off the leaderboard (its rank, its image, its report
/// button) until an adult date is on file; the listing itself is kept.
async fn only_an_adult_on_file_is_on_the_leaderboard(backend: Backend) {
    let app = spawn_app(backend).await;
    let boss = admin(&app).await;
    let owner = insert_user(&app).await;
    let photo = insert_photo(&app, owner, 9.0, Utc::now(), Listing::Listed).await;
    store_original(&app, photo, "face/astronaut.png").await;
    // Each look asks a page size of its own: the leaderboard's answers are
    // shared for a second per query, and each look must be fresh.
    let looks = std::sync::atomic::AtomicU32::new(20);
    let board = || async {
        let limit = looks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        call(
            &app,
            Method::GET,
            &format!("/api/v1/leaderboard?limit={limit}"),
            None,
            None,
        )
        .await
        .ok()
        .to_string()
    };
    let image = format!("/api/v1/leaderboard/entries/{photo}/image");
    assert!(board().await.contains(&photo.to_string()));
    assert_eq!(app.get(&image).await.status(), StatusCode::OK);

    // An account from before the question: no date on file.
    sql(
        &app,
        "DELETE FROM birth_dates WHERE user_id = $1",
        vec![owner.into()],
    )
    .await;
    assert!(!board().await.contains(&photo.to_string()));
    assert_eq!(app.get(&image).await.status(), StatusCode::NOT_FOUND);

    // An admin finds a minor's date, then the right one.
    let correct = |date: String| {
        let app = &app;
        let boss = &boss;
        async move {
            call(
                app,
                Method::PUT,
                &format!("/api/v1/admin/users/{owner}/date-of-birth"),
                Some(&boss.token),
                Some(json!({"date_of_birth": date, "reason": "Shown by ID"})),
            )
            .await
            .ok();
        }
    };
    correct(minor_birth_date()).await;
    assert!(!board().await.contains(&photo.to_string()));
    correct(ADULT_BIRTH_DATE.to_owned()).await;
    assert!(board().await.contains(&photo.to_string()));
    assert_eq!(app.get(&image).await.status(), StatusCode::OK);
    let kept = count_where(&app, "photos", "public_listing AND is_verified").await;
    assert_eq!(kept, 1, "the listing itself was never withdrawn");
}
