//! POST /api/v1/analyses/{face,pet,feet,hands}: scores from the server's own
//! analysis, the user's messages for bad input, nothing stored.

use crate::harness::{
    Backend, Reply, TestApp, files_under, image_form, on_both_databases, premium_member, spawn_app,
    spawn_app_with, testdata,
};
use reqwest::StatusCode;
use serde_json::Value;

async fn analyse(app: &TestApp, kind: &str, form: reqwest::multipart::Form) -> Reply {
    analyse_as(app, None, kind, form).await
}

async fn analyse_as(
    app: &TestApp,
    token: Option<&str>,
    kind: &str,
    form: reqwest::multipart::Form,
) -> Reply {
    let mut request = app
        .client
        .post(app.url(&format!("/api/v1/analyses/{kind}")))
        .multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request).await
}

#[tokio::test]
async fn a_face_photo_gets_a_score_a_breakdown_and_its_landmarks_and_nothing_is_stored() {
    let app = spawn_app(Backend::Sqlite).await;
    let Reply { status, body, .. } = analyse(
        &app,
        "face",
        image_form(testdata("face/astronaut.png"), "a.png"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let score = body["score"].as_f64().unwrap();
    assert!((1.0..=10.0).contains(&score), "{score}");
    assert_eq!((score * 10.0).round() / 10.0, score, "one decimal");
    assert!(body["ratingLabel"].is_string());
    for key in ["symmetry", "skinQuality", "facialHarmony", "overallBalance"] {
        let value = body["breakdown"][key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key}: {body}"));
        assert!((0.0..=10.0).contains(&value), "{key} = {value}");
    }
    assert_eq!(body["landmarks"].as_array().unwrap().len(), 468);
    assert!(body["faceBox"]["width"].as_f64().unwrap() > 0.0);

    let Reply { body: again, .. } = analyse(
        &app,
        "face",
        image_form(testdata("face/astronaut.png"), "a.png"),
    )
    .await;
    assert_eq!(again, body, "the same bytes give the same answer");
    assert_eq!(
        files_under(&app.config.data_dir.join("media")).len(),
        0,
        "nothing stored"
    );
}

#[tokio::test]
async fn bad_uploads_get_the_users_message() {
    let app = spawn_app(Backend::Sqlite).await;
    let cases: [(reqwest::multipart::Form, StatusCode, &str, &str); 5] = [
        (
            image_form(testdata("noface/coffee.png"), "coffee.png"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_face",
            "front-facing",
        ),
        (
            image_form(b"just some text".to_vec(), "notes.txt"),
            StatusCode::BAD_REQUEST,
            "not_an_image",
            "Please upload an image file",
        ),
        (
            image_form(vec![0x42; 11 * 1024 * 1024], "huge.jpg"),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "File too large! Please upload an image under 10MB.",
        ),
        (
            image_form(testdata("face/astronaut.png")[..4000].to_vec(), "cut.png"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "image_incomplete",
            "This photo looks damaged or incomplete. Please choose it again.",
        ),
        (
            reqwest::multipart::Form::new().text("other", "x"),
            StatusCode::BAD_REQUEST,
            "missing_image",
            "Please upload a photo first!",
        ),
    ];
    for (form, status, code, message) in cases {
        let Reply {
            status: got_status,
            body,
            ..
        } = analyse(&app, "face", form).await;
        assert_eq!(
            (got_status, body["code"].as_str().unwrap()),
            (status, code),
            "{body}"
        );
        assert!(
            body["message"].as_str().unwrap().contains(message),
            "{body}"
        );
    }

    let response = app
        .client
        .post(app.url("/api/v1/analyses/face"))
        .json(&serde_json::json!({"image": "data:image/png;base64,AAAA"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        response.json::<Value>().await.unwrap()["code"],
        "invalid_upload"
    );
}

#[tokio::test]
async fn pets_get_a_whole_number_from_7_to_10_with_a_title() {
    let app = spawn_app(Backend::Sqlite).await;
    let Reply { status, body, .. } = analyse(
        &app,
        "pet",
        image_form(testdata("pet/cat-chelsea.png"), "cat.png"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let score = body["score"].as_u64().unwrap();
    assert!((7..=10).contains(&score), "{score}");
    let expected = match score {
        9.. => "Absolutely Adorable!",
        8 => "Super Cute!",
        _ => "Very Sweet!",
    };
    assert_eq!(body["title"], expected);
}

on_both_databases!(
    feet_and_hands_get_the_specs_breakdown_keys,
    a_hands_photo_without_a_hand_and_a_feet_photo_with_a_face_get_422,
    a_burst_from_one_client_gets_429,
);

async fn feet_and_hands_get_the_specs_breakdown_keys(backend: Backend) {
    let app = crate::harness::spawn_app(backend).await;
    let token = premium_member(&app).await;
    let feet = (FEET, "feet", FEET_KEYS);
    let hands = ("hands/main_droite_dessus_0.webp", "hands", HANDS_KEYS);
    for (photo, kind, keys) in [feet, hands] {
        let Reply { status, body, .. } =
            analyse_as(&app, Some(&token), kind, image_form(testdata(photo), photo)).await;
        assert_eq!(status, StatusCode::OK, "{kind}: {body}");
        let score = body["score"].as_f64().unwrap();
        assert!((1.0..=10.0).contains(&score), "{kind}: {score}");
        for key in keys {
            assert!(body["breakdown"][key].is_number(), "{kind} {key}: {body}");
        }
    }
}

/// The public-domain drawing of feet (testdata/README.md): the feet analysis takes it.
const FEET: &str = "feet/feet-in-sandals-drawing.png";

const FEET_KEYS: [&str; 4] = [
    "toeSymmetry",
    "archQuality",
    "skinAppearance",
    "overallAesthetics",
];
const HANDS_KEYS: [&str; 4] = [
    "fingerProportions",
    "skinQuality",
    "nailAppearance",
    "overallAesthetics",
];

async fn a_hands_photo_without_a_hand_and_a_feet_photo_with_a_face_get_422(backend: Backend) {
    let app = crate::harness::spawn_app(backend).await;
    let token = premium_member(&app).await;
    for (photo, kind, code) in [
        ("noface/rocket.jpg", "hands", "no_hand"),
        ("face/astronaut.png", "hands", "no_hand"),
        ("face/astronaut.png", "feet", "not_feet"),
    ] {
        let Reply { status, body, .. } =
            analyse_as(&app, Some(&token), kind, image_form(testdata(photo), photo)).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{kind} {photo}: {body}"
        );
        assert_eq!(body["code"], code, "{kind} {photo}: {body}");
        assert!(!body["message"].as_str().unwrap().is_empty());
    }
}

async fn a_burst_from_one_client_gets_429(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.analysis.per_client_per_minute = 2).await;
    let mut statuses = Vec::new();
    // Five requests: even if a minute boundary falls between them, one
    // window sees at least three.
    for _ in 0..5 {
        let Reply { status, body, .. } = analyse(
            &app,
            "pet",
            image_form(testdata("pet/cat-chelsea.png"), "c.png"),
        )
        .await;
        statuses.push((status, body["code"].as_str().map(str::to_owned)));
    }
    assert_eq!(statuses[0].0, StatusCode::OK);
    assert!(
        statuses.contains(&(StatusCode::TOO_MANY_REQUESTS, Some("rate_limited".into()))),
        "{statuses:?}"
    );
}

on_both_databases!(
    a_feet_photo_without_feet_gets_422_and_keeps_the_trial,
    a_feet_photo_without_feet_is_refused_before_anything_for_the_anonymous
);

const NOT_FEET: &str = "We could not find feet in this photo. Please try another one.";

/// A cup, a rocket, a cat and a face are not feet: 422 `not_feet` with the user's
/// message, for a Premium member and for a trial user, whose trial stays unused.
async fn a_feet_photo_without_feet_gets_422_and_keeps_the_trial(backend: Backend) {
    let app = crate::harness::sandbox_app(backend).await;
    let member = premium_member(&app).await;
    let trial = crate::harness::sign_up(&app, "trial@example.com").await;
    let activated = crate::harness::post(
        &app,
        "/functions/v1/record-feature-usage",
        &trial,
        serde_json::json!({"featureName": "feet_scoring"}),
    )
    .await;
    assert_eq!(activated.status, StatusCode::OK, "{}", activated.body);
    for photo in [
        "noface/coffee.png",
        "noface/rocket.jpg",
        "pet/cat-chelsea.png",
        "face/astronaut.png",
    ] {
        for token in [member.as_str(), trial.token.as_str()] {
            let Reply { status, body, .. } = analyse_as(
                &app,
                Some(token),
                "feet",
                image_form(testdata(photo), photo),
            )
            .await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{photo}: {body}");
            assert_eq!(body["code"], "not_feet", "{photo}: {body}");
            assert_eq!(body["message"], NOT_FEET, "{photo}: {body}");
        }
    }
    // Feet are scored, and only then is the trial used up.
    let Reply { status, body, .. } = analyse_as(
        &app,
        Some(&trial.token),
        "feet",
        image_form(testdata(FEET), FEET),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        (7.0..=10.0).contains(&body["score"].as_f64().unwrap()),
        "{body}"
    );
    let Reply { status, body, .. } = analyse_as(
        &app,
        Some(&trial.token),
        "feet",
        image_form(testdata(FEET), FEET),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "feature_locked", "{body}");
}

/// Without a session the feet route answers 401 whatever the photo: the analysis
/// never runs for someone who may not use it.
async fn a_feet_photo_without_feet_is_refused_before_anything_for_the_anonymous(backend: Backend) {
    let app = spawn_app(backend).await;
    let Reply { status, body, .. } = analyse(
        &app,
        "feet",
        image_form(testdata("noface/coffee.png"), "coffee.png"),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["code"], "not_signed_in", "{body}");
}
