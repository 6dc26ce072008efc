//! The nudity check before a photo becomes public: a flagged share page and card
//! stay dark, and a flagged contest entry off the board, until an admin (and only
//! an admin) releases or approves the photo; the admins see the classifier's
//! scores; a neutral photo is public at once.
//!
//! The flagged image is the nude in `testdata/screening/` (a detail of
//! Botticelli's Birth of Venus). The analysis only saves a photo with a face, which
//! the detail is not, so a test saves the astronaut and then puts the nude in the
//! stored file's place: what the screening reads is what a user's flagged upload
//! would leave in storage.

use crate::harness::{
    Backend, Caller, Reply, TestApp, admin, astronaut, call, on_both_databases, saved_photo,
    sign_up_unnamed, spawn_app, testdata,
};
use futures::future::join_all;
use prettyscore_server::photos::entity as photos;
use reqwest::{Method, StatusCode};
use sea_orm::sea_query::{Alias, Query};
use sea_orm::{ConnectionTrait, EntityTrait};
use serde_json::{Value, json};
use uuid::Uuid;

on_both_databases!(
    a_flagged_share_stays_dark_until_an_admin_releases_it,
    a_neutral_share_is_public_at_once_and_its_scores_are_kept,
    a_flagged_contest_entry_waits_off_the_board_until_approved,
);

const HELD: &str =
    "Your photo is held for review. An admin will look at it before anyone else can see it.";

