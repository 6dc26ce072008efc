//! Issue 41, sections 3 and 4: anything public or shared can be reported
//! (signed-out visitors too, for public content), one admin queue with
//! urgent reasons first, decisions taken once with a statement of reasons
//! mailed to each reporter and the affected user, removed content gone
//! everywhere with its bytes, bans that stop sign-in, one appeal answered by
//! another admin; and in a chat, block, leave, report and "Are you sure?".

use chrono::Utc;
use prettyscore_server::admin::roles::grant_admin;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::{
    Backend, Caller, PASSWORD, Reply, State, TestApp, admin, call, count_where, files_under, get,
    insert_photo, on_both_databases, pay_in_sandbox, post, sandbox_app, sign_up, spawn_app, sql,
    store_original,
};

on_both_databases!(
    anyone_reports_public_content_and_only_the_parties_report_a_chat,
    eight_reports_and_eight_decisions_on_one_photo_make_one_decision_and_one_mail_each,
    a_ban_stops_sign_in_and_the_appeal_is_heard_once_by_another_admin,
    an_intimate_image_is_kept_as_evidence_out_of_sight_and_urgent_reports_come_first,
    either_side_of_a_chat_blocks_leaves_and_reports,
    a_hurtful_message_is_sent_only_after_are_you_sure,
    the_export_holds_the_reports_filed_the_decisions_and_the_appeal,
);

const REPORTS: &str = "/api/v1/reports";
const QUEUE: &str = "/api/v1/admin/reports";
const REQUESTS: &str = "/api/v1/contact-requests";

/// A listed photo of `owner` with its image stored and a live share link
/// (`/s/<slug>`); its id.
async fn shared_entry(app: &TestApp, owner: Uuid, slug: &str) -> Uuid {
    let photo = insert_photo(app, owner, 8.8, Utc::now(), State::Listed).await;
    store_original(app, photo, "face/astronaut.png").await;
    sql(
        app,
        "UPDATE photos SET share_slug = $1 WHERE id = $2",
        vec![slug.into(), photo.into()],
    )
    .await;
    photo
}

fn anonymous_report(kind: &str, id: &str, email: &str) -> Value {
    json!({
        "target": {"kind": kind, "id": id},
        "reason": "my_photo_without_consent",
        "details": "This is me, I never agreed to this.",
        "reporter_email": email,
        "good_faith": true,
    })
}

fn report_of(kind: &str, id: &str, reason: &str) -> Value {
    json!({"target": {"kind": kind, "id": id}, "reason": reason, "details": "Please look at this"})
}

async fn anonymous(app: &TestApp, path: &str, body: Value) -> Reply {
    call(app, Method::POST, path, None, Some(body)).await
}

async fn mails(app: &TestApp, kind: &str, to: &str) -> i64 {
    count_where(
        app,
        "mail_outbox",
        &format!("kind = '{kind}' AND to_address = '{to}'"),
    )
    .await
}

/// The body of the newest mail of `kind` to `to`.
async fn last_mail(app: &TestApp, kind: &str, to: &str) -> String {
    use prettyscore_server::mail::outbox;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
    outbox::Entity::find()
        .filter(outbox::Column::Kind.eq(kind))
        .filter(outbox::Column::ToAddress.eq(to))
        .order_by_desc(outbox::Column::CreatedAt)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no {kind} mail to {to}"))
        .body_text
}

/// A second admin, `second@example.com`.
async fn second_admin(app: &TestApp) -> Caller {
    let second = sign_up(app, "second@example.com").await;
    grant_admin(&app.db, "second@example.com").await.unwrap();
    second
}

async fn the_queue(app: &TestApp, admin: &Caller) -> Value {
    get(app, QUEUE, admin).await.ok()
}

