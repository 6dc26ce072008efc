//! The public leaderboard (order, ties, keyset pages, ranks and contact fees,
//! public images), its moderation and reports (who may do what), the monthly
//! ranking contest and its freezing, and `prettyscore demo`.

use crate::harness::{
    Backend, Caller, Reply, State, TestApp, admin, call, image_form, insert_photo, insert_user,
    on_both_databases, sign_up_unnamed, spawn_app, store_original, testdata,
};
use chrono::{DateTime, Duration, TimeZone, Utc};
use prettyscore_server::leaderboard::contest::{Freeze, FreezeError, freeze};
use prettyscore_server::leaderboard::{demo, rank_of};
use prettyscore_server::photos::entity as photos;
use reqwest::{Method, StatusCode};
use sea_orm::sea_query::{Alias, Expr, Query};
use sea_orm::{ConnectionTrait, EntityTrait};
use serde_json::{Value, json};
use uuid::Uuid;

fn t(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_790_000_000 + seconds, 0).unwrap()
}

/// Every entry, page by page, following `next_cursor`.
async fn all_pages(app: &TestApp, limit: u32, token: Option<&str>) -> (Vec<Value>, usize) {
    let mut entries = Vec::new();
    let mut pages = 0;
    let mut after: Option<String> = None;
    loop {
        let path = match &after {
            Some(cursor) => format!("/api/v1/leaderboard?limit={limit}&after={cursor}"),
            None => format!("/api/v1/leaderboard?limit={limit}"),
        };
        let Reply {
            status, body: page, ..
        } = call(app, Method::GET, &path, token, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        pages += 1;
        let batch = page["entries"].as_array().unwrap().clone();
        assert!(batch.len() <= limit as usize);
        entries.extend(batch);
        match page["next_cursor"].as_str() {
            Some(cursor) => after = Some(cursor.to_owned()),
            None => break,
        }
    }
    (entries, pages)
}

on_both_databases!(
    the_leaderboard_lists_approved_entries_by_score_then_age_in_keyset_pages,
    ranks_and_fees_at_ranks_1_2_18_19_and_50,
    an_entry_waits_for_an_admin_and_only_admins_moderate,
    reports_go_to_the_admins_and_nobody_reports_their_own_entry,
    contest_entries_need_the_attestation_and_wait_for_moderation,
    a_finished_month_freezes_its_top_10_once,
    demo_fills_a_fresh_database_with_analysed_approved_entries,
    the_board_is_shared_for_a_second_with_an_etag_and_owners_see_their_own
);

/// A page every anonymous reader shares: an `ETag` that a second read with
/// `If-None-Match` answers with 304, public caching for a second; a signed-in
/// owner still finds their own entry marked, and a change made elsewhere
/// (another instance, here the database directly) shows within the second.
async fn the_board_is_shared_for_a_second_with_an_etag_and_owners_see_their_own(backend: Backend) {
    let app = spawn_app(backend).await;
    let Caller {
        token: owner_token,
        id: owner,
        ..
    } = sign_up_unnamed(&app, "owner@example.com").await;
    let Caller {
        token: reader_token,
        id: _,
        ..
    } = sign_up_unnamed(&app, "reader@example.com").await;
    let other = insert_user(&app).await;
    let own = insert_photo(&app, owner, 8.0, t(1), State::Listed).await;
    insert_photo(&app, other, 9.0, t(2), State::Listed).await;
    let path = "/api/v1/leaderboard";

    let anonymous = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::OK);
    let headers = anonymous.headers().clone();
    assert_eq!(headers["cache-control"], "public, max-age=1");
    assert_eq!(headers["vary"], "Authorization");
    let etag = headers["etag"].to_str().unwrap().to_owned();
    let page: Value = anonymous.json().await.unwrap();
    let entries = page["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(
        entries.iter().all(|entry| entry["is_own"] == false),
        "{page}"
    );

    let again = app
        .client
        .get(app.url(path))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());

    // The owner's view of the page the anonymous reader left in the cache.
    let Reply {
        status, body: mine, ..
    } = call(&app, Method::GET, path, Some(&owner_token), None).await;
    assert_eq!(status, StatusCode::OK);
    for entry in mine["entries"].as_array().unwrap() {
        let is_own = entry["photo_id"] == json!(own.to_string());
        assert_eq!(entry["is_own"], json!(is_own), "{mine}");
    }
    let Reply { body: theirs, .. } = call(&app, Method::GET, path, Some(&reader_token), None).await;
    assert!(
        theirs["entries"]
            .as_array()
            .unwrap()
            .iter()
            .all(|entry| entry["is_own"] == false),
        "{theirs}"
    );

    // Listed elsewhere: on the board within the second, with a new ETag.
    let newcomer = insert_photo(&app, other, 9.5, t(3), State::Listed).await;
    crate::harness::eventually("the new entry on the shared board", || async {
        let Reply { body: page, .. } = call(&app, Method::GET, path, None, None).await;
        page["entries"][0]["photo_id"] == json!(newcomer.to_string())
    })
    .await;
    let changed = app
        .client
        .get(app.url(path))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
}