/// A saved face photo of `owner` whose stored original is then the nude; its id.
async fn flagged_photo(app: &TestApp, owner: &str) -> String {
    let photo = saved_photo(app, owner, astronaut()).await;
    let id: Uuid = photo["id"].as_str().unwrap().parse().unwrap();
    let row = photos::Entity::find_by_id(id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    let key = row.original_image_url.strip_prefix("/media/").unwrap();
    assert!(key.ends_with(".png"), "{key}");
    std::fs::write(
        app.config.data_dir.join("media").join(key),
        testdata("screening/birth-of-venus-detail.png"),
    )
    .unwrap();
    id.to_string()
}

async fn audit_actions(app: &TestApp) -> Vec<String> {
    app.db
        .query_all(
            &Query::select()
                .column(Alias::new("payload"))
                .from(Alias::new("audit_log_entries"))
                .to_owned(),
        )
        .await
        .unwrap()
        .iter()
        .map(|row| {
            row.try_get::<Value>("", "payload").unwrap()["action"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

async fn a_flagged_share_stays_dark_until_an_admin_releases_it(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up_unnamed(&app, "owner@example.com").await.token;
    let Caller { token: other, .. } = sign_up_unnamed(&app, "other@example.com").await;
    let admin = admin(&app).await.token;
    let id = flagged_photo(&app, &owner).await;

    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/photos/{id}/share"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["held_for_review"], true, "{body}");
    assert_eq!(body["message"], HELD);
    let page = body["share_url"].as_str().unwrap().to_owned();
    let card = body["card_url"].as_str().unwrap().to_owned();
    assert_eq!(
        app.client.get(&page).send().await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.client.get(&card).send().await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    // The owner sees the hold on the photo too.
    let Reply { body: mine, .. } = call(
        &app,
        Method::GET,
        &format!("/api/v1/photos/{id}"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(mine["held_for_review"], true, "{mine}");

    // The admins' queue shows it with the classifier's scores.
    let Reply { status, body, .. } = call(
        &app,
        Method::GET,
        "/api/v1/admin/leaderboard/entries?status=held",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let held = body.as_array().unwrap();
    assert_eq!(held.len(), 1, "{body}");
    assert_eq!(held[0]["photo_id"], id.as_str());
    assert_eq!(held[0]["status"], "");
    let screening = &held[0]["screening"];
    assert_eq!(screening["held"], true, "{screening}");
    assert_eq!(screening["flagged"], true);
    assert!(
        screening["unsafe_share"].as_f64().unwrap() > 0.8,
        "{screening}"
    );
    assert!(screening["scores"]["hentai"].as_f64().unwrap() > 0.5);
    assert!(screening["scores"]["neutral"].as_f64().unwrap() < 0.1);

    // Only an admin releases it.
    let release = format!("/api/v1/admin/leaderboard/entries/{id}/release");
    let Reply { status, .. } = call(&app, Method::POST, &release, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    for caller in [&owner, &other] {
        let Reply { status, .. } = call(&app, Method::POST, &release, Some(caller), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    assert_eq!(
        app.client.get(&page).send().await.unwrap().status(),
        StatusCode::NOT_FOUND,
        "refused calls release nothing"
    );
    let Reply { status, .. } = call(
        &app,
        Method::POST,
        "/api/v1/admin/leaderboard/entries/00000000-0000-0000-0000-000000000000/release",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Eight admins' clicks at once release it once.
    let replies =
        join_all((0..8).map(|_| call(&app, Method::POST, &release, Some(&admin), None))).await;
    for reply in &replies {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_eq!(reply.body["screening"]["held"], false, "{}", reply.body);
    }
    let released = audit_actions(&app)
        .await
        .into_iter()
        .filter(|a| a == "screening_hold_released")
        .count();
    assert_eq!(released, 1);

    assert_eq!(
        app.client.get(&page).send().await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(
        app.client.get(&card).send().await.unwrap().status(),
        StatusCode::OK
    );
    let Reply { body, .. } = call(
        &app,
        Method::GET,
        "/api/v1/admin/leaderboard/entries?status=held",
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(body, json!([]));
    // Sharing again keeps it public: the image screened is the same.
    let Reply { body, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/photos/{id}/share"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(body["held_for_review"], false, "{body}");
}

async fn a_neutral_share_is_public_at_once_and_its_scores_are_kept(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up_unnamed(&app, "owner@example.com").await.token;
    let photo = saved_photo(&app, &owner, astronaut()).await;
    let id: Uuid = photo["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(photo["held_for_review"], false);
    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/photos/{id}/share"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["held_for_review"], false);
    assert_eq!(
        app.client
            .get(body["share_url"].as_str().unwrap())
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    let row = photos::Entity::find_by_id(id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert!(!row.screening_held);
    let kept = row.screening.expect("the scores are kept");
    assert_eq!(kept["image"], row.original_image_url.as_str());
    assert!(kept["neutral"].as_f64().unwrap() > 0.9, "{kept}");
}

async fn a_flagged_contest_entry_waits_off_the_board_until_approved(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up_unnamed(&app, "owner@example.com").await.token;
    let admin = admin(&app).await.token;
    let id = flagged_photo(&app, &owner).await;

    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        "/api/v1/contest/entries",
        Some(&owner),
        Some(json!({"photo_id": id, "attest_adult": true, "attest_original": true, "display_name": "Ada"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["held_for_review"], true);
    assert_eq!(body["listing_status"], "pending");
    assert_eq!(body["message"], HELD);

    // In the pending queue with its scores; not on the board, its image not public.
    let Reply { body, .. } = call(
        &app,
        Method::GET,
        "/api/v1/admin/leaderboard/entries",
        Some(&admin),
        None,
    )
    .await;
    let pending = body.as_array().unwrap();
    assert_eq!(pending.len(), 1, "{body}");
    assert_eq!(pending[0]["screening"]["flagged"], true);
    assert_eq!(pending[0]["screening"]["held"], true);
    let Reply { body: board, .. } =
        call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
    assert_eq!(board["entries"], json!([]));
    let image = format!("/api/v1/leaderboard/entries/{id}/image");
    assert_eq!(app.get(&image).await.status(), StatusCode::NOT_FOUND);

    // Approval is the admin's review: listed, the hold released.
    let Reply { status, body, .. } = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/leaderboard/entries/{id}/approve"),
        Some(&admin),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["listed"], true);
    assert_eq!(body["screening"]["held"], false);
    assert_eq!(app.get(&image).await.status(), StatusCode::OK);
    let Reply { body: board, .. } =
        call(&app, Method::GET, "/api/v1/leaderboard", None, None).await;
    assert_eq!(board["entries"].as_array().unwrap().len(), 1, "{board}");
}
