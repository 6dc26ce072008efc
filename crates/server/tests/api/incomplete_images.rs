//! Cut-off and damaged photos (a dropped mobile upload) are refused wherever
//! an image comes in, with 422 `image_incomplete` and one message: the
//! analyses, a save (the photo and its edit) and the edits
//! (`edits/function.rs`). Decoders used to pad a cut-off JPEG with grey and
//! score it as whole.

use crate::harness::{
    Backend, Reply, TestApp, access, image_form, on_both_databases, spawn_app_with, testdata,
};
use reqwest::StatusCode;
use serde_json::Value;

pub const MESSAGE: &str = "This photo looks damaged or incomplete. Please choose it again.";

/// The test photos in every format we check, baseline and progressive JPEG.
const FILES: &[(&str, &str)] = &[
    ("face/astronaut-baseline.jpg", "image/jpeg"),
    ("face/astronaut-progressive.jpg", "image/jpeg"),
    ("face/astronaut.png", "image/png"),
    ("face/astronaut.webp", "image/webp"),
];

/// The cuts: after 10 %, 33 %, 66 % and 99 % of the bytes.
fn cuts(len: usize) -> [usize; 4] {
    [10, 33, 66, 99].map(|percent| len * percent / 100)
}

async fn post(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    form: reqwest::multipart::Form,
) -> Reply {
    let mut request = app.client.post(app.url(path)).multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request).await
}

#[track_caller]
fn assert_incomplete(status: StatusCode, body: &Value, what: &str) {
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {body}");
    assert_eq!(body["code"], "image_incomplete", "{what}: {body}");
    assert_eq!(body["message"], MESSAGE, "{what}");
}

/// The app, with room for the many uploads of these tests in a minute.
async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| {
        config.analysis.per_client_per_minute = 1000
    })
    .await
}

on_both_databases!(every_analysis_refuses_a_cut_off_photo_at_every_cut,);

async fn every_analysis_refuses_a_cut_off_photo_at_every_cut(backend: Backend) {
    let app = spawn_app(backend).await;
    // Feet and hands are Premium features: a member, so the gate lets the
    // photo through to the check under test.
    let member = crate::harness::premium_member(&app).await;
    for (file, _) in FILES {
        let whole = testdata(file);
        let Reply { status, body, .. } = post(
            &app,
            "/api/v1/analyses/face",
            None,
            image_form(whole.clone(), "whole"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{file} whole: {body}");
        for cut in cuts(whole.len()) {
            for kind in ["face", "pet", "feet", "hands"] {
                let form = image_form(whole[..cut].to_vec(), "cut");
                let Reply { status, body, .. } = post(
                    &app,
                    &format!("/api/v1/analyses/{kind}"),
                    Some(&member),
                    form,
                )
                .await;
                assert_incomplete(status, &body, &format!("{kind} of {file} cut at {cut}"));
            }
        }
    }
}

on_both_databases!(a_save_refuses_a_cut_off_photo_or_edit_and_stores_nothing);

async fn a_save_refuses_a_cut_off_photo_or_edit_and_stores_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = access(&app.sign_up("cut@example.com").await).to_owned();
    for (file, _) in FILES {
        let whole = testdata(file);
        for cut in cuts(whole.len()) {
            let form = image_form(whole[..cut].to_vec(), "cut");
            let Reply { status, body, .. } = post(&app, "/api/v1/photos", Some(&token), form).await;
            assert_incomplete(status, &body, &format!("the photo {file} cut at {cut}"));

            let form = image_form(testdata("face/astronaut.png"), "whole.png").part(
                "edited_image",
                reqwest::multipart::Part::bytes(whole[..cut].to_vec()).file_name("edit"),
            );
            let Reply { status, body, .. } = post(&app, "/api/v1/photos", Some(&token), form).await;
            assert_incomplete(status, &body, &format!("the edit {file} cut at {cut}"));
        }
    }
    let listed: Vec<Value> = app
        .client
        .get(app.url("/api/v1/photos"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(listed.is_empty(), "nothing saved");
    let media = app.config.data_dir.join("media/photos");
    assert!(
        std::fs::read_dir(&media).map_or(true, |mut entries| entries.next().is_none()),
        "nothing stored"
    );
}