async fn the_leaderboard_lists_approved_entries_by_score_then_age_in_keyset_pages(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = insert_user(&app).await;
    // 23 listed entries with ties of score, a tie of score and time, and
    // entries that are not listed (pending, or approved once but private).
    let mut listed = Vec::new();
    for i in 0..20 {
        let score = 10.0 - f64::from(i % 7) * 0.5;
        let id = insert_photo(&app, owner, score, t(i64::from(100 - i)), State::Listed).await;
        listed.push((score, t(i64::from(100 - i)), id));
    }
    let mut same_time = Vec::new();
    for _ in 0..3 {
        let id = insert_photo(&app, owner, 9.0, t(500), State::Listed).await;
        listed.push((9.0, t(500), id));
        same_time.push(id.to_string());
    }
    let pending = insert_photo(&app, owner, 10.0, t(0), State::Pending).await;
    let private = insert_photo(&app, owner, 10.0, t(0), State::Private).await;
    listed.sort_by(|a, b| {
        b.0.partial_cmp(&a.0)
            .unwrap()
            .then(a.1.cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });

    let (entries, pages) = all_pages(&app, 5, None).await;
    assert_eq!(pages, 5, "23 entries in pages of 5");
    let ids: Vec<Uuid> = entries
        .iter()
        .map(|e| e["photo_id"].as_str().unwrap().parse().unwrap())
        .collect();
    let expected: Vec<Uuid> = listed.iter().map(|e| e.2).collect();
    assert_eq!(
        ids, expected,
        "score descending, older first, no gaps or repeats across pages"
    );
    assert!(!ids.contains(&pending) && !ids.contains(&private));

    // Ranks: 1 + the entries strictly ahead; equal score and time share one.
    for (position, entry) in entries.iter().enumerate() {
        let (score, created_at, _) = listed[position];
        let ahead = listed
            .iter()
            .filter(|(s, c, _)| *s > score || (*s == score && *c < created_at))
            .count();
        assert_eq!(entry["rank"], ahead + 1, "{entry}");
        let rank = rank_of(&app.db, expected[position]).await.unwrap();
        assert_eq!(rank, Some(ahead as u32 + 1));
    }
    let shared: Vec<&Value> = entries
        .iter()
        .filter(|e| same_time.contains(&e["photo_id"].as_str().unwrap().to_owned()))
        .map(|e| &e["rank"])
        .collect();
    assert_eq!(shared.len(), 3);
    assert!(shared.iter().all(|rank| *rank == shared[0]), "{shared:?}");
    assert_eq!(rank_of(&app.db, pending).await.unwrap(), None);
    assert_eq!(rank_of(&app.db, private).await.unwrap(), None);

    // The same order in one page; bad cursors and limits are refused clearly.
    let Reply { body: one_page, .. } = call(
        &app,
        Method::GET,
        "/api/v1/leaderboard?limit=100",
        None,
        None,
    )
    .await;
    assert_eq!(one_page["entries"].as_array().unwrap().len(), 23);
    assert_eq!(one_page["next_cursor"], Value::Null);
    for bad in [
        "/api/v1/leaderboard?after=nonsense",
        "/api/v1/leaderboard?limit=0",
        "/api/v1/leaderboard?limit=101",
    ] {
        let Reply { status, body, .. } = call(&app, Method::GET, bad, None, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert_eq!(body["code"], "invalid_query");
    }
}

async fn ranks_and_fees_at_ranks_1_2_18_19_and_50(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = insert_user(&app).await;
    let mut ids = Vec::new();
    for i in 0..50 {
        let score = 10.0 - f64::from(i) * 0.1;
        ids.push(
            insert_photo(
                &app,
                owner,
                (score * 10.0).round() / 10.0,
                t(0),
                State::Listed,
            )
            .await,
        );
    }
    let (entries, _) = all_pages(&app, 7, None).await;
    assert_eq!(entries.len(), 50);
    for (rank, fee) in [(1u32, 1000), (2, 950), (18, 150), (19, 100), (50, 100)] {
        let entry = &entries[rank as usize - 1];
        assert_eq!(entry["rank"], rank, "{entry}");
        assert_eq!(entry["contact_fee"], fee, "rank {rank}");
        assert_eq!(
            rank_of(&app.db, ids[rank as usize - 1]).await.unwrap(),
            Some(rank)
        );
    }
}

async fn upload_entry(app: &TestApp, token: &str) -> Value {
    let form = image_form(testdata("face/astronaut.png"), "a.png")
        .text("public_listing", "true")
        .text("display_name", "Astro")
        .text("bio", "To the moon");
    let response = app
        .client
        .post(app.url("/api/v1/photos"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

async fn an_entry_waits_for_an_admin_and_only_admins_moderate(backend: Backend) {
    let app = spawn_app(backend).await;
    let Caller {
        token: owner,
        id: _,
        ..
    } = sign_up_unnamed(&app, "owner@example.com").await;
    let Caller {
        token: other,
        id: _,
        ..
    } = sign_up_unnamed(&app, "other@example.com").await;
    let admin = admin(&app).await.token;
    let photo = upload_entry(&app, &owner).await;
    let id = photo["id"].as_str().unwrap().to_owned();
    assert_eq!(photo["listing_status"], "pending");
    assert_eq!(photo["is_verified"], false);

    // Pending: not listed, its image not public.
    let Reply { body: page, .. } = call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
    assert_eq!(page["entries"], json!([]));
    let image = format!("/api/v1/leaderboard/entries/{id}/image");
    assert_eq!(app.get(&image).await.status(), StatusCode::NOT_FOUND);

    // Who may moderate: anonymous 401, the owner and another user 403.
    let actions = [
        (
            Method::GET,
            "/api/v1/admin/leaderboard/entries".to_owned(),
            None,
        ),
        (Method::GET, "/api/v1/admin/reports".to_owned(), None),
        (
            Method::POST,
            format!("/api/v1/admin/leaderboard/entries/{id}/approve"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/v1/admin/leaderboard/entries/{id}/reject"),
            Some(json!({"reason": "no"})),
        ),
        (
            Method::POST,
            format!("/api/v1/admin/leaderboard/entries/{id}/unlist"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/v1/admin/leaderboard/entries/{id}/feature"),
            Some(json!({"featured": true})),
        ),
    ];
    for (method, path, body) in &actions {
        let Reply {
            status,
            body: reply,
            ..
        } = call(&app, method.clone(), path, None, body.clone()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}: {reply}");
        for token in [&owner, &other] {
            let Reply {
                status,
                body: reply,
                ..
            } = call(&app, method.clone(), path, Some(token), body.clone()).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {reply}");
            assert_eq!(reply["message"], "Access denied: Admin only");
        }
    }
    let Reply { body: mine, .. } = call(
        &app,
        Method::GET,
        &format!("/api/v1/photos/{id}"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(
        mine["listing_status"], "pending",
        "nobody but an admin changed it"
    );

    // The admin's queue shows the photo, score and owner.
    let Reply {
        status,
        body: queue,
        ..
    } = call(
        &app,
        Method::GET,
        "/api/v1/admin/leaderboard/entries",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let queued = &queue.as_array().unwrap()[0];
    assert_eq!(queued["photo_id"], id.as_str());
    assert_eq!(queued["owner_email"], "owner@example.com");
    assert_eq!(queued["score"], photo["score"]);
    assert!(queued["image_url"].as_str().unwrap().contains("token="));

    // Feature and unlist need an approved entry.
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/unlist"),
        Some(&admin),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);

    let Reply {
        status,
        body: approved,
        ..
    } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/approve"),
        Some(&admin),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["listed"], true);
    // Approving again changes nothing (and is not audited twice).
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/approve"),
        Some(&admin),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    let Reply { body: page, .. } =
        call(&app, Method::GET, "/api/v1/leaderboard", Some(&other), None).await;
    let entry = &page["entries"][0];
    assert_eq!(entry["photo_id"], id.as_str());
    assert_eq!(entry["rank"], 1);
    assert_eq!(entry["contact_fee"], 1000);
    assert_eq!(entry["display_name"], "Astro");
    assert_eq!(entry["bio"], "To the moon");
    assert_eq!(entry["owner_verified"], false);
    assert_eq!(entry["is_own"], false);
    let Reply { body: page, .. } =
        call(&app, Method::GET, "/api/v1/leaderboard", Some(&owner), None).await;
    assert_eq!(page["entries"][0]["is_own"], true);

    // Listed: its image is public and cacheable, without a token.
    let response = app.get(entry["image_url"].as_str().unwrap()).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=600");

    let Reply {
        status,
        body: featured,
        ..
    } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/feature"),
        Some(&admin),
        Some(json!({"featured": true})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(featured["featured"], true);

    // Reject needs a pending entry and a reason.
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/reject"),
        Some(&admin),
        Some(json!({"reason": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);

    let Reply {
        status,
        body: unlisted,
        ..
    } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/unlist"),
        Some(&admin),
        Some(json!({"reason": "Reported as not original"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(unlisted["status"], "unlisted");
    assert_eq!(unlisted["featured"], false);
    let Reply { body: page, .. } = call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
    assert_eq!(page["entries"], json!([]));
    assert_eq!(app.get(&image).await.status(), StatusCode::NOT_FOUND);
    let Reply { body: mine, .. } = call(
        &app,
        Method::GET,
        &format!("/api/v1/photos/{id}"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(mine["listing_status"], "unlisted");
    assert_eq!(mine["is_verified"], false);

    // A second entry is rejected with a reason the owner sees.
    let second = upload_entry(&app, &owner).await;
    let second_id = second["id"].as_str().unwrap();
    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{second_id}/reject"),
        Some(&admin),
        Some(json!({"reason": "   "})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Please enter a reason for the rejection");
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{second_id}/reject"),
        Some(&admin),
        Some(json!({"reason": "Please use a photo of yourself"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let Reply { body: mine, .. } = call(
        &app,
        Method::GET,
        &format!("/api/v1/photos/{second_id}"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(mine["listing_status"], "rejected");
    assert_eq!(mine["rejection_reason"], "Please use a photo of yourself");
    assert_eq!(mine["is_verified"], false);
    assert_eq!(mine["public_listing"], false);

    let Reply { body: rejected, .. } = call(
        &app,
        Method::GET,
        "/api/v1/admin/leaderboard/entries?status=rejected",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(rejected.as_array().unwrap().len(), 1);
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        "/api/v1/admin/leaderboard/entries/00000000-0000-0000-0000-000000000000/approve",
        Some(&admin),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Each decision is in the audit log once.
    let audit = app
        .db
        .query_all(
            &Query::select()
                .column(Alias::new("payload"))
                .from(Alias::new("audit_log_entries"))
                .to_owned(),
        )
        .await
        .unwrap();
    let actions: Vec<String> = audit
        .iter()
        .map(|row| {
            row.try_get::<Value>("", "payload").unwrap()["action"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .filter(|action| action.starts_with("leaderboard_"))
        .collect();
    let mut sorted = actions.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "leaderboard_entry_approved",
            "leaderboard_entry_featured",
            "leaderboard_entry_rejected",
            "leaderboard_entry_unlisted"
        ]
    );
}

async fn reports_go_to_the_admins_and_nobody_reports_their_own_entry(backend: Backend) {
    let app = spawn_app(backend).await;
    let Caller {
        token: owner,
        id: owner_id,
        ..
    } = sign_up_unnamed(&app, "owner@example.com").await;
    let Caller {
        token: other,
        id: _,
        ..
    } = sign_up_unnamed(&app, "other@example.com").await;
    let admin = admin(&app).await.token;
    let id = insert_photo(&app, owner_id, 9.5, t(0), State::Listed).await;
    let path = format!("/api/v1/leaderboard/entries/{id}/report");

    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &path,
        None,
        Some(json!({"reason": "spam"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        &path,
        Some(&owner),
        Some(json!({"reason": "spam"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "You cannot report your own entry");
    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        &path,
        Some(&other),
        Some(json!({"reason": " "})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["message"],
        "Please tell us what is wrong with this entry"
    );

    let Reply {
        status,
        body: first,
        ..
    } = call(
        &app,
        Method::POST,
        &path,
        Some(&other),
        Some(json!({"reason": "Not a real person"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let Reply {
        status,
        body: again,
        ..
    } = call(
        &app,
        Method::POST,
        &path,
        Some(&other),
        Some(json!({"reason": "Again"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(first["id"], again["id"], "one report per user and entry");
    // An admin may report too; a pending entry cannot be reported.
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &path,
        Some(&admin),
        Some(json!({"reason": "Looks edited"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let pending = insert_photo(&app, owner_id, 9.0, t(0), State::Pending).await;
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/leaderboard/entries/{pending}/report"),
        Some(&other),
        Some(json!({"reason": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // They reach the one queue (`/admin/reports`), admins only, as reports
    // of the photo with the words given; the moderation page counts them.
    for token in [&owner, &other] {
        let Reply { status, .. } = call(
            &app,
            Method::GET,
            "/api/v1/admin/reports",
            Some(token),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let Reply {
        status,
        body: queue,
        ..
    } = call(
        &app,
        Method::GET,
        "/api/v1/admin/reports",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let reports = queue["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2);
    let first_report = reports
        .iter()
        .find(|report| report["id"] == first["id"])
        .expect("the first report");
    assert_eq!(first_report["details"], "Not a real person");
    assert_eq!(first_report["reason"], "other");
    assert_eq!(first_report["reporter_email"], "other@example.com");
    assert_eq!(first_report["target_id"], id.to_string());
    assert_eq!(first_report["open_reports_of_target"], 2);
    let Reply { body: entries, .. } = call(
        &app,
        Method::GET,
        "/api/v1/admin/leaderboard/entries?status=approved",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(entries[0]["open_reports"], 2, "{entries}");

    // Dismissed: one decision answers both, and the count is back to none.
    let decide = format!(
        "/api/v1/admin/reports/{}/decision",
        first["id"].as_str().unwrap()
    );
    let dismissal = json!({"action": "dismiss", "statement": "A real person."});
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &decide,
        Some(&other),
        Some(dismissal.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &decide,
        Some(&admin),
        Some(dismissal.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let Reply { status, .. } =
        call(&app, Method::POST, &decide, Some(&admin), Some(dismissal)).await;
    assert_eq!(status, StatusCode::CONFLICT, "deciding twice is refused");
    let Reply { body: queue, .. } = call(
        &app,
        Method::GET,
        "/api/v1/admin/reports",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(queue["reports"].as_array().unwrap().len(), 0);
}

async fn contest_entries_need_the_attestation_and_wait_for_moderation(backend: Backend) {
    let app = spawn_app(backend).await;
    let Caller {
        token: owner,
        id: owner_id,
        ..
    } = sign_up_unnamed(&app, "owner@example.com").await;
    let Caller {
        token: other,
        id: _,
        ..
    } = sign_up_unnamed(&app, "other@example.com").await;
    let admin = admin(&app).await.token;
    let id = insert_photo(&app, owner_id, 8.8, Utc::now(), State::Private).await;
    store_original(&app, id, "face/astronaut.png").await;
    // A private save that was never listed.
    photos::Entity::update_many()
        .col_expr(photos::Column::IsVerified, Expr::value(false))
        .col_expr(
            photos::Column::DisplayName,
            Expr::value(Option::<String>::None),
        )
        .exec(&app.db)
        .await
        .unwrap();
    let entry = |adult: bool, original: bool, name: Option<&str>| json!({"photo_id": id, "attest_adult": adult, "attest_original": original, "display_name": name});

    let Reply { status, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        None,
        Some(entry(true, true, Some("Ada"))),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        Some(&other),
        Some(entry(true, true, Some("Ada"))),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "someone else's photo");
    for (adult, original) in [(false, true), (true, false)] {
        let Reply { status, body, .. } = call(
            &app,
            Method::POST,
            "/api/v1/contest/entries",
            Some(&owner),
            Some(entry(adult, original, Some("Ada"))),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }
    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        Some(&owner),
        Some(entry(true, true, None)),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Please enter your display name");

    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        Some(&owner),
        Some(entry(true, true, Some(" Ada "))),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["listing_status"], "pending");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("Admins will verify your entry soon")
    );
    let month = body["contest_month"].as_str().unwrap().to_owned();
    let row = photos::Entity::find_by_id(id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert!(row.public_listing && !row.is_verified && row.attested_adult && row.attested_original);
    assert_eq!(row.display_name.as_deref(), Some("Ada"));

    // Standings: only approved entries of this month, with the time left.
    let Reply {
        status,
        body: standings,
        ..
    } = call(&app, Method::GET, "/api/v1/contest/standings", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(standings["month"], month.as_str());
    assert_eq!(standings["entries"], json!([]));
    assert_eq!(standings["prize_dollars"], 50000);
    assert_eq!(standings["winners_count"], 10);
    let left = standings["seconds_left"].as_i64().unwrap();
    assert!(left > 0 && left <= 31 * 24 * 3600, "{left}");
    // A listed entry not entered in the contest is not in its standings.
    insert_photo(&app, owner_id, 9.9, Utc::now(), State::Listed).await;

    let Reply { status, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/approve"),
        Some(&admin),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let Reply {
        body: standings, ..
    } = call(
        &app,
        Method::GET,
        "/api/v1/contest/standings",
        Some(&owner),
        None,
    )
    .await;
    let entries = standings["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["photo_id"], id.to_string());
    assert_eq!(entries[0]["rank"], 1);
    assert_eq!(entries[0]["is_own"], true);

    // Entering an approved photo again keeps it approved.
    let Reply { body, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        Some(&owner),
        Some(entry(true, true, None)),
    )
    .await;
    assert_eq!(body["listing_status"], "approved");
    let Reply { body, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        Some(&owner),
        Some(entry(true, true, Some("Ada"))),
    )
    .await;
    assert_eq!(
        body["listing_status"], "approved",
        "the same name stays approved"
    );

    // Issue 25: a new name or bio goes back to review, off the board until
    // an admin approves it.
    for change in [
        json!({"display_name": "Ada, now with a new name"}),
        json!({"display_name": "Ada", "bio": "A bio nobody reviewed"}),
    ] {
        let mut body = entry(true, true, None);
        body.as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        let Reply { status, body, .. } = call(
            &app,
            Method::POST,
            "/api/v1/contest/entries",
            Some(&owner),
            Some(body),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["listing_status"], "pending", "{change}");
        let row = photos::Entity::find_by_id(id)
            .one(&app.db)
            .await
            .unwrap()
            .unwrap();
        assert!(!row.is_verified, "{change}");
        let Reply {
            body: standings, ..
        } = call(&app, Method::GET, "/api/v1/contest/standings", None, None).await;
        assert_eq!(standings["entries"], json!([]), "{change}");
        let Reply { body: board, .. } =
            call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
        assert!(
            !board.to_string().contains(&id.to_string()),
            "an unreviewed text is not listed: {change}"
        );
        let Reply { status, .. } = call(
            &app,
            Method::POST,
            &format!("/api/v1/admin/leaderboard/entries/{id}/approve"),
            Some(&admin),
            Some(json!({})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let Reply {
        body: standings, ..
    } = call(&app, Method::GET, "/api/v1/contest/standings", None, None).await;
    assert_eq!(standings["entries"][0]["bio"], "A bio nobody reviewed");
    let Reply { status, .. } = call(
        &app,
        Method::GET,
        "/api/v1/contest/standings?month=2026-13",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

async fn a_finished_month_freezes_its_top_10_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = insert_user(&app).await;
    let mut ids = Vec::new();
    for i in 0..12 {
        let id = insert_photo(
            &app,
            owner,
            9.9 - f64::from(i) * 0.1,
            t(i64::from(i)),
            State::Listed,
        )
        .await;
        ids.push(id);
    }
    // One pending entry of the month with the best score does not win.
    let pending = insert_photo(&app, owner, 10.0, t(0), State::Pending).await;
    photos::Entity::update_many()
        .col_expr(photos::Column::ContestMonth, Expr::value("2026-10"))
        .exec(&app.db)
        .await
        .unwrap();
    let now = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 1).unwrap();

    let too_early = freeze(&app.db, "2026-10", now - Duration::seconds(2)).await;
    assert!(
        matches!(too_early, Err(FreezeError::StillRunning { .. })),
        "{too_early:?}"
    );

    let Freeze::Frozen(winners) = freeze(&app.db, "2026-10", now).await.unwrap() else {
        panic!("the first freeze freezes");
    };
    assert_eq!(winners.len(), 10);
    let winner_ids: Vec<Uuid> = winners.iter().map(|w| w.photo_id.unwrap()).collect();
    assert_eq!(winner_ids, ids[..10]);
    assert!(!winner_ids.contains(&pending));
    assert_eq!(winners[0].place, 1);

    // A later change does not move frozen winners.
    photos::Entity::update_many()
        .col_expr(photos::Column::Score, Expr::value(1.0))
        .exec(&app.db)
        .await
        .unwrap();
    let Freeze::AlreadyFrozen(again) = freeze(&app.db, "2026-10", now).await.unwrap() else {
        panic!("a second freeze changes nothing");
    };
    assert_eq!(again, winners);
    let Reply {
        body: standings, ..
    } = call(
        &app,
        Method::GET,
        "/api/v1/contest/standings?month=2026-10",
        None,
        None,
    )
    .await;
    assert_eq!(standings["winners"].as_array().unwrap().len(), 10);
    assert_eq!(standings["seconds_left"], 0);
}

async fn demo_fills_a_fresh_database_with_analysed_approved_entries(backend: Backend) {
    let app = spawn_app(backend).await;
    let storage = prettyscore_server::storage::Storage::from_config(&app.config).unwrap();
    let seeded = demo::seed(&app.db, &storage).await.unwrap();
    // The analysis finds a face in every portrait: each is a contestant.
    assert_eq!(seeded.entries, demo::PORTRAITS.len(), "{seeded:?}");
    assert!(seeded.entries >= 6, "{seeded:?}");
    let (entries, _) = all_pages(&app, 100, None).await;
    assert_eq!(entries.len(), seeded.entries);
    let scores: Vec<f64> = entries
        .iter()
        .map(|e| e["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    assert!(
        scores.iter().any(|s| *s != scores[0]),
        "different people score differently: {scores:?}"
    );
    // Each contestant is a different person: a name and an image of their
    // own, and no two images alike (not even a restyled or cropped copy).
    let names: std::collections::HashSet<&str> = entries
        .iter()
        .map(|e| e["display_name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), entries.len(), "{names:?}");
    let mut pictures: Vec<image::GrayImage> = Vec::new();
    for entry in &entries {
        let response = app.get(entry["image_url"].as_str().unwrap()).await;
        assert_eq!(response.status(), StatusCode::OK);
        let bytes = response.bytes().await.unwrap();
        let small = image::load_from_memory(&bytes)
            .unwrap()
            .resize_exact(16, 16, image::imageops::FilterType::Triangle)
            .to_luma8();
        for other in &pictures {
            let difference: u32 = small
                .pixels()
                .zip(other.pixels())
                .map(|(a, b)| a.0[0].abs_diff(b.0[0]) as u32)
                .sum();
            // A mean difference under 12 levels of 255 per pixel would be one photo twice.
            assert!(
                difference > 12 * 256,
                "two contestants share a photo ({difference})"
            );
        }
        pictures.push(small);
    }
    // Their images are really stored and public.
    let image = app.get(entries[0]["image_url"].as_str().unwrap()).await;
    assert_eq!(image.status(), StatusCode::OK);
    assert!(entries.iter().any(|e| e["owner_verified"] == true));
    // Never twice, never into a database with photos.
    assert!(matches!(
        demo::seed(&app.db, &storage).await,
        Err(demo::DemoError::NotFresh)
    ));
}
