//! The user dashboard's stats: for the signed-in user only, from their own
//! photos (face scores only for best and average), free edits, latest
//! personality result, Premium and verification.

use chrono::{Duration, Utc};
use prettyscore_server::personality::entity as personality;
use prettyscore_server::photos::entity as photos;
use reqwest::{Method, StatusCode};
use sea_orm::{ActiveModelTrait, Set};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::billing::features::make_premium;
use crate::billing::{Caller, assert_error, call, get, ok, sandbox_app, sign_up, sql};
use crate::helpers::{Backend, TestApp, on_both_databases};

const DASHBOARD: &str = "/api/v1/dashboard";

async fn insert_photo(app: &TestApp, owner: &Caller, score: f64, photo_type: &str) {
    let id = Uuid::now_v7();
    let now = Utc::now();
    photos::ActiveModel {
        id: Set(id),
        user_id: Set(owner.id),
        original_image_url: Set(format!("/media/photos/{}/{id}/original.jpg", owner.id)),
        edited_image_url: Set(None),
        score: Set(score),
        rating_label: Set("Gorgeous".into()),
        breakdown: Set(json!({})),
        photo_type: Set(photo_type.into()),
        public_listing: Set(false),
        featured: Set(false),
        is_verified: Set(false),
        display_name: Set(None),
        bio: Set(None),
        share_slug: Set(None),
        listing_status: Set(None),
        rejection_reason: Set(None),
        reviewed_by: Set(None),
        reviewed_at: Set(None),
        contest_month: Set(None),
        contest_entered_at: Set(None),
        attested_adult: Set(false),
        attested_original: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&app.db)
    .await
    .unwrap();
}

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
    assert_error(&anonymous, StatusCode::UNAUTHORIZED, "not_signed_in");
    let forged = call(&app, Method::GET, DASHBOARD, Some("not-a-token"), None).await;
    assert_error(&forged, StatusCode::UNAUTHORIZED, "not_signed_in");

    let fresh = sign_up(&app, "fresh@example.com").await;
    let summary = ok(get(&app, DASHBOARD, &fresh).await);
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
    insert_photo(&app, &ada, 8.0, "face").await;
    insert_photo(&app, &ada, 9.5, "face").await;
    insert_photo(&app, &ada, 9.9, "feet").await;
    insert_photo(&app, &bob, 10.0, "face").await;
    insert_personality(&app, &ada, "The Leader", Utc::now() - Duration::days(2)).await;
    insert_personality(&app, &ada, "The Explorer", Utc::now()).await;
    sql(
        &app,
        "UPDATE profiles SET is_verified = $1 WHERE id = $2",
        vec![true.into(), ada.id.into()],
    )
    .await;
    make_premium(&app, &ada).await;

    let summary = ok(get(&app, DASHBOARD, &ada).await);
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

    let theirs = ok(get(&app, DASHBOARD, &bob).await);
    assert_eq!(theirs["photosSaved"], 1);
    assert_eq!(theirs["bestFaceScore"], 10.0);
    assert_eq!(theirs["personality"], Value::Null);
    assert_eq!(theirs["premium"], false);
    assert_eq!(theirs["verified"], false);
}
