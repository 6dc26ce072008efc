//! The AI Photo Editor's Save (issue 24, item 6): the original is stored and
//! scored, the edit is attached to it (as /results saves); a photo opened
//! from My Photos is updated with `PUT /photos/{id}/edited-image`, never
//! duplicated, whatever its type, and nothing is scored again.

use prettyscore_imaging::{Operation, Style};
use reqwest::multipart::{Form, Part};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::harness::{
    Backend, Caller, Reply, TestApp, admin, image_form, make_premium, on_both_databases,
    sandbox_app, sign_up, testdata,
};

const FACE: &str = "face/astronaut.png";
const HANDS: &str = "hands/main_droite_dessus_0.webp";

on_both_databases!(
    the_editors_save_keeps_the_original_scored_and_attaches_the_edit,
    a_saved_photo_takes_an_edit_in_place_whatever_its_type,
    only_the_owner_attaches_an_edit_and_only_an_image
);

/// `source` in a style, as the editor's built-in engine makes it.
fn styled(source: &[u8], style: Style) -> Vec<u8> {
    prettyscore_imaging::apply(source, &[Operation::Style { style }])
        .expect("the test photo can be styled")
        .jpeg
}

fn image_part(bytes: Vec<u8>, name: &str) -> Part {
    Part::bytes(bytes).file_name(name.to_owned())
}

async fn multipart(
    app: &TestApp,
    method: Method,
    path: &str,
    caller: Option<&Caller>,
    form: Form,
) -> Reply {
    let mut request = app.client.request(method, app.url(path)).multipart(form);
    if let Some(caller) = caller {
        request = request.bearer_auth(&caller.token);
    }
    app.send(request).await
}

