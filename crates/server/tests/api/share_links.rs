//! Share links the owner controls (issue 45, section 3): a revoke
//! (`DELETE /api/v1/photos/{id}/share`) ends the page and the card at once,
//! on every instance and through any cache; links also end with the photo,
//! its account or its removal by moderation, and may expire after 24 hours
//! or 7 days.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::*;

on_both_databases!(
    a_revoked_link_answers_404_on_every_instance_at_once,
    only_the_owner_revokes,
    a_link_may_expire_after_24_hours_or_7_days,
    links_end_with_the_photo_its_account_or_moderation
);

/// Shares `photo` as `owner` with `body` (None: no body); the reply.
async fn share(app: &TestApp, owner: &str, photo: &str, body: Option<Value>) -> Reply {
    call(
        app,
        Method::POST,
        &format!("/api/v1/photos/{photo}/share"),
        Some(owner),
        body,
    )
    .await
}

async fn revoke(app: &TestApp, token: Option<&str>, photo: &str) -> Reply {
    call(
        app,
        Method::DELETE,
        &format!("/api/v1/photos/{photo}/share"),
        token,
        None,
    )
    .await
}

/// The status of `url` (a share page or card) on `app`, and its headers.
async fn status_of(app: &TestApp, url: &str) -> (StatusCode, reqwest::header::HeaderMap) {
    let path = url
        .split_once("/s/")
        .map(|(_, rest)| format!("/s/{rest}"))
        .unwrap();
    let response = app.get(&path).await;
    (response.status(), response.headers().clone())
}

/// A second instance on `app`'s database and its media (in production, one
/// bucket behind every instance), so it can draw the card too.
async fn instance_sharing_storage(app: &TestApp) -> TestApp {
    let url = app.config.database_url.clone();
    let data_dir = app.config.data_dir.clone();
    spawn_app_with(app.backend, move |config| {
        config.database_url = url;
        config.data_dir = data_dir;
    })
    .await
}

/// A saved photo of a new user: (owner's token, photo id).
async fn saved_photo(app: &TestApp, email: &str) -> (String, String) {
    let owner = sign_up_unnamed(app, email).await.token;
    let Reply { body: photo, .. } = save_photo(app, &owner, astronaut()).await;
    (owner, photo["id"].as_str().unwrap().to_owned())
}

async fn a_revoked_link_answers_404_on_every_instance_at_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let other = instance_sharing_storage(&app).await;
    let (owner, photo) = saved_photo(&app, "sharer@example.com").await;
    let link = share(&app, &owner, &photo, None).await.ok();
    assert_eq!(link["expires_at"], Value::Null, "never expires by default");
    let page = link["share_url"].as_str().unwrap().to_owned();
    let card = link["card_url"].as_str().unwrap().to_owned();

    for instance in [&app, &other] {
        for url in [&page, &card] {
            let (status, headers) = status_of(instance, url).await;
            assert_eq!(status, StatusCode::OK, "{url}");
            // Caches may keep it, but must ask before each reuse.
            assert_eq!(headers["cache-control"], "public, no-cache", "{url}");
            let etag = headers["etag"].to_str().unwrap().to_owned();
            let path = url
                .split_once("/s/")
                .map(|(_, r)| format!("/s/{r}"))
                .unwrap();
            let again = instance
                .client
                .get(instance.url(&path))
                .header("if-none-match", &etag)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{url}");
        }
    }
    // The owner's list shows the live link.
    let mine = call(&app, Method::GET, "/api/v1/photos", Some(&owner), None)
        .await
        .ok();
    assert_eq!(mine[0]["share"]["share_url"], link["share_url"]);

    let reply = revoke(&app, Some(&owner), &photo).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    for instance in [&app, &other] {
        for url in [&page, &card] {
            let (status, headers) = status_of(instance, url).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{url}");
            assert_eq!(headers["cache-control"], "no-store", "{url}");
        }
    }
    let mine = call(&other, Method::GET, "/api/v1/photos", Some(&owner), None)
        .await
        .ok();
    assert_eq!(mine[0]["share"], Value::Null);
    // Revoking again is no error; sharing again makes a new address, and
    // the old one stays dead.
    assert_eq!(
        revoke(&app, Some(&owner), &photo).await.status,
        StatusCode::NO_CONTENT
    );
    let new = share(&app, &owner, &photo, None).await.ok();
    assert_ne!(new["share_url"], link["share_url"]);
    assert_eq!(
        status_of(&other, new["share_url"].as_str().unwrap())
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(status_of(&other, &page).await.0, StatusCode::NOT_FOUND);
}

