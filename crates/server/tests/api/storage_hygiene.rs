//! What is kept on disk, and how: only the primary image of a photo (no
//! trailer with a location), a saved result's original and its edit side by
//! side, share cards drawn once, no empty folders after deletions, and a
//! data dir only the server's user can read.

use crate::harness::{
    Backend, TestApp, fresh_database_url, image_form, on_both_databases, saved_photo,
    sign_up_unnamed, spawn_app, spawn_app_with, testdata,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// GET a relative (media) or absolute (share card) URL.
async fn get_any(app: &TestApp, url: &str) -> reqwest::Response {
    let url = if url.starts_with('/') {
        app.url(url)
    } else {
        url.to_owned()
    };
    app.client.get(url).send().await.unwrap()
}

async fn bytes_of(app: &TestApp, url: &str) -> Vec<u8> {
    let response = get_any(app, url).await;
    assert_eq!(response.status(), StatusCode::OK, "{url}");
    response.bytes().await.unwrap().to_vec()
}

/// A signed-in user's AI edit of an unsaved photo: its result is stored as
/// a temporary image.
async fn temporary_edit(app: &TestApp, token: &str) {
    let edit = app
        .client
        .post(app.url("/functions/v1/edit-photo"))
        .bearer_auth(token)
        .json(&json!({
            "imageUrl": format!("data:image/jpeg;base64,{}", data_encoding::BASE64.encode(&testdata("face/astronaut-baseline.jpg"))),
            "prompt": "Enhance",
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(edit.status(), StatusCode::OK);
}

fn edited_part(bytes: Vec<u8>) -> reqwest::multipart::Part {
    reqwest::multipart::Part::bytes(bytes).file_name("edited.jpg")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Every folder and file under `dir`, relative to it.
fn entries_under(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(next) = stack.pop() {
        for entry in std::fs::read_dir(&next).into_iter().flatten().flatten() {
            let path = entry.path();
            found.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    found.sort();
    found
}

const LOCATION: &[u8] = b"+48.8584+002.2945/";

/// A JPEG segment: marker, length, data.
fn segment(marker: u8, data: &[u8]) -> Vec<u8> {
    let mut out = vec![0xFF, marker];
    out.extend_from_slice(&((data.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(data);
    out
}

/// `jpeg` with an EXIF block carrying a GPS position after its SOI.
fn with_gps_exif(jpeg: &[u8]) -> Vec<u8> {
    let mut exif = b"Exif\0\0MM\0*\0\0\0\x08GPSLatitude ".to_vec();
    exif.extend_from_slice(LOCATION);
    [&jpeg[..2], &segment(0xE1, &exif), &jpeg[2..]].concat()
}

/// The two shapes that kept a location after stripping: an MPF / Ultra HDR
/// photo (a secondary JPEG with its own EXIF and GPS after the primary) and
/// a Motion Photo (an MP4 with a location atom after the JPEG).
fn photos_with_trailers() -> [(&'static str, Vec<u8>); 2] {
    let primary = testdata("face/astronaut-baseline.jpg");
    let mpf = [
        &primary[..2],
        &segment(0xE2, b"MPF\0MM\0*\0\0\0\x08"),
        &primary[2..],
        &with_gps_exif(
            &primary[..2000]
                .iter()
                .copied()
                .chain([0xFF, 0xD9])
                .collect::<Vec<_>>(),
        ),
    ]
    .concat();
    let mut mp4 = b"\0\0\0\x18ftypmp42\0\0\0\0isommp42\0\0\0\x30moov\0\0\0\x28udta\0\0\0\x20\xa9xyz\0\x12\x15\xc7".to_vec();
    mp4.extend_from_slice(LOCATION);
    let motion = [primary.clone(), mp4].concat();
    [("MPF / Ultra HDR", mpf), ("Motion Photo", motion)]
}

on_both_databases!(
    images_without_their_row_are_swept_after_a_grace_period,
    a_saved_photo_keeps_only_its_primary_image_and_no_trailer_with_a_location,
    saving_an_edited_result_keeps_the_original_scored_and_the_edit_beside_it,
    deleting_photos_and_accounts_leaves_no_empty_folders,
    a_share_card_is_drawn_once_per_version_and_kept,
    share_cards_are_rate_limited_by_address,
    the_data_dir_and_the_database_are_private_to_the_servers_user
);

async fn a_saved_photo_keeps_only_its_primary_image_and_no_trailer_with_a_location(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "gps@example.com").await.token;
    let primary = testdata("face/astronaut-baseline.jpg");
    for (shape, upload) in photos_with_trailers() {
        assert!(
            contains(&upload, LOCATION),
            "{shape}: the fixture has a location"
        );
        let form =
            image_form(upload.clone(), "photo.jpg").part("edited_image", edited_part(upload));
        let photo = saved_photo(&app, &token, form).await;
        for field in ["original_image_url", "edited_image_url"] {
            let stored = bytes_of(&app, photo[field].as_str().unwrap()).await;
            for leak in [LOCATION, b"GPS", b"Exif", b"MPF", b"ftyp"] {
                assert!(
                    !contains(&stored, leak),
                    "{shape}, {field}: {:?} survived",
                    String::from_utf8_lossy(leak)
                );
            }
            assert_eq!(
                stored.windows(2).filter(|w| *w == [0xFF, 0xD9]).count(),
                1,
                "{shape}, {field}: one image, ending at its EOI"
            );
            assert!(stored.ends_with(&[0xFF, 0xD9]), "{shape}, {field}");
            assert_eq!(
                image::load_from_memory(&stored).unwrap().to_rgb8(),
                image::load_from_memory(&primary).unwrap().to_rgb8(),
                "{shape}, {field}: the primary image's pixels"
            );
        }
    }
}

async fn saving_an_edited_result_keeps_the_original_scored_and_the_edit_beside_it(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "edited@example.com").await.token;
    let original = testdata("face/astronaut.png");
    // The edit is not scored: even one without a face is saved with it.
    let edit = {
        let mut jpeg = Vec::new();
        image::load_from_memory(&testdata("noface/coffee.png"))
            .unwrap()
            .to_rgb8()
            .write_to(
                &mut std::io::Cursor::new(&mut jpeg),
                image::ImageFormat::Jpeg,
            )
            .unwrap();
        jpeg
    };
    let form = image_form(original.clone(), "astronaut.png")
        .part("edited_image", edited_part(edit.clone()))
        .text("score", "10");
    let photo = saved_photo(&app, &token, form).await;

    let own_score = prettyscore_analysis::analyze_face(&original).unwrap();
    assert_eq!(
        photo["score"].as_f64().unwrap(),
        own_score.score,
        "the original's score"
    );
    assert_eq!(photo["rating_label"], own_score.rating_label);
    let stored_original = bytes_of(&app, photo["original_image_url"].as_str().unwrap()).await;
    assert_eq!(
        image::load_from_memory(&stored_original).unwrap().to_rgb8(),
        image::load_from_memory(&original).unwrap().to_rgb8(),
        "the original is stored as the original"
    );
    let edited_url = photo["edited_image_url"]
        .as_str()
        .expect("the edit is kept")
        .to_owned();
    let stored_edit = bytes_of(&app, &edited_url).await;
    assert_eq!(stored_edit, edit, "the edit as it was made");

    // As an edit made in My Photos: in the photo's folder, and Undo goes back
    // to the original and forward to the edit again.
    let id = photo["id"].as_str().unwrap();
    let user_id = photo["user_id"].as_str().unwrap();
    assert!(
        edited_url.starts_with(&format!("/media/photos/{user_id}/{id}/edits/")),
        "{edited_url}"
    );
    let patch = |body: Value| {
        app.client
            .patch(app.url(&format!("/api/v1/photos/{id}")))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let undone: Value = patch(json!({"editedImageUrl": null}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(undone["edited_image_url"], Value::Null);
    let redone = patch(json!({"editedImageUrl": edited_url})).await.unwrap();
    assert_eq!(redone.status(), StatusCode::OK);
    let redone: Value = redone.json().await.unwrap();
    assert!(
        redone["edited_image_url"]
            .as_str()
            .unwrap()
            .contains("/edits/")
    );
    assert_eq!(
        redone["score"], photo["score"],
        "the score stays the original's"
    );

    // Without an edit, a save has none.
    let plain = saved_photo(&app, &token, image_form(original, "astronaut.png")).await;
    assert_eq!(plain["edited_image_url"], Value::Null);
    assert_eq!(plain["score"], photo["score"]);
}

async fn deleting_photos_and_accounts_leaves_no_empty_folders(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "tidy@example.com").await.token;
    let media = app.config.data_dir.join("media");
    let form = || {
        image_form(testdata("face/astronaut.png"), "a.png").part(
            "edited_image",
            edited_part(testdata("face/astronaut-baseline.jpg")),
        )
    };
    let photo = saved_photo(&app, &token, form()).await;
    let id = photo["id"].as_str().unwrap();
    // A share card in the photo's folder too.
    let link: Value = app
        .client
        .post(app.url(&format!("/api/v1/photos/{id}/share")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    bytes_of(&app, link["card_url"].as_str().unwrap()).await;
    let user_id = photo["user_id"].as_str().unwrap();
    assert!(media.join(format!("photos/{user_id}/{id}/cards")).is_dir());

    let deleted = app
        .client
        .delete(app.url(&format!("/api/v1/photos/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        entries_under(&media),
        Vec::<String>::new(),
        "no folder left"
    );

    // A signed-in user's temporary edit, and a saved photo, then the account goes.
    saved_photo(&app, &token, form()).await;
    // An image whose row was never written (a crash between the two).
    let orphan = format!("photos/{user_id}/{}/original.jpg", uuid::Uuid::new_v4());
    app.state
        .storage
        .put(&orphan, testdata("face/astronaut-baseline.jpg").into())
        .await
        .unwrap();
    temporary_edit(&app, &token).await;
    assert!(media.join("tmp/edits").is_dir());
    let gone = app
        .client
        .delete(app.url("/api/v1/account"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(gone.status().is_success(), "{}", gone.status());
    assert_eq!(
        entries_under(&media),
        Vec::<String>::new(),
        "no folder left"
    );
    assert!(media.is_dir(), "the media dir itself stays");
}

/// Issue 25, item 7: a kill -9 between an image's write and its row's insert
/// left the image for good (2 rounds in 3), even after the account went.
async fn images_without_their_row_are_swept_after_a_grace_period(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "orphans@example.com").await.token;
    let kept = saved_photo(
        &app,
        &token,
        image_form(testdata("face/astronaut.png"), "a.png"),
    )
    .await;
    let user_id = kept["user_id"].as_str().unwrap();
    let storage = &app.state.storage;
    let orphan = format!("photos/{user_id}/{}/original.jpg", uuid::Uuid::new_v4());
    let temp_orphan = format!("tmp/edits/{}.jpg", uuid::Uuid::new_v4());
    for key in [&orphan, &temp_orphan] {
        storage
            .put(key, testdata("face/astronaut-baseline.jpg").into())
            .await
            .unwrap();
    }
    // A temporary result with its row stays until it expires.
    temporary_edit(&app, &token).await;
    let db = &app.db;
    let sweep = |before| async move {
        let photos = prettyscore_server::photos::orphans::sweep_orphans(db, storage, before);
        let edits = prettyscore_server::edits::temp::sweep_orphans(db, storage, before);
        (photos.await.unwrap(), edits.await.unwrap())
    };
    let everything = || async {
        storage.list("photos").await.unwrap().len() + storage.list("tmp").await.unwrap().len()
    };
    let before = everything().await;
    // Within the grace period (written after `before`) nothing goes: a save
    // in progress writes its row within seconds.
    let an_hour_ago = chrono::Utc::now() - chrono::Duration::hours(1);
    assert_eq!(sweep(an_hour_ago).await, (0, 0));
    assert_eq!(everything().await, before);
    // After it, the two orphans go and nothing else.
    let later = chrono::Utc::now() + chrono::Duration::seconds(5);
    assert_eq!(sweep(later).await, (1, 1));
    assert!(!storage.exists(&orphan).await.unwrap());
    assert!(!storage.exists(&temp_orphan).await.unwrap());
    assert_eq!(everything().await, before - 2);
    let original = kept["original_image_url"].as_str().unwrap();
    assert_eq!(
        get_any(&app, original).await.status(),
        StatusCode::OK,
        "the saved photo stays"
    );
    assert_eq!(sweep(later).await, (0, 0), "a second sweep finds nothing");
}

async fn shared_card_url(app: &TestApp, token: &str) -> (Value, String) {
    let photo = saved_photo(
        app,
        token,
        image_form(testdata("face/astronaut.png"), "a.png"),
    )
    .await;
    let link: Value = app
        .client
        .post(app.url(&format!(
            "/api/v1/photos/{}/share",
            photo["id"].as_str().unwrap()
        )))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (photo, link["card_url"].as_str().unwrap().to_owned())
}

async fn a_share_card_is_drawn_once_per_version_and_kept(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = sign_up_unnamed(&app, "cards@example.com").await.token;
    let (photo, card_url) = shared_card_url(&app, &token).await;
    let folder = app.config.data_dir.join(format!(
        "media/photos/{}/{}/cards",
        photo["user_id"].as_str().unwrap(),
        photo["id"].as_str().unwrap()
    ));
    let drawn = bytes_of(&app, &card_url).await;
    let kept = entries_under(&folder);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read(folder.join(&kept[0])).unwrap(), drawn);

    // The second request is served from storage: a marker put in the kept
    // card's place comes back, so nothing was drawn again.
    let marker = {
        let mut png = Vec::new();
        image::RgbImage::from_pixel(3, 2, image::Rgb([1, 2, 3]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        png
    };
    std::fs::write(folder.join(&kept[0]), &marker).unwrap();
    assert_eq!(bytes_of(&app, &card_url).await, marker);

    // A new version of the photo (an edit) gets its own card, drawn once,
    // and the old one goes.
    let edit = app
        .client
        .post(app.url("/functions/v1/edit-photo"))
        .bearer_auth(&token)
        .json(&json!({
            "imageUrl": photo["original_image_url"],
            "prompt": "black and white",
            "photoId": photo["id"],
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        edit.status(),
        StatusCode::OK,
        "{}",
        edit.text().await.unwrap()
    );
    let redrawn = bytes_of(&app, &card_url).await;
    assert_ne!(redrawn, marker);
    assert_ne!(redrawn, drawn, "the edited photo's card");
    let kept_now = entries_under(&folder);
    assert_eq!(kept_now.len(), 1, "{kept_now:?}");
    assert_ne!(kept_now, kept);
}

async fn share_cards_are_rate_limited_by_address(backend: Backend) {
    const LIMIT: u32 = 4;
    let app = spawn_app_with(backend, |config| {
        config.share.cards_per_client_per_minute = LIMIT
    })
    .await;
    let token = sign_up_unnamed(&app, "flood@example.com").await.token;
    let (_, card_url) = shared_card_url(&app, &token).await;
    // A window may end during the loop: then the count starts again, so a
    // second window's worth of requests is allowed for.
    let mut served = 0;
    let mut refused = None;
    for _ in 0..2 * (LIMIT + 1) {
        let response = get_any(&app, &card_url).await;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(response.json::<Value>().await.unwrap());
            break;
        }
        assert_eq!(response.status(), StatusCode::OK);
        served += 1;
    }
    let refused = refused.expect("a flood of card requests is refused");
    assert_eq!(refused["code"], "rate_limited", "{refused}");
    assert!(served >= LIMIT, "{served} served before the refusal");
}

async fn the_data_dir_and_the_database_are_private_to_the_servers_user(backend: Backend) {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
            .permissions()
            .mode()
            & 0o777
    };
    // A data dir the server makes itself (the test's own temporary folder is
    // private already), and one with a database file left world-readable.
    let parent = tempfile::tempdir().unwrap();
    let data_dir = parent.path().join("data");
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(fresh_database_url(backend, parent.path()).await),
    };
    for previous in [None, Some(0o644)] {
        if let Some(previous) = previous {
            std::fs::set_permissions(&data_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
            let database = data_dir.join("prettyscore.sqlite");
            if database.exists() {
                std::fs::set_permissions(&database, std::fs::Permissions::from_mode(previous))
                    .unwrap();
            }
        }
        let (dir, url) = (data_dir.clone(), database_url.clone());
        let app = spawn_app_with(backend, move |config| {
            config.data_dir = dir;
            config.database_url = url.map(prettyscore_server::config::Secret::new);
        })
        .await;
        // Something in the database and in the media dir.
        let token = sign_up_unnamed(&app, &format!("private-{}@example.com", previous.is_some()))
            .await
            .token;
        saved_photo(
            &app,
            &token,
            image_form(testdata("face/astronaut.png"), "a.png"),
        )
        .await;

        assert_eq!(mode(&data_dir), 0o700, "the data dir");
        assert_eq!(mode(&data_dir.join("media")), 0o700, "the media dir");
        if backend == Backend::Sqlite {
            let database = data_dir.join("prettyscore.sqlite");
            assert_eq!(mode(&database), 0o600, "the database");
            for side in ["prettyscore.sqlite-wal", "prettyscore.sqlite-shm"] {
                let path = data_dir.join(side);
                if path.exists() {
                    assert_eq!(mode(&path), 0o600, "{side}");
                }
            }
        }
    }
}