async fn photos_of(app: &TestApp, caller: &Caller) -> Vec<Value> {
    let response = app
        .client
        .get(app.url("/api/v1/photos"))
        .bearer_auth(&caller.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json::<Vec<Value>>().await.unwrap()
}

async fn image_at(app: &TestApp, url: &Value) -> Vec<u8> {
    let response = app.get(url.as_str().unwrap()).await;
    assert_eq!(response.status(), StatusCode::OK);
    response.bytes().await.unwrap().to_vec()
}

/// A signed media URL without its token: the stored object it names.
fn object(url: &Value) -> &str {
    url.as_str().unwrap().split('?').next().unwrap()
}

fn edited_image_path(photo: &Value) -> String {
    format!(
        "/api/v1/photos/{}/edited-image",
        photo["id"].as_str().unwrap()
    )
}

async fn the_editors_save_keeps_the_original_scored_and_attaches_the_edit(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let original = testdata(FACE);
    let edit = styled(&original, Style::Vivid);
    let original_score = prettyscore_analysis::analyze_face(&original).unwrap().score;

    // What /editor sends for a new photo: the original, and its edit beside it.
    let form = image_form(original.clone(), "photo.png")
        .part("edited_image", image_part(edit, "edit.jpg"));
    let Reply {
        status,
        body: saved,
        ..
    } = multipart(&app, Method::POST, "/api/v1/photos", Some(&ada), form).await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    assert_eq!(
        saved["score"].as_f64().unwrap(),
        original_score,
        "the original's score"
    );
    let stored_original = image_at(&app, &saved["original_image_url"]).await;
    assert_eq!(
        prettyscore_analysis::analyze_face(&stored_original)
            .unwrap()
            .score,
        original_score,
        "the stored original is the photo as taken, not the edit"
    );
    assert!(saved["edited_image_url"].is_string(), "{saved}");
    assert_ne!(
        object(&saved["edited_image_url"]),
        object(&saved["original_image_url"])
    );
    assert_eq!(photos_of(&app, &ada).await.len(), 1);
}

async fn a_saved_photo_takes_an_edit_in_place_whatever_its_type(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    make_premium(&app, &ada).await;
    for (file, kind) in [(FACE, "face"), (HANDS, "hands")] {
        let form = image_form(testdata(file), file).text("photo_type", kind);
        let Reply {
            status,
            body: saved,
            ..
        } = multipart(&app, Method::POST, "/api/v1/photos", Some(&ada), form).await;
        assert_eq!(status, StatusCode::CREATED, "{kind}: {saved}");

        // Opened from My Photos, edited twice, saved twice: one photo, its
        // original and score untouched, the latest edit attached.
        let source = image_at(&app, &saved["original_image_url"]).await;
        let mut last_edit = String::new();
        for style in [Style::Warm, Style::BlackAndWhite] {
            let form = Form::new().part("image", image_part(styled(&source, style), "edit.jpg"));
            let Reply {
                status,
                body: updated,
                ..
            } = multipart(
                &app,
                Method::PUT,
                &edited_image_path(&saved),
                Some(&ada),
                form,
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{kind}: {updated}");
            assert_eq!(updated["id"], saved["id"]);
            assert_eq!(updated["photo_type"], kind);
            assert_eq!(updated["score"], saved["score"], "{kind}: not scored again");
            assert_eq!(updated["breakdown"], saved["breakdown"]);
            assert_eq!(
                object(&updated["original_image_url"]),
                object(&saved["original_image_url"])
            );
            let edit = object(&updated["edited_image_url"]).to_owned();
            assert_ne!(edit, last_edit, "each save attaches the new edit");
            assert!(
                edit.contains(&format!("/{}/edits/", saved["id"].as_str().unwrap())),
                "{edit}"
            );
            let stored = image_at(&app, &updated["edited_image_url"]).await;
            assert!(
                !stored.windows(4).any(|w| w == b"Exif"),
                "no EXIF in the edit"
            );
            last_edit = edit;
        }
    }
    let photos = photos_of(&app, &ada).await;
    assert_eq!(photos.len(), 2, "updated, never duplicated");
    assert!(
        photos
            .iter()
            .all(|photo| photo["edited_image_url"].is_string())
    );
}

async fn only_the_owner_attaches_an_edit_and_only_an_image(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let bob = sign_up(&app, "bob@example.com").await;
    let admin = admin(&app).await;
    let Reply {
        status,
        body: saved,
        ..
    } = multipart(
        &app,
        Method::POST,
        "/api/v1/photos",
        Some(&ada),
        image_form(testdata(FACE), "photo.png"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    let path = edited_image_path(&saved);
    let edit = || {
        Form::new().part(
            "image",
            image_part(styled(&testdata(FACE), Style::Cool), "edit.jpg"),
        )
    };

    let Reply { status, body, .. } = multipart(&app, Method::PUT, &path, None, edit()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("not_signed_in"))
    );
    // Another user and an admin: the photo is not theirs, and they learn nothing of it.
    for stranger in [&bob, &admin] {
        let Reply { status, body, .. } =
            multipart(&app, Method::PUT, &path, Some(stranger), edit()).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::NOT_FOUND, Some("not_found")),
            "{body}"
        );
    }
    let unknown = format!("/api/v1/photos/{}/edited-image", uuid::Uuid::new_v4());
    let Reply { status, .. } = multipart(&app, Method::PUT, &unknown, Some(&ada), edit()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let Reply { status, body, .. } = multipart(
        &app,
        Method::PUT,
        &path,
        Some(&ada),
        Form::new().text("other", "x"),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("missing_image")),
        "{body}"
    );
    let not_an_image = Form::new().part("image", image_part(b"hello, world".to_vec(), "x.jpg"));
    let Reply { status, body, .. } =
        multipart(&app, Method::PUT, &path, Some(&ada), not_an_image).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let mut cut = styled(&testdata(FACE), Style::Cool);
    cut.truncate(cut.len() / 2);
    let cut = Form::new().part("image", image_part(cut, "cut.jpg"));
    let Reply { status, body, .. } = multipart(&app, Method::PUT, &path, Some(&ada), cut).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("image_incomplete")),
        "{body}"
    );
    // None of that changed the photo.
    assert!(photos_of(&app, &ada).await[0]["edited_image_url"].is_null());

    let Reply {
        status,
        body: updated,
        ..
    } = multipart(&app, Method::PUT, &path, Some(&ada), edit()).await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert!(updated["edited_image_url"].is_string());
}