async fn only_the_owner_revokes(backend: Backend) {
    let app = spawn_app(backend).await;
    let (owner, photo) = saved_photo(&app, "sharer@example.com").await;
    let nosy = sign_up_unnamed(&app, "nosy@example.com").await;
    let admin = admin(&app).await;
    let link = share(&app, &owner, &photo, None).await.ok();
    let page = link["share_url"].as_str().unwrap();

    revoke(&app, None, &photo)
        .await
        .assert_error(401, "not_signed_in");
    revoke(&app, Some(&nosy.token), &photo)
        .await
        .assert_error(404, "not_found");
    // An admin takes photos down through moderation, not this call.
    revoke(&app, Some(&admin.token), &photo)
        .await
        .assert_error(404, "not_found");
    revoke(&app, Some(&owner), &Uuid::new_v4().to_string())
        .await
        .assert_error(404, "not_found");
    assert_eq!(
        status_of(&app, page).await.0,
        StatusCode::OK,
        "still shared"
    );

    assert_eq!(
        revoke(&app, Some(&owner), &photo).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(status_of(&app, page).await.0, StatusCode::NOT_FOUND);
}

async fn a_link_may_expire_after_24_hours_or_7_days(backend: Backend) {
    let app = spawn_app(backend).await;
    let (owner, photo) = saved_photo(&app, "sharer@example.com").await;

    share(&app, &owner, &photo, Some(json!({"expires_in": "1y"})))
        .await
        .assert_error(422, "validation_failed");

    let before = chrono::Utc::now();
    let link = share(&app, &owner, &photo, Some(json!({"expires_in": "24h"})))
        .await
        .ok();
    let expires: chrono::DateTime<chrono::Utc> =
        link["expires_at"].as_str().unwrap().parse().unwrap();
    let hours = (expires - before).num_minutes() as f64 / 60.0;
    assert!((23.9..=24.1).contains(&hours), "{hours}");
    // While it works, sharing again gives the same link.
    let again = share(&app, &owner, &photo, Some(json!({"expires_in": "7d"})))
        .await
        .ok();
    assert_eq!(again, link);
    let page = link["share_url"].as_str().unwrap().to_owned();
    assert_eq!(status_of(&app, &page).await.0, StatusCode::OK);

    // A day later it answers 404, and the owner no longer sees it.
    let yesterday = chrono::Utc::now() - chrono::Duration::seconds(1);
    sql(
        &app,
        "UPDATE photos SET share_expires_at = $1",
        vec![yesterday.into()],
    )
    .await;
    assert_eq!(status_of(&app, &page).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        status_of(&app, link["card_url"].as_str().unwrap()).await.0,
        StatusCode::NOT_FOUND
    );
    let photo_now = call(
        &app,
        Method::GET,
        &format!("/api/v1/photos/{photo}"),
        Some(&owner),
        None,
    )
    .await
    .ok();
    assert_eq!(photo_now["share"], Value::Null);

    // Sharing again makes a new link, here for 7 days.
    let week = share(&app, &owner, &photo, Some(json!({"expires_in": "7d"})))
        .await
        .ok();
    assert_ne!(week["share_url"], link["share_url"]);
    let expires: chrono::DateTime<chrono::Utc> =
        week["expires_at"].as_str().unwrap().parse().unwrap();
    let days = (expires - before).num_hours() as f64 / 24.0;
    assert!((6.9..=7.1).contains(&days), "{days}");
    let never = share(&app, &owner, &photo, Some(json!({"expires_in": "never"})))
        .await
        .ok();
    assert_eq!(never, week, "a working link is kept as it is");
}

async fn links_end_with_the_photo_its_account_or_moderation(backend: Backend) {
    let app = spawn_app(backend).await;

    // The photo is deleted.
    let (owner, photo) = saved_photo(&app, "deleter@example.com").await;
    let page = share(&app, &owner, &photo, None).await.ok()["share_url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(status_of(&app, &page).await.0, StatusCode::OK);
    let deleted = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/photos/{photo}"),
        Some(&owner),
        None,
    )
    .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(status_of(&app, &page).await.0, StatusCode::NOT_FOUND);

    // The account is deleted.
    let (owner, photo) = saved_photo(&app, "leaver@example.com").await;
    let page = share(&app, &owner, &photo, None).await.ok()["share_url"]
        .as_str()
        .unwrap()
        .to_owned();
    let gone = call(&app, Method::DELETE, "/api/v1/account", Some(&owner), None).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(status_of(&app, &page).await.0, StatusCode::NOT_FOUND);

    // Moderation takes a listed entry down (unlist) or refuses a pending
    // one (reject): its share link ends with it.
    let admin = admin(&app).await;
    for (state, action, body) in [
        (State::Listed, "unlist", json!({})),
        (
            State::Pending,
            "reject",
            json!({"reason": "Not a photo of a person"}),
        ),
    ] {
        let contestant = sign_up_unnamed(&app, &format!("{action}@example.com")).await;
        let id = insert_photo(&app, contestant.id, 8.1, chrono::Utc::now(), state).await;
        // Sharing screens the stored image, so the seeded row needs one.
        store_original(&app, id, "face/astronaut.png").await;
        let page = share(&app, &contestant.token, &id.to_string(), None)
            .await
            .ok()["share_url"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(status_of(&app, &page).await.0, StatusCode::OK, "{action}");
        post(
            &app,
            &format!("/api/v1/admin/leaderboard/entries/{id}/{action}"),
            &admin,
            body,
        )
        .await
        .ok();
        assert_eq!(
            status_of(&app, &page).await.0,
            StatusCode::NOT_FOUND,
            "{action}"
        );
    }
}
