//! Saved photos: the server scores the stored image itself, strips EXIF,
//! keeps each user's photos to themselves and removes images on delete.

use crate::harness::{
    Backend, Reply, TestApp, access, astronaut, fetch, files_under, image_form, on_both_databases,
    save_photo, sign_up_unnamed, spawn_app, testdata,
};
use reqwest::StatusCode;
use serde_json::Value;

async fn get_as(app: &TestApp, token: &str, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

on_both_databases!(
    saving_stores_the_servers_own_score_of_the_stored_image,
    leaderboard_entries_need_a_trimmed_display_name_and_wait_for_verification,
    each_user_sees_and_deletes_only_their_own_photos,
    a_list_read_a_moment_ago_never_hides_a_change_made_since,
    saving_and_listing_need_a_signed_in_user,
    photos_list_newest_first_or_by_rating,
    media_urls_need_a_valid_signature,
    the_data_export_lists_photos_and_deleting_the_account_removes_their_images,
    deleting_a_user_through_the_auth_admin_api_removes_their_images_too,
    a_shared_result_has_a_public_page_with_open_graph_tags_and_a_score_card,
);

async fn saving_stores_the_servers_own_score_of_the_stored_image(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "saver@example.com").await.token;
    // A client-sent score is not a field the server reads.
    let form = astronaut()
        .text("score", "10")
        .text("rating_label", "WORLD'S MOST BEAUTIFUL");
    let Reply {
        status,
        body: photo,
        ..
    } = save_photo(&app, &token, form).await;
    assert_eq!(status, StatusCode::CREATED, "{photo}");
    assert_ne!(photo["score"], 10.0);
    assert_eq!(photo["photo_type"], "face");
    assert_eq!(photo["public_listing"], false);
    assert_eq!(photo["is_verified"], false);

    let (status, stored) = fetch(&app, photo["original_image_url"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !stored.windows(4).any(|w| w == b"Exif"),
        "no EXIF in the stored image"
    );
    let server_view = prettyscore_analysis::analyze_face(&stored).unwrap();
    // The upright PNG is stored pixel for pixel, so the saved score is
    // also the one the results screen showed.
    let live = prettyscore_analysis::analyze_face(&testdata("face/astronaut.png")).unwrap();
    assert_eq!(live.score, server_view.score);
    assert_eq!(photo["score"].as_f64().unwrap(), server_view.score);
    assert_eq!(photo["rating_label"], server_view.rating_label);
    assert_eq!(
        photo["breakdown"]["symmetry"].as_f64().unwrap(),
        server_view.breakdown.symmetry
    );
}

async fn leaderboard_entries_need_a_trimmed_display_name_and_wait_for_verification(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "star@example.com").await.token;
    let Reply { status, body, .. } = save_photo(
        &app,
        &token,
        astronaut()
            .text("public_listing", "true")
            .text("display_name", "   "),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Please enter your display name");

    let form = astronaut()
        .text("public_listing", "true")
        .text("display_name", "  Eileen ")
        .text("bio", "First woman to pilot the Space Shuttle");
    let Reply {
        status,
        body: photo,
        ..
    } = save_photo(&app, &token, form).await;
    assert_eq!(status, StatusCode::CREATED, "{photo}");
    assert_eq!(photo["public_listing"], true);
    assert_eq!(photo["is_verified"], false);
    assert_eq!(photo["display_name"], "Eileen");
}

async fn each_user_sees_and_deletes_only_their_own_photos(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up_unnamed(&app, "owner@example.com").await.token;
    let other = sign_up_unnamed(&app, "other@example.com").await.token;
    let Reply { body: photo, .. } = save_photo(&app, &owner, astronaut()).await;
    let id = photo["id"].as_str().unwrap();

    let mine: Vec<Value> = get_as(&app, &owner, "/api/v1/photos")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(mine.len(), 1);
    let theirs: Vec<Value> = get_as(&app, &other, "/api/v1/photos")
        .await
        .json()
        .await
        .unwrap();
    assert!(theirs.is_empty());
    let path = format!("/api/v1/photos/{id}");
    assert_eq!(
        get_as(&app, &other, &path).await.status(),
        StatusCode::NOT_FOUND
    );
    let delete = app
        .client
        .delete(app.url(&path))
        .bearer_auth(&other)
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), StatusCode::NOT_FOUND);

    let image_url = photo["original_image_url"].as_str().unwrap().to_owned();
    assert_eq!(fetch(&app, &image_url).await.0, StatusCode::OK);
    let delete = app
        .client
        .delete(app.url(&path))
        .bearer_auth(&owner)
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        get_as(&app, &owner, &path).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        fetch(&app, &image_url).await.0,
        StatusCode::NOT_FOUND,
        "image removed"
    );
}

