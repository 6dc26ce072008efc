//! Saving feet and hands results: the server scores them with their own
//! analysis and stores photo_type; without Premium only the photo just scored
//! with the free trial may be saved, once; they never join the leaderboard.

use reqwest::StatusCode;
use reqwest::multipart::Form;
use serde_json::json;

use crate::harness::{
    Backend, Caller, Reply, TestApp, image_form, make_premium, on_both_databases, post,
    sandbox_app, sign_up, testdata,
};

const FEET: &str = "feet/feet-in-sandals-drawing.png";
const HANDS: &str = "hands/main_droite_dessus_0.webp";
const FACE: &str = "face/astronaut.png";

fn form(photo: &str, photo_type: &str) -> Form {
    image_form(testdata(photo), photo).text("photo_type", photo_type.to_owned())
}

async fn send(app: &TestApp, caller: &Caller, path: &str, form: Form) -> Reply {
    app.send(
        app.client
            .post(app.url(path))
            .bearer_auth(&caller.token)
            .multipart(form),
    )
    .await
}

async fn save(app: &TestApp, caller: &Caller, form: Form) -> Reply {
    send(app, caller, "/api/v1/photos", form).await
}

on_both_databases!(
    premium_members_save_feet_and_hands_scored_by_their_own_analysis,
    without_premium_only_the_trials_result_is_saved_once,
    feet_and_hands_stay_off_the_leaderboard_and_unknown_types_are_refused
);

async fn premium_members_save_feet_and_hands_scored_by_their_own_analysis(backend: Backend) {
    let app = sandbox_app(backend).await;
    let member = sign_up(&app, "member@example.com").await;
    make_premium(&app, &member).await;
    for (photo, kind, key) in [
        (FEET, "feet", "toeSymmetry"),
        (HANDS, "hands", "fingerProportions"),
    ] {
        let Reply {
            status,
            body: analysed,
            ..
        } = send(
            &app,
            &member,
            &format!("/api/v1/analyses/{kind}"),
            image_form(testdata(photo), photo),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{analysed}");
        let Reply {
            status,
            body: saved,
            ..
        } = save(&app, &member, form(photo, kind)).await;
        assert_eq!(status, StatusCode::CREATED, "{kind}: {saved}");
        assert_eq!(saved["photo_type"], kind);
        assert_eq!(
            saved["score"], analysed["score"],
            "the saved score is the analysis's"
        );
        assert_eq!(saved["rating_label"], analysed["ratingLabel"]);
        assert!(saved["breakdown"][key].is_number(), "{saved}");
    }
    // Each type keeps its own check: a face is neither feet nor hands.
    let Reply {
        status,
        body: refused,
        ..
    } = save(&app, &member, form(FACE, "feet")).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("not_feet"))
    );
    let Reply {
        status,
        body: refused,
        ..
    } = save(&app, &member, form(FEET, "hands")).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("no_hand"))
    );
}

async fn without_premium_only_the_trials_result_is_saved_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let user = sign_up(&app, "trial@example.com").await;
    // Nothing scored yet: a save would be a free analysis.
    let locked = save(&app, &user, form(FEET, "feet")).await;
    locked.assert_error(StatusCode::FORBIDDEN, "feature_locked");

    let activated = post(
        &app,
        "/functions/v1/record-feature-usage",
        &user,
        json!({"featureName": "feet_scoring"}),
    )
    .await;
    assert_eq!(activated.status, StatusCode::OK, "{}", activated.body);
    // Activated but not used: still nothing to save.
    save(&app, &user, form(FEET, "feet"))
        .await
        .assert_error(StatusCode::FORBIDDEN, "feature_locked");
    let Reply {
        status,
        body: analysed,
        ..
    } = send(
        &app,
        &user,
        "/api/v1/analyses/feet",
        image_form(testdata(FEET), FEET),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{analysed}");
    let Reply {
        status,
        body: saved,
        ..
    } = save(&app, &user, form(FEET, "feet")).await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    assert_eq!(saved["score"], analysed["score"]);
    let again = save(&app, &user, form(FEET, "feet")).await;
    again.assert_error(StatusCode::FORBIDDEN, "feature_locked");
    assert_eq!(
        again.body["message"],
        "You've saved the result of your free trial. Upgrade to Premium to save more."
    );
    // The feet trial says nothing about hands.
    save(&app, &user, form(HANDS, "hands"))
        .await
        .assert_error(StatusCode::FORBIDDEN, "feature_locked");
    // Faces are free to save as ever.
    let Reply {
        status, body: face, ..
    } = save(&app, &user, form(FACE, "face")).await;
    assert_eq!(
        (status, face["photo_type"].as_str()),
        (StatusCode::CREATED, Some("face"))
    );
}

async fn feet_and_hands_stay_off_the_leaderboard_and_unknown_types_are_refused(backend: Backend) {
    let app = sandbox_app(backend).await;
    let member = sign_up(&app, "member@example.com").await;
    make_premium(&app, &member).await;
    let listed = form(FEET, "feet")
        .text("public_listing", "true")
        .text("display_name", "Toes");
    let Reply {
        status,
        body: refused,
        ..
    } = save(&app, &member, listed).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["message"],
        "Only face photos can join the leaderboard"
    );
    let Reply {
        status,
        body: refused,
        ..
    } = save(&app, &member, form(FACE, "pet")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["message"], "photo_type must be face, feet or hands");
}
