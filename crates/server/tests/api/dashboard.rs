//! The user dashboard's stats: for the signed-in user only, from their own
//! photos (face scores only for best and average), free edits, latest
//! personality result, Premium and verification.

use chrono::{Duration, Utc};
use prettyscore_server::personality::entity as personality;
use reqwest::{Method, StatusCode};
use sea_orm::{ActiveModelTrait, Set};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::{
    Backend, Caller, TestApp, call, get, insert_private_photo, make_premium, on_both_databases,
    sandbox_app, sign_up, sql,
};

const DASHBOARD: &str = "/api/v1/dashboard";

async fn insert_personality(app: &TestApp, owner: &Caller, kind: &str, at: chrono::DateTime<Utc>) {
    personality::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(owner.id),
        quiz_type: Set("basic".into()),
        answers: Set(json!({})),
        score: Set(84),
        personality_type: Set(kind.into()),
        analysis: Set("…".into()),
        paid: Set(false),
        created_at: Set(at),
        payment_id: Set(None),
    }
    .insert(&app.db)
    .await
    .unwrap();
}

on_both_databases!(
    the_dashboard_is_for_its_user_alone,
    the_stats_come_from_the_users_own_data
);

async fn the_dashboard_is_for_its_user_alone(backend: Backend) {
    let app = sandbox_app(backend).await;
    let anonymous = call(&app, Method::GET, DASHBOARD, None, None).await;
    anonymous.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let forged = call(&app, Method::GET, DASHBOARD, Some("not-a-token"), None).await;
    forged.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");

    let fresh = sign_up(&app, "fresh@example.com").await;
    let summary = get(&app, DASHBOARD, &fresh).await.ok();
    assert_eq!(summary["photosSaved"], 0);
    assert_eq!(summary["bestFaceScore"], Value::Null);
    assert_eq!(summary["averageFaceScore"], Value::Null);
    assert_eq!(summary["personality"], Value::Null);
    assert_eq!(summary["premium"], false);
    assert_eq!(summary["verified"], false);
    assert_eq!(summary["freeEdits"]["unlimited"], false);
    assert_eq!(
        summary["freeEdits"]["remaining"],
        summary["freeEdits"]["limit"]
    );
}

async fn the_stats_come_from_the_users_own_data(backend: Backend) {
    let app = sandbox_app(backend).await;
    let ada = sign_up(&app, "ada@example.com").await;
    let bob = sign_up(&app, "bob@example.com").await;
    insert_private_photo(&app, ada.id, 8.0, "face").await;
    insert_private_photo(&app, ada.id, 9.5, "face").await;
    insert_private_photo(&app, ada.id, 9.9, "feet").await;
    insert_private_photo(&app, bob.id, 10.0, "face").await;
    insert_personality(&app, &ada, "The Leader", Utc::now() - Duration::days(2)).await;
    insert_personality(&app, &ada, "The Explorer", Utc::now()).await;
    sql(
        &app,
        "UPDATE profiles SET is_verified = $1 WHERE id = $2",
        vec![true.into(), ada.id.into()],
    )
    .await;
    make_premium(&app, &ada).await;

    let summary = get(&app, DASHBOARD, &ada).await.ok();
    assert_eq!(summary["photosSaved"], 3);
    assert_eq!(summary["facePhotos"], 2);
    assert_eq!(summary["bestFaceScore"], 9.5, "feet are not face scores");
    assert_eq!(
        summary["averageFaceScore"], 8.8,
        "(8.0 + 9.5) / 2, one decimal"
    );
    assert_eq!(
        summary["personality"]["personalityType"], "The Explorer",
        "the newest"
    );
    assert_eq!(summary["premium"], true);
    assert_eq!(summary["freeEdits"]["unlimited"], true);
    assert_eq!(summary["freeEdits"]["remaining"], Value::Null);
    assert_eq!(summary["verified"], true);

    let theirs = get(&app, DASHBOARD, &bob).await.ok();
    assert_eq!(theirs["photosSaved"], 1);
    assert_eq!(theirs["bestFaceScore"], 10.0);
    assert_eq!(theirs["personality"], Value::Null);
    assert_eq!(theirs["premium"], false);
    assert_eq!(theirs["verified"], false);
}