/// The list is answered again from memory for a moment on SQLite
/// (`http::recent_reads`); every write must still show on the very next read.
async fn a_list_read_a_moment_ago_never_hides_a_change_made_since(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up_unnamed(&app, "owner@example.com").await.token;
    let other = sign_up_unnamed(&app, "other@example.com").await.token;
    let list = |token: String| {
        let app = &app;
        async move {
            let photos: Vec<Value> = get_as(app, &token, "/api/v1/photos")
                .await
                .json()
                .await
                .unwrap();
            photos
                .iter()
                .map(|photo| photo["id"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert!(list(owner.clone()).await.is_empty());
    let Reply { body: first, .. } = save_photo(&app, &owner, astronaut()).await;
    let first = first["id"].as_str().unwrap().to_owned();
    assert_eq!(
        list(owner.clone()).await,
        std::slice::from_ref(&first),
        "a save shows at once"
    );
    assert!(
        list(other.clone()).await.is_empty(),
        "never another user's list"
    );

    let Reply { body: second, .. } = save_photo(&app, &owner, astronaut()).await;
    let second = second["id"].as_str().unwrap().to_owned();
    assert_eq!(list(owner.clone()).await, [second.clone(), first.clone()]);
    let delete = app
        .client
        .delete(app.url(&format!("/api/v1/photos/{first}")))
        .bearer_auth(&owner)
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        list(owner.clone()).await,
        [second],
        "a delete shows at once"
    );
}

async fn saving_and_listing_need_a_signed_in_user(backend: Backend) {
    let app = spawn_app(backend).await;
    let response = app
        .client
        .post(app.url("/api/v1/photos"))
        .multipart(astronaut())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        response.json::<Value>().await.unwrap()["code"],
        "not_signed_in"
    );
    assert_eq!(
        app.get("/api/v1/photos").await.status(),
        StatusCode::UNAUTHORIZED
    );
}

async fn photos_list_newest_first_or_by_rating(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "sorter@example.com").await.token;
    // A second, different face photo: the astronaut mirrored and cropped.
    let original = image::load_from_memory(&testdata("face/astronaut.png")).unwrap();
    let variant = original.fliph().crop_imm(40, 0, 400, 400);
    let mut variant_png = Vec::new();
    variant
        .write_to(
            &mut std::io::Cursor::new(&mut variant_png),
            image::ImageFormat::Png,
        )
        .unwrap();
    let Reply { body: first, .. } = save_photo(&app, &token, astronaut()).await;
    let Reply {
        status,
        body: second,
        ..
    } = save_photo(&app, &token, image_form(variant_png, "variant.png")).await;
    assert_eq!(status, StatusCode::CREATED, "{second}");

    let latest: Vec<Value> = get_as(&app, &token, "/api/v1/photos?sort=latest")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(latest[0]["id"], second["id"], "newest first");
    let rated: Vec<Value> = get_as(&app, &token, "/api/v1/photos?sort=rating")
        .await
        .json()
        .await
        .unwrap();
    let scores: Vec<f64> = rated.iter().map(|p| p["score"].as_f64().unwrap()).collect();
    assert!(scores[0] >= scores[1], "{scores:?}");
    assert_eq!(rated.len(), 2);
    let _ = first;
    let bad = get_as(&app, &token, "/api/v1/photos?sort=sideways").await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
}

async fn media_urls_need_a_valid_signature(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "media@example.com").await.token;
    let Reply { body: photo, .. } = save_photo(&app, &token, astronaut()).await;
    let url = photo["original_image_url"].as_str().unwrap();
    let (path, signature) = url.split_once("?token=").unwrap();
    assert_eq!(
        app.get(path).await.status(),
        StatusCode::NOT_FOUND,
        "unsigned"
    );
    let tampered = format!("{path}?token={}x", &signature[..signature.len() - 1]);
    assert_eq!(
        app.get(&tampered).await.status(),
        StatusCode::NOT_FOUND,
        "tampered"
    );
    // A signature for one image does not open another.
    let other = path.replace("/original.", "/edited.");
    assert_ne!(other, path);
    assert_eq!(
        app.get(&format!("{other}?token={signature}"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
}

async fn the_data_export_lists_photos_and_deleting_the_account_removes_their_images(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "leaver@example.com").await.token;
    let Reply { body: photo, .. } = save_photo(&app, &token, astronaut()).await;
    let export: Value = get_as(&app, &token, "/api/v1/account/export")
        .await
        .json()
        .await
        .unwrap();
    let exported = &export["sections"]["photos"][0];
    assert_eq!(exported["id"], photo["id"]);
    let data_url = exported["original_image"].as_str().unwrap();
    let base64 = data_url
        .strip_prefix("data:image/png;base64,")
        .expect("the image itself");
    let (_, stored) = fetch(&app, photo["original_image_url"].as_str().unwrap()).await;
    assert_eq!(
        data_encoding::BASE64.decode(base64.as_bytes()).unwrap(),
        stored
    );

    let media = app.config.data_dir.join("media/photos");
    assert!(std::fs::read_dir(&media).unwrap().next().is_some());
    let delete = app
        .client
        .delete(app.url("/api/v1/account"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(delete.status().is_success(), "{}", delete.status());
    let url = photo["original_image_url"].as_str().unwrap();
    assert_eq!(fetch(&app, url).await.0, StatusCode::NOT_FOUND);
    let left: Vec<_> = files_under(&media);
    assert!(left.is_empty(), "images left behind: {left:?}");
}

async fn deleting_a_user_through_the_auth_admin_api_removes_their_images_too(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("removed@example.com").await;
    let Reply { body: photo, .. } = save_photo(&app, access(&tokens), astronaut()).await;
    let media = app.config.data_dir.join("media/photos");
    assert!(!files_under(&media).is_empty());

    let user_id = tokens["user"]["id"].as_str().unwrap();
    let service = app.service_token().await;
    let reply = app
        .delete_as(&service, &format!("/admin/users/{user_id}"))
        .await;
    reply.assert_ok();
    let url = photo["original_image_url"].as_str().unwrap();
    assert_eq!(fetch(&app, url).await.0, StatusCode::NOT_FOUND);
    let left = files_under(&media);
    assert!(left.is_empty(), "images left behind: {left:?}");
}

async fn a_shared_result_has_a_public_page_with_open_graph_tags_and_a_score_card(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = sign_up_unnamed(&app, "sharer@example.com").await.token;
    let other = sign_up_unnamed(&app, "nosy@example.com").await.token;
    let Reply { body: photo, .. } = save_photo(&app, &owner, astronaut()).await;
    let share_path = format!("/api/v1/photos/{}/share", photo["id"].as_str().unwrap());

    let refused = app
        .client
        .post(app.url(&share_path))
        .bearer_auth(&other)
        .send()
        .await
        .unwrap();
    assert_eq!(
        refused.status(),
        StatusCode::NOT_FOUND,
        "only the owner shares"
    );

    let link: Value = app
        .client
        .post(app.url(&share_path))
        .bearer_auth(&owner)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let again: Value = app
        .client
        .post(app.url(&share_path))
        .bearer_auth(&owner)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(link, again, "sharing twice gives the same link");
    let share_url = link["share_url"].as_str().unwrap();
    assert!(share_url.starts_with(&app.address), "{share_url}");

    let page = app.client.get(share_url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    let score = format!("{:.1}/10", photo["score"].as_f64().unwrap());
    assert!(
        html.contains(&format!(
            r#"<meta property="og:title" content="I scored {score}"#
        )),
        "{html}"
    );
    let card_url = link["card_url"].as_str().unwrap();
    assert!(
        html.contains(&format!(
            r#"<meta property="og:image" content="{card_url}">"#
        )),
        "{html}"
    );
    assert!(html.contains(r#"<meta name="twitter:card" content="summary_large_image">"#));

    let card = app.client.get(card_url).send().await.unwrap();
    assert_eq!(card.status(), StatusCode::OK);
    assert_eq!(card.headers()["content-type"], "image/png");
    let card = image::load_from_memory(&card.bytes().await.unwrap()).unwrap();
    assert_eq!((card.width(), card.height()), (1200, 630));

    assert_eq!(
        app.get("/s/not-a-real-slug").await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/s/not-a-real-slug/card.png").await.status(),
        StatusCode::NOT_FOUND
    );
}