async fn anyone_reports_public_content_and_only_the_parties_report_a_chat(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up(&app, "owner@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = admin(&app).await;
    let photo = shared_entry(&app, owner.id, "sunny-day").await;

    // A signed-out visitor reports the share page with an address and the
    // good-faith statement; without either, a clear refusal.
    let mut no_email = anonymous_report("share", "sunny-day", "");
    no_email["reporter_email"] = Value::Null;
    let refused = anonymous(&app, REPORTS, no_email).await;
    refused.assert_error(422, "validation_failed");
    assert!(
        refused.body["message"].as_str().unwrap().contains("email"),
        "{}",
        refused.body
    );
    let mut no_faith = anonymous_report("share", "sunny-day", "visitor@example.com");
    no_faith["good_faith"] = json!(false);
    anonymous(&app, REPORTS, no_faith)
        .await
        .assert_error(422, "validation_failed");
    let Reply { status, body, .. } = anonymous(
        &app,
        REPORTS,
        anonymous_report("share", "sunny-day", "visitor@example.com"),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert!(body["id"].is_string());
    assert_eq!(
        mails(&app, "report_received", "visitor@example.com").await,
        1,
        "confirmed by mail"
    );
    // A leaderboard entry and a contest entry are public too; a user and a
    // chat are not, for a signed-out visitor.
    anonymous(
        &app,
        REPORTS,
        anonymous_report("photo", &photo.to_string(), "visitor@example.com"),
    )
    .await
    .ok_status(StatusCode::ACCEPTED);
    anonymous(
        &app,
        REPORTS,
        anonymous_report("user", &owner.id.to_string(), "visitor@example.com"),
    )
    .await
    .assert_error(401, "not_signed_in");
    anonymous(
        &app,
        REPORTS,
        anonymous_report("share", "no-such-slug", "visitor@example.com"),
    )
    .await
    .assert_error(404, "not_found");
    // Rate-limited per address: five an hour (the four above count, those
    // refused after the check too).
    anonymous(
        &app,
        REPORTS,
        anonymous_report("share", "sunny-day", "visitor@example.com"),
    )
    .await
    .ok_status(StatusCode::ACCEPTED);
    anonymous(
        &app,
        REPORTS,
        anonymous_report("share", "sunny-day", "visitor@example.com"),
    )
    .await
    .assert_error(429, "rate_limited");

    // Signed in: the owner cannot report their own photo; another user and
    // an admin can; a repeated report answers the first.
    post(
        &app,
        REPORTS,
        &owner,
        report_of("photo", &photo.to_string(), "spam_or_scam"),
    )
    .await
    .assert_error(422, "validation_failed");
    let first = post(
        &app,
        REPORTS,
        &other,
        report_of("share", "sunny-day", "spam_or_scam"),
    )
    .await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.body);
    let again = post(
        &app,
        REPORTS,
        &other,
        report_of("photo", &photo.to_string(), "harassment"),
    )
    .await;
    assert_eq!(
        again.body["id"], first.body["id"],
        "one report per user and thing"
    );
    post(
        &app,
        REPORTS,
        &admin,
        report_of("contest_entry", &photo.to_string(), "other"),
    )
    .await
    .assert_error(404, "not_found"); // not a contest entry
    post(
        &app,
        REPORTS,
        &admin,
        report_of("user", &owner.id.to_string(), "harassment"),
    )
    .await
    .ok_status(StatusCode::ACCEPTED);
    post(&app, REPORTS, &other, report_of("spaceship", "x", "other"))
        .await
        .assert_error(422, "validation_failed");
    post(
        &app,
        REPORTS,
        &other,
        report_of("user", &owner.id.to_string(), "because"),
    )
    .await
    .assert_error(422, "validation_failed");

    // The service role is not a user: it reports nothing and sees no queue.
    let service = app.service_token().await;
    let Reply { status, .. } = app
        .send(
            app.client
                .post(app.url(REPORTS))
                .bearer_auth(&service)
                .json(&report_of("photo", &photo.to_string(), "other")),
        )
        .await;
    assert!(
        status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN,
        "{status}"
    );
    let Reply { status, .. } = app
        .send(app.client.get(app.url(QUEUE)).bearer_auth(&service))
        .await;
    assert!(
        status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN,
        "{status}"
    );

    // The queue: admins only; the share report shows as a photo, with its
    // 48 hours.
    call(&app, Method::GET, QUEUE, None, None)
        .await
        .assert_error(401, "not_signed_in");
    for user in [&owner, &other] {
        get(&app, QUEUE, user).await.assert_error(403, "admin_only");
    }
    let queue = the_queue(&app, &admin).await;
    let reports = queue["reports"].as_array().unwrap();
    let share = reports
        .iter()
        .find(|r| r["reported_as"] == "share")
        .expect("the share report");
    assert_eq!(share["target_kind"], "photo");
    assert_eq!(share["target_id"], photo.to_string());
    assert_eq!(share["affected_email"], "owner@example.com");
    assert_eq!(share["reporter_email"], "visitor@example.com");
    assert_eq!(share["signed_out"], true);
    let left = share["seconds_left"].as_i64().unwrap();
    assert!((47 * 3600..=48 * 3600).contains(&left), "{left}");
}

trait ReplyExt {
    fn ok_status(&self, status: StatusCode);
}

impl ReplyExt for Reply {
    fn ok_status(&self, status: StatusCode) {
        assert_eq!(self.status, status, "{}", self.body);
    }
}

async fn eight_reports_and_eight_decisions_on_one_photo_make_one_decision_and_one_mail_each(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = sign_up(&app, "owner@example.com").await;
    let admin = admin(&app).await;
    let photo = shared_entry(&app, owner.id, "to-be-removed").await;
    assert_eq!(app.get("/s/to-be-removed").await.status(), StatusCode::OK);
    let media = app.config.data_dir.join("media");
    let stored = |path: &std::path::Path| {
        files_under(path)
            .into_iter()
            .filter(|file| file.to_string_lossy().contains(&photo.to_string()))
            .count()
    };
    assert!(stored(&media) > 0, "the image is stored");

    // Eight visitors report it at once.
    let reports = futures::future::join_all((0..8).map(|n| {
        let app = &app;
        async move {
            anonymous(
                app,
                REPORTS,
                anonymous_report("share", "to-be-removed", &format!("v{n}@example.com")),
            )
            .await
        }
    }))
    .await;
    for reply in &reports {
        reply.ok_status(StatusCode::ACCEPTED);
    }
    let queue = the_queue(&app, &admin).await;
    assert_eq!(queue["reports"].as_array().unwrap().len(), 8);
    assert_eq!(queue["reports"][0]["open_reports_of_target"], 8);

    // Who may decide: admins only.
    let id = reports[3].body["id"].as_str().unwrap().to_owned();
    let decision = format!("{QUEUE}/{id}/decision");
    let body = json!({"action": "remove", "rule": "g2", "statement": "The person in the photo did not agree to it being posted."});
    call(&app, Method::POST, &decision, None, Some(body.clone()))
        .await
        .assert_error(401, "not_signed_in");
    post(&app, &decision, &owner, body.clone())
        .await
        .assert_error(403, "admin_only");
    post(&app, &decision, &admin, json!({"action": "remove"}))
        .await
        .assert_error(422, "validation_failed");
    post(
        &app,
        &decision,
        &admin,
        json!({"action": "explode", "statement": "x"}),
    )
    .await
    .assert_error(422, "validation_failed");

    // Eight decisions at once, on eight of the reports: one decision.
    let replies = futures::future::join_all(reports.iter().map(|reply| {
        let app = &app;
        let admin = &admin;
        let body = body.clone();
        let path = format!("{QUEUE}/{}/decision", reply.body["id"].as_str().unwrap());
        async move { post(app, &path, admin, body).await }
    }))
    .await;
    let decided: Vec<&Reply> = replies
        .iter()
        .filter(|reply| reply.status == StatusCode::CREATED)
        .collect();
    assert_eq!(decided.len(), 1, "{replies:?}");
    for reply in replies.iter().filter(|r| r.status != StatusCode::CREATED) {
        reply.assert_error(409, "already_decided");
    }
    assert_eq!(count_where(&app, "moderation_decisions", "1 = 1").await, 1);
    assert_eq!(count_where(&app, "reports", "status = 'open'").await, 0);
    let view = &decided[0].body;
    assert_eq!(view["action"], "remove");
    assert_eq!(view["rule_link"], "/guidelines#g2");

    // One statement of reasons to each reporter, one to the owner.
    for n in 0..8 {
        assert_eq!(
            mails(&app, "report_decided", &format!("v{n}@example.com")).await,
            1
        );
    }
    assert_eq!(
        mails(&app, "moderation_decision", "owner@example.com").await,
        1
    );
    let statement = last_mail(&app, "moderation_decision", "owner@example.com").await;
    for part in [
        "What we decided: We removed",
        "did not agree to it being posted",
        "/guidelines#g2",
        "/appeal/",
        "appeal once",
    ] {
        assert!(statement.contains(part), "{part} not in {statement}");
    }

    // Gone everywhere at once: the share page and card, the leaderboard,
    // the stored bytes.
    assert_eq!(
        app.get("/s/to-be-removed").await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/s/to-be-removed/card.png").await.status(),
        StatusCode::NOT_FOUND
    );
    let board = call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
    assert!(!board.body.to_string().contains(&photo.to_string()));
    assert_eq!(stored(&media), 0, "the removed photo's bytes are deleted");
    assert_eq!(count_where(&app, "photos", "1 = 1").await, 0);

    // Audited.
    assert_eq!(
        count_where(
            &app,
            "audit_log_entries",
            "CAST(payload AS TEXT) LIKE '%report_decided%'"
        )
        .await,
        1
    );
}

async fn a_ban_stops_sign_in_and_the_appeal_is_heard_once_by_another_admin(backend: Backend) {
    let app = sandbox_app(backend).await;
    let owner = sign_up(&app, "owner@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let stranger = sign_up(&app, "stranger@example.com").await;
    let first_admin = admin(&app).await;
    let photo = shared_entry(&app, owner.id, "banned-one").await;
    // A paid request is waiting for the owner: the ban releases its hold.
    let request = crate::contact::created(&app, &fan, photo).await;
    crate::contact::pay(&app, &fan, &request).await;

    let report = post(
        &app,
        REPORTS,
        &fan,
        report_of("user", &owner.id.to_string(), "spam_or_scam"),
    )
    .await;
    report.ok_status(StatusCode::ACCEPTED);
    let decided = post(
        &app,
        &format!("{QUEUE}/{}/decision", report.body["id"].as_str().unwrap()),
        &first_admin,
        json!({"action": "ban", "statement": "Selling followers to other members."}),
    )
    .await;
    decided.ok_status(StatusCode::CREATED);
    let decision_id = decided.body["id"].as_str().unwrap().to_owned();

    // Banned: no sign-in, the listing and the share link withdrawn, the
    // waiting request's hold released.
    app.sign_in("owner@example.com", PASSWORD)
        .await
        .assert_error(400, "user_banned");
    assert_eq!(
        app.get("/s/banned-one").await.status(),
        StatusCode::NOT_FOUND
    );
    let board = call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
    assert!(!board.body.to_string().contains(&photo.to_string()));
    assert_eq!(
        crate::contact::payment_of(&app, &request).await.status,
        "canceled",
        "the held fee is released"
    );
    assert_eq!(mails(&app, "report_decided", "fan@example.com").await, 1);

    // The appeal, from the mail's link (the owner cannot sign in).
    let mail = last_mail(&app, "moderation_decision", "owner@example.com").await;
    let token = mail
        .split("token=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the appeal link")
        .trim_end_matches(['.', ')'])
        .to_owned();
    let view = format!("/api/v1/moderation-decisions/{decision_id}");
    call(&app, Method::GET, &view, None, None)
        .await
        .assert_error(401, "not_signed_in");
    get(&app, &view, &stranger)
        .await
        .assert_error(404, "not_found");
    get(&app, &view, &first_admin)
        .await
        .assert_error(404, "not_found");
    call(
        &app,
        Method::GET,
        &format!("{view}?token=wrong"),
        None,
        None,
    )
    .await
    .assert_error(404, "not_found");
    let seen = call(
        &app,
        Method::GET,
        &format!("{view}?token={token}"),
        None,
        None,
    )
    .await
    .ok();
    assert_eq!(seen["action"], "ban");
    assert_eq!(seen["appealable"], true);

    let appeal = format!("{view}/appeal");
    post(&app, &appeal, &stranger, json!({"statement": "Not me"}))
        .await
        .assert_error(404, "not_found");
    anonymous(&app, &appeal, json!({"token": token}))
        .await
        .assert_error(422, "validation_failed");
    let appeals = futures::future::join_all((0..8).map(|_| {
        let app = &app;
        let appeal = appeal.clone();
        let token = token.clone();
        async move {
            anonymous(
                app,
                &appeal,
                json!({"token": token, "statement": "I never sold anything; these were my friends."}),
            )
            .await
        }
    }))
    .await;
    assert_eq!(
        appeals
            .iter()
            .filter(|r| r.status == StatusCode::CREATED)
            .count(),
        1,
        "{appeals:?}"
    );
    for reply in appeals.iter().filter(|r| r.status != StatusCode::CREATED) {
        reply.assert_error(409, "already_appealed");
    }
    let appeal_id = appeals
        .iter()
        .find(|r| r.status == StatusCode::CREATED)
        .unwrap()
        .body["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // The admin who decided cannot hear it; a second admin can, once.
    let queue = the_queue(&app, &first_admin).await;
    assert_eq!(queue["appeals"][0]["may_decide"], false);
    assert_eq!(queue["admins"], 1);
    let answer = format!("/api/v1/admin/appeals/{appeal_id}/decision");
    let reversal = json!({"outcome": "reversed", "answer": "We checked again: these were friends, not buyers."});
    post(&app, &answer, &first_admin, reversal.clone())
        .await
        .assert_error(409, "second_admin_required");
    post(&app, &answer, &owner, reversal.clone())
        .await
        .assert_error(401, "not_signed_in");
    post(&app, &answer, &stranger, reversal.clone())
        .await
        .assert_error(403, "admin_only");
    let second = second_admin(&app).await;
    assert_eq!(
        the_queue(&app, &second).await["appeals"][0]["may_decide"],
        true
    );
    let answered = post(&app, &answer, &second, reversal.clone()).await.ok();
    assert_eq!(answered["appeal_status"], "reversed");
    post(&app, &answer, &second, reversal)
        .await
        .assert_error(409, "already_decided");
    assert_eq!(mails(&app, "appeal_decided", "owner@example.com").await, 1);
    // Reversed: the owner signs in again and sees the decision on /account.
    let tokens = app.sign_in("owner@example.com", PASSWORD).await.ok();
    let owner_again = Caller {
        token: tokens["access_token"].as_str().unwrap().to_owned(),
        id: owner.id,
        email: owner.email.clone(),
    };
    let mine = get(&app, "/api/v1/account/moderation-decisions", &owner_again)
        .await
        .ok();
    assert_eq!(mine[0]["appeal_status"], "reversed");
    assert_eq!(mine[0]["appealable"], false);
    assert_eq!(
        get(&app, "/api/v1/account/moderation-decisions", &stranger)
            .await
            .ok(),
        json!([])
    );
    call(
        &app,
        Method::GET,
        "/api/v1/account/moderation-decisions",
        None,
        None,
    )
    .await
    .assert_error(401, "not_signed_in");
    assert_eq!(
        count_where(
            &app,
            "audit_log_entries",
            "CAST(payload AS TEXT) LIKE '%appeal_decided%'"
        )
        .await,
        1
    );
}

async fn an_intimate_image_is_kept_as_evidence_out_of_sight_and_urgent_reports_come_first(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = sign_up(&app, "owner@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = admin(&app).await;
    let spam = shared_entry(&app, owner.id, "spammy").await;
    let intimate = shared_entry(&app, owner.id, "intimate").await;
    post(
        &app,
        REPORTS,
        &other,
        report_of("photo", &spam.to_string(), "spam_or_scam"),
    )
    .await
    .ok_status(StatusCode::ACCEPTED);
    let urgent = anonymous(
        &app,
        REPORTS,
        json!({"target": {"kind": "share", "id": "intimate"}, "reason": "intimate_image_without_consent",
               "reporter_email": "me@example.com", "good_faith": true}),
    )
    .await;
    urgent.ok_status(StatusCode::ACCEPTED);
    let queue = the_queue(&app, &admin).await;
    assert_eq!(
        queue["reports"][0]["reason"],
        "intimate_image_without_consent"
    );
    assert_eq!(queue["reports"][0]["urgent"], true);
    assert_eq!(queue["reports"][1]["urgent"], false);

    post(
        &app,
        &format!("{QUEUE}/{}/decision", urgent.body["id"].as_str().unwrap()),
        &admin,
        json!({"action": "remove", "statement": "An intimate image shared without consent."}),
    )
    .await
    .ok_status(StatusCode::CREATED);
    let media = app.config.data_dir.join("media");
    let files = files_under(&media);
    assert!(
        !files.iter().any(|f| f
            .to_string_lossy()
            .contains(&format!("photos/{}/{intimate}", owner.id))),
        "the public copy is gone: {files:?}"
    );
    let evidence: Vec<_> = files
        .iter()
        .filter(|f| f.to_string_lossy().contains("evidence/"))
        .collect();
    assert_eq!(evidence.len(), 1, "kept as evidence: {files:?}");
    assert_eq!(app.get("/s/intimate").await.status(), StatusCode::NOT_FOUND);
    // Never public: no media URL reaches it without a signature.
    let key = evidence[0]
        .strip_prefix(&media)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/");
    assert_eq!(
        app.get(&format!("/media/{key}")).await.status(),
        StatusCode::NOT_FOUND
    );
}

/// A contestant, a requester, and their approved conversation's id.
async fn conversation(app: &TestApp) -> (Caller, Caller, String) {
    let star = sign_up(app, "star@example.com").await;
    let fan = sign_up(app, "fan@example.com").await;
    let photo = insert_photo(app, star.id, 9.0, Utc::now(), State::Listed).await;
    let request = post(
        app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": "Hello, I would love to talk!"}),
    )
    .await;
    request.ok_status(StatusCode::CREATED);
    let opened = post(
        app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request.body["id"]}}),
    )
    .await
    .ok();
    pay_in_sandbox(app, &fan, opened["sessionId"].as_str().unwrap()).await;
    let id = request.body["id"].as_str().unwrap().to_owned();
    post(app, &format!("{REQUESTS}/{id}/approve"), &star, json!({}))
        .await
        .ok();
    (star, fan, id)
}

async fn say(app: &TestApp, who: &Caller, id: &str, content: &str) -> Reply {
    post(
        app,
        &format!("{REQUESTS}/{id}/messages"),
        who,
        json!({"id": Uuid::new_v4(), "content": content}),
    )
    .await
}

async fn either_side_of_a_chat_blocks_leaves_and_reports(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let (star, fan, id) = conversation(&app).await;
    let stranger = sign_up(&app, "stranger@example.com").await;
    let rude = say(&app, &star, &id, "You are such a creep, go away").await;
    rude.ok_status(StatusCode::CREATED);
    let message = rude.body["id"].as_str().unwrap().to_owned();

    // The requester reports the contestant's message; the contestant the
    // whole conversation. Nobody else can, and nobody reports their own.
    post(
        &app,
        REPORTS,
        &stranger,
        report_of("message", &message, "harassment"),
    )
    .await
    .assert_error(404, "not_found");
    anonymous(
        &app,
        REPORTS,
        anonymous_report("message", &message, "x@example.com"),
    )
    .await
    .assert_error(401, "not_signed_in");
    post(
        &app,
        REPORTS,
        &star,
        report_of("message", &message, "harassment"),
    )
    .await
    .assert_error(422, "validation_failed");
    let reported = post(
        &app,
        REPORTS,
        &fan,
        report_of("message", &message, "harassment"),
    )
    .await;
    reported.ok_status(StatusCode::ACCEPTED);
    post(
        &app,
        REPORTS,
        &star,
        report_of("conversation", &id, "spam_or_scam"),
    )
    .await
    .ok_status(StatusCode::ACCEPTED);
    post(
        &app,
        REPORTS,
        &stranger,
        report_of("conversation", &id, "spam_or_scam"),
    )
    .await
    .assert_error(404, "not_found");
    let queue = the_queue(&app, &admin).await;
    let conv = queue["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["target_kind"] == "conversation")
        .unwrap()
        .clone();
    assert_eq!(conv["affected_email"], "fan@example.com", "the other party");

    // Removed: both parties see "This message was removed".
    post(
        &app,
        &format!("{QUEUE}/{}/decision", reported.body["id"].as_str().unwrap()),
        &admin,
        json!({"action": "remove", "statement": "Insults break rule 5."}),
    )
    .await
    .ok_status(StatusCode::CREATED);
    for party in [&star, &fan] {
        let page = get(&app, &format!("{REQUESTS}/{id}/messages"), party)
            .await
            .ok();
        let shown = &page["messages"][0];
        assert_eq!(shown["removed"], true);
        assert_eq!(shown["content"], "");
    }
    assert_eq!(
        mails(&app, "moderation_decision", "star@example.com").await,
        1
    );
    assert_eq!(mails(&app, "report_decided", "fan@example.com").await, 1);

    // The requester blocks the contestant: the chat ends for both, and
    // neither can open a new request to the other.
    let block = format!("{REQUESTS}/{id}/block");
    call(&app, Method::POST, &block, None, Some(json!({})))
        .await
        .assert_error(401, "not_signed_in");
    post(&app, &block, &stranger, json!({}))
        .await
        .assert_error(404, "not_found");
    assert_eq!(
        post(&app, &block, &fan, json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    for party in [&star, &fan] {
        say(&app, party, &id, "still there?")
            .await
            .assert_error(409, "conversation_closed");
    }
    let photo = insert_photo(&app, star.id, 8.0, Utc::now(), State::Listed).await;
    post(
        &app,
        REQUESTS,
        &fan,
        json!({"photoId": photo, "message": "Sorry, can we talk again?"}),
    )
    .await
    .assert_error(403, "blocked");
    let fan_photo = insert_photo(&app, fan.id, 8.0, Utc::now(), State::Listed).await;
    post(
        &app,
        REQUESTS,
        &star,
        json!({"photoId": fan_photo, "message": "Hey, why did you block me?"}),
    )
    .await
    .assert_error(403, "blocked");
}

async fn a_hurtful_message_is_sent_only_after_are_you_sure(backend: Backend) {
    let app = sandbox_app(backend).await;
    let (star, fan, id) = conversation(&app).await;
    let client_id = Uuid::new_v4();
    let send = |confirm: Option<bool>| {
        let mut body = json!({"id": client_id, "content": "You look so SEXY, idiot"});
        if let Some(confirm) = confirm {
            body["confirm"] = json!(confirm);
        }
        let app = &app;
        let fan = &fan;
        let path = format!("{REQUESTS}/{id}/messages");
        async move { post(app, &path, fan, body).await }
    };
    let asked = send(None).await;
    asked.assert_error(409, "confirm_required");
    assert!(
        asked.body["message"]
            .as_str()
            .unwrap()
            .starts_with("Are you sure?"),
        "{}",
        asked.body
    );
    send(Some(false))
        .await
        .assert_error(409, "confirm_required");
    assert_eq!(
        count_where(&app, "messages", "1 = 1").await,
        0,
        "nothing sent yet"
    );
    send(Some(true)).await.ok_status(StatusCode::CREATED);
    // Kind words need no question; nor does a word inside another.
    say(
        &app,
        &star,
        &id,
        "Thank you, that is kind! Greetings from Sussex",
    )
    .await
    .ok_status(StatusCode::CREATED);

    // Either side leaves: the conversation closes for both; the captured
    // fee stays captured.
    let leave = format!("{REQUESTS}/{id}/leave");
    call(&app, Method::POST, &leave, None, Some(json!({})))
        .await
        .assert_error(401, "not_signed_in");
    let stranger = sign_up(&app, "stranger@example.com").await;
    post(&app, &leave, &stranger, json!({}))
        .await
        .assert_error(404, "not_found");
    assert_eq!(
        post(&app, &leave, &star, json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    say(&app, &fan, &id, "hello?")
        .await
        .assert_error(409, "conversation_closed");
    let request = get(&app, &format!("{REQUESTS}/{id}"), &fan).await.ok();
    assert_eq!(request["closed"], true);
    assert_eq!(request["status"], "approved");
}

/// The account export (GDPR Art. 15) holds what a user reported, what was
/// decided about them and their appeal; nobody else's.
async fn the_export_holds_the_reports_filed_the_decisions_and_the_appeal(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up(&app, "owner@example.com").await;
    let fan = sign_up(&app, "fan@example.com").await;
    let stranger = sign_up(&app, "stranger@example.com").await;
    let moderator = admin(&app).await;
    shared_entry(&app, owner.id, "exported-one").await;
    const EXPORT: &str = "/api/v1/account/export";
    let before = get(&app, EXPORT, &fan).await.ok();
    assert!(before["sections"].get("moderation").is_none(), "{before}");

    let report = post(
        &app,
        REPORTS,
        &fan,
        report_of("share", "exported-one", "harassment"),
    )
    .await;
    report.ok_status(StatusCode::ACCEPTED);
    let report_id = report.body["id"].as_str().unwrap().to_owned();
    let decided = post(
        &app,
        &format!("{QUEUE}/{report_id}/decision"),
        &moderator,
        json!({"action": "remove", "statement": "The caption mocks another member."}),
    )
    .await;
    decided.ok_status(StatusCode::CREATED);
    let decision_id = decided.body["id"].as_str().unwrap().to_owned();
    post(
        &app,
        &format!("/api/v1/moderation-decisions/{decision_id}/appeal"),
        &owner,
        json!({"statement": "The caption was a joke between friends."}),
    )
    .await
    .ok_status(StatusCode::CREATED);

    let fans = get(&app, EXPORT, &fan).await.ok();
    let filed = &fans["sections"]["moderation"]["reports_filed"];
    assert_eq!(filed.as_array().map(Vec::len), Some(1), "{fans}");
    assert_eq!(filed[0]["id"], report_id.as_str());
    assert_eq!(filed[0]["reported_as"], "share");
    assert_eq!(filed[0]["reason"], "harassment");
    assert_eq!(filed[0]["details"], "Please look at this");
    assert_eq!(filed[0]["decision_id"], decision_id.as_str());
    assert_eq!(
        fans["sections"]["moderation"]["decisions_about_you"],
        json!([])
    );

    let owners = get(&app, EXPORT, &owner).await.ok();
    let moderation = &owners["sections"]["moderation"];
    assert_eq!(moderation["reports_filed"], json!([]), "{owners}");
    let decision = &moderation["decisions_about_you"][0];
    assert_eq!(decision["id"], decision_id.as_str());
    assert_eq!(decision["action"], "remove");
    assert_eq!(decision["statement"], "The caption mocks another member.");
    assert_eq!(decision["appeal_status"], "open");
    assert_eq!(
        moderation["appeals"][0]["statement"],
        "The caption was a joke between friends."
    );
    // Internal bookkeeping stays out: the appeal link's hash, the admin.
    let text = owners.to_string();
    assert!(!text.contains("appeal_token_hash"), "{text}");
    assert!(!text.contains(&moderator.id.to_string()), "{text}");

    let strangers = get(&app, EXPORT, &stranger).await.ok();
    assert!(
        strangers["sections"].get("moderation").is_none(),
        "{strangers}"
    );
}
