//! Feature gates: one free trial per feature per user (atomic, across
//! browsers), and the gated endpoints (feet and hands analyses, the AI
//! Editor's edits) checking access themselves.

use super::*;

on_both_databases!(
    an_unknown_feature_gets_400,
    the_trial_is_used_once_under_eight_parallel_calls_and_across_browsers,
    a_feet_trial_is_one_analysis_then_premium_is_needed,
    premium_members_score_feet_and_hands_without_limit,
    the_ai_editor_gate_needs_premium_or_an_active_trial
);

async fn access(app: &TestApp, caller: &Caller, feature: &str) -> Value {
    post(
        app,
        "/functions/v1/check-feature-access",
        caller,
        json!({"featureName": feature}),
    )
    .await
    .ok()
}

async fn activate(app: &TestApp, caller: &Caller, feature: &str) -> Reply {
    post(
        app,
        "/functions/v1/record-feature-usage",
        caller,
        json!({"featureName": feature}),
    )
    .await
}

async fn analyse(app: &TestApp, caller: Option<&Caller>, kind: &str) -> Reply {
    let photo = match kind {
        "feet" => "feet/feet-in-sandals-drawing.png",
        _ => "hands/main_droite_dessus_0.webp",
    };
    let mut request = app
        .client
        .post(app.url(&format!("/api/v1/analyses/{kind}")))
        .multipart(image_form(testdata(photo), photo));
    if let Some(caller) = caller {
        request = request.bearer_auth(&caller.token);
    }
    app.send(request).await
}

async fn an_unknown_feature_gets_400(backend: Backend) {
    let app = sandbox_app(backend).await;
    let user = sign_up(&app, "curious@example.com").await;
    for path in [
        "/functions/v1/check-feature-access",
        "/functions/v1/record-feature-usage",
    ] {
        let reply = post(&app, path, &user, json!({"featureName": "time_travel"})).await;
        reply.assert_error(StatusCode::BAD_REQUEST, "unknown_feature");
    }
    assert_eq!(count(&app, "feature_trials").await, 0);
    for feature in [
        "ai_editor",
        "personality_test",
        "feet_scoring",
        "hands_scoring",
    ] {
        assert_eq!(
            access(&app, &user, feature).await,
            json!({"hasAccess": false, "reason": "requires_premium", "trialRemaining": 1})
        );
    }
}

async fn the_trial_is_used_once_under_eight_parallel_calls_and_across_browsers(backend: Backend) {
    let app = sandbox_app(backend).await;
    let user = sign_up(&app, "eager@example.com").await;
    let calls = (0..8).map(|_| activate(&app, &user, "personality_test"));
    let replies = futures::future::join_all(calls).await;
    let activated: Vec<_> = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert_eq!(activated.len(), 1, "{replies:?}");
    // The words say what the trial gives: one completed quiz.
    assert_eq!(
        activated[0].body["message"],
        "Trial activated! You can complete the personality test once."
    );
    for reply in replies.iter().filter(|r| r.status != StatusCode::OK) {
        reply.assert_error(StatusCode::CONFLICT, "trial_used");
    }
    assert_eq!(count(&app, "feature_trials").await, 1);
    assert_eq!(
        access(&app, &user, "personality_test").await,
        json!({"hasAccess": true, "reason": "trial_available", "trialRemaining": 0})
    );

    // Another browser: a new session of the same user.
    let other_browser = app
        .sign_in("eager@example.com", crate::harness::PASSWORD)
        .await;
    let other = Caller {
        token: access_token(&other_browser.body),
        id: user.id,
        email: user.email.clone(),
    };
    assert_ne!(other.token, user.token);
    activate(&app, &other, "personality_test")
        .await
        .assert_error(StatusCode::CONFLICT, "trial_used");
    // Each feature has its own trial, and each user their own.
    let hands = activate(&app, &other, "hands_scoring").await;
    assert_eq!(hands.status, StatusCode::OK);
    assert_eq!(
        hands.body["message"],
        "Trial activated! You can score one photo of your hands."
    );
    let editor = activate(&app, &other, "ai_editor").await;
    assert_eq!(
        editor.body["message"],
        "Trial activated! You can use the AI editor until you save one edited photo."
    );
    let someone = sign_up(&app, "someone@example.com").await;
    assert_eq!(
        activate(&app, &someone, "personality_test").await.status,
        StatusCode::OK
    );
}

fn access_token(tokens: &Value) -> String {
    crate::harness::access(tokens).to_owned()
}

async fn a_feet_trial_is_one_analysis_then_premium_is_needed(backend: Backend) {
    let app = sandbox_app(backend).await;
    let anonymous = analyse(&app, None, "feet").await;
    anonymous.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let user = sign_up(&app, "feet@example.com").await;
    let locked = analyse(&app, Some(&user), "feet").await;
    locked.assert_error(StatusCode::FORBIDDEN, "feature_locked");

    assert_eq!(
        activate(&app, &user, "feet_scoring").await.status,
        StatusCode::OK
    );
    // A photo the analysis refuses does not use the trial up.
    let bad = app
        .client
        .post(app.url("/api/v1/analyses/feet"))
        .bearer_auth(&user.token)
        .multipart(image_form(testdata("face/astronaut.png"), "a.png"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let scored = analyse(&app, Some(&user), "feet").await;
    assert_eq!(scored.status, StatusCode::OK, "{}", scored.body);
    assert!(scored.body["score"].is_number());

    let again = analyse(&app, Some(&user), "feet").await;
    again.assert_error(StatusCode::FORBIDDEN, "feature_locked");
    assert_eq!(
        access(&app, &user, "feet_scoring").await,
        json!({"hasAccess": false, "reason": "trial_exceeded", "trialRemaining": 0})
    );
    // The hands trial is separate, and not activated.
    analyse(&app, Some(&user), "hands")
        .await
        .assert_error(StatusCode::FORBIDDEN, "feature_locked");
}

async fn premium_members_score_feet_and_hands_without_limit(backend: Backend) {
    let app = sandbox_app(backend).await;
    let member = sign_up(&app, "member@example.com").await;
    make_premium(&app, &member).await;
    for kind in ["feet", "hands", "feet", "hands"] {
        let reply = analyse(&app, Some(&member), kind).await;
        assert_eq!(reply.status, StatusCode::OK, "{kind}: {}", reply.body);
    }
    assert_eq!(
        access(&app, &member, "hands_scoring").await,
        json!({"hasAccess": true, "reason": "granted", "trialRemaining": 1})
    );
    // Premium members need no trial: nothing is used.
    assert_eq!(
        activate(&app, &member, "hands_scoring").await.status,
        StatusCode::OK
    );
    assert_eq!(count(&app, "feature_trials").await, 0);
}

async fn the_ai_editor_gate_needs_premium_or_an_active_trial(backend: Backend) {
    let app = sandbox_app(backend).await;
    let edit_onto = |token: Option<String>, photo: Option<uuid::Uuid>| {
        let app = &app;
        async move {
            let mut request = app
                .client
                .post(app.url("/functions/v1/edit-photo"))
                .json(&json!({
                    "imageUrl": crate::edits::sample_data_url(),
                    "prompt": "Enhance",
                    "feature": "ai_editor",
                    "photoId": photo,
                }));
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            Reply::read(request.send().await.unwrap()).await
        }
    };
    let edit = |token: Option<String>| edit_onto(token, None);
    edit(None)
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let user = sign_up(&app, "editor@example.com").await;
    edit(Some(user.token.clone()))
        .await
        .assert_error(StatusCode::FORBIDDEN, "feature_locked");
    assert_eq!(
        activate(&app, &user, "ai_editor").await.status,
        StatusCode::OK
    );
    let trial = edit(Some(user.token.clone())).await;
    assert_eq!(trial.status, StatusCode::OK, "{}", trial.body);
    // The trial counts the free edits as usual.
    assert_eq!(trial.body["editsRemaining"], 4);

    // No clock ends it: an hour later the session goes on.
    sql(
        &app,
        "UPDATE feature_trials SET used_at = $1 WHERE user_id = $2",
        vec![
            (chrono::Utc::now() - chrono::Duration::minutes(61)).into(),
            user.id.into(),
        ],
    )
    .await;
    let later = edit(Some(user.token.clone())).await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.body);
    // The session ends when an edit is saved onto one of the user's photos.
    let photo = crate::harness::insert_photo(
        &app,
        user.id,
        7.0,
        chrono::Utc::now(),
        crate::harness::State::Private,
    )
    .await;
    let saved = edit_onto(Some(user.token.clone()), Some(photo)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    edit(Some(user.token.clone()))
        .await
        .assert_error(StatusCode::FORBIDDEN, "feature_locked");
    assert_eq!(
        access(&app, &user, "ai_editor").await["reason"],
        "trial_exceeded"
    );

    // Edits outside the editor keep their free edits, signed in or not.
    let plain = app
        .client
        .post(app.url("/functions/v1/edit-photo"))
        .json(&json!({"imageUrl": crate::edits::sample_data_url(), "prompt": "Enhance"}))
        .send()
        .await
        .unwrap();
    assert_eq!(plain.status(), StatusCode::OK);

    let member = sign_up(&app, "member@example.com").await;
    make_premium(&app, &member).await;
    let premium = edit(Some(member.token.clone())).await;
    assert_eq!(premium.status, StatusCode::OK, "{}", premium.body);
    assert_eq!(premium.body["editsRemaining"], Value::Null);
}
