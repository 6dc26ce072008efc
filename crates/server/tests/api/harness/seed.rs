//! Seeding: users (signed up through the auth API, or bare rows), admins,
//! Premium members, contestants' photos (rows in any moderation state, or
//! uploads of the sample images in `testdata/`) and saved personality
//! results.

use chrono::{DateTime, Utc};
use prettyscore_server::admin::roles::grant_admin;
use prettyscore_server::photos::entity as photos;
use reqwest::StatusCode;
use sea_orm::sea_query::{Alias, Query};
use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, Set};
use serde_json::{Value, json};
use uuid::Uuid;

use super::app::{TestApp, sql};
use super::client::{Reply, access, claims};

/// Every test user's password.
pub const PASSWORD: &str = "correct-horse-battery";

/// The date of birth test users declare: an adult's.
pub const ADULT_BIRTH_DATE: &str = "1990-05-17";

/// A signed-in user.
pub struct Caller {
    pub token: String,
    pub id: Uuid,
    pub email: String,
}

/// Signs up with a display name (the address's local part), as anyone who
/// writes to a contestant needs one; [`sign_up_unnamed`] for a user without.
pub async fn sign_up(app: &TestApp, email: &str) -> Caller {
    let name = email.split('@').next().unwrap_or(email);
    caller(app.sign_up_named(email, name).await, email)
}

/// Signs up with `display_name` (for an address whose local part is a word
/// no display name may contain, such as `admin@`).
pub async fn sign_up_named_caller(app: &TestApp, email: &str, display_name: &str) -> Caller {
    caller(app.sign_up_named(email, display_name).await, email)
}

/// Signs up without a display name.
pub async fn sign_up_unnamed(app: &TestApp, email: &str) -> Caller {
    caller(app.sign_up(email).await, email)
}

fn caller(tokens: Value, email: &str) -> Caller {
    let token = access(&tokens).to_owned();
    let id = claims(&token)["sub"].as_str().unwrap().parse().unwrap();
    Caller {
        token,
        id,
        email: email.to_owned(),
    }
}

/// `admin@example.com`, signed up (named "Boss": a display name may not
/// say "admin") and granted the admin role.
pub async fn admin(app: &TestApp) -> Caller {
    let admin = caller(
        app.sign_up_named("admin@example.com", "Boss").await,
        "admin@example.com",
    );
    grant_admin(&app.db, "admin@example.com").await.unwrap();
    admin
}

/// A user row without a password (photo owners in bulk), at
/// `<id>@example.com`.
pub async fn insert_user(app: &TestApp) -> Uuid {
    let id = Uuid::new_v4();
    insert_user_with_id(app, id, &format!("{id}@example.com")).await;
    id
}

/// A user row without a password at `email`.
pub async fn insert_user_at(app: &TestApp, email: &str) -> Uuid {
    let id = Uuid::new_v4();
    insert_user_with_id(app, id, email).await;
    id
}

/// A confirmed user row of an adult who accepted the terms in force, so it
/// may list photos and receive contact requests (issue 41).
async fn insert_user_with_id(app: &TestApp, id: Uuid, email: &str) {
    let insert = Query::insert()
        .into_table(Alias::new("users"))
        .columns([
            Alias::new("id"),
            Alias::new("email"),
            Alias::new("email_confirmed_at"),
        ])
        .values_panic([id.into(), email.into(), Utc::now().into()])
        .to_owned();
    app.db.execute(&insert).await.unwrap();
    make_member(app, id).await;
}

/// Puts an adult date of birth and an acceptance of the terms in force on
/// file for `user` (a bare row or an API sign-up without them).
pub async fn make_member(app: &TestApp, user: Uuid) {
    let born = chrono::NaiveDate::parse_from_str(ADULT_BIRTH_DATE, "%Y-%m-%d").unwrap();
    sql(
        app,
        "INSERT INTO birth_dates (id, user_id, date_of_birth, source) VALUES ($1, $2, $3, 'self')",
        vec![Uuid::now_v7().into(), user.into(), born.into()],
    )
    .await;
    sql(
        app,
        "INSERT INTO terms_acceptances (id, user_id, version) VALUES ($1, $2, $3)",
        vec![
            Uuid::now_v7().into(),
            user.into(),
            app.config.community.terms_version.clone().into(),
        ],
    )
    .await;
}

/// A signed-in Premium member (`member@example.com`), as feet and hands
/// scoring need; their access token.
pub async fn premium_member(app: &TestApp) -> String {
    let member = sign_up(app, "member@example.com").await;
    make_premium(app, &member).await;
    member.token
}

/// Makes `user` a Premium member for 30 days.
pub async fn make_premium(app: &TestApp, user: &Caller) {
    make_premium_until(app, user.id, Some(Utc::now() + chrono::Duration::days(30))).await;
}

/// Makes `user` a Premium member until `expires` (`None`: for good).
pub async fn make_premium_until(app: &TestApp, user: Uuid, expires: Option<DateTime<Utc>>) {
    sql(
        app,
        "INSERT INTO subscriptions (id, user_id, status, plan_type, provider, expires_at) \
         VALUES ($1, $2, 'active', 'premium_editing', 'sandbox', $3)",
        vec![Uuid::new_v4().into(), user.into(), expires.into()],
    )
    .await;
}

/// Where a photo row stands on the leaderboard.
#[derive(Clone, Copy)]
pub enum State {
    Listed,
    Pending,
    /// is_verified but public_listing false: not listed either.
    Private,
}

/// A face photo row of `owner` with `score`, made at `created_at`, in
/// `state`; its id.
pub async fn insert_photo(
    app: &TestApp,
    owner: Uuid,
    score: f64,
    created_at: DateTime<Utc>,
    state: State,
) -> Uuid {
    let (public_listing, is_verified, status) = match state {
        State::Listed => (true, true, Some("approved")),
        State::Pending => (true, false, Some("pending")),
        State::Private => (false, true, None),
    };
    let mut row = photo_row(owner, score, created_at);
    row.public_listing = Set(public_listing);
    row.is_verified = Set(is_verified);
    row.display_name = Set(Some(format!("Entry {score}")));
    row.listing_status = Set(status.map(str::to_owned));
    row.insert(&app.db).await.unwrap().id
}

/// Writes a test image (from `testdata/`) where a seeded photo row says its
/// original is stored: seeded rows have no file, and what reads the stored image
/// (the nudity check before an entry or share goes public) needs one.
pub async fn store_original(app: &TestApp, photo: Uuid, testdata_file: &str) {
    let row = photos::Entity::find_by_id(photo)
        .one(&app.db)
        .await
        .unwrap()
        .expect("a seeded photo");
    let key = row.original_image_url.strip_prefix("/media/").unwrap();
    let path = app.config.data_dir.join("media").join(key);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, testdata(testdata_file)).unwrap();
}

/// A private photo row of `owner` with `score` of `photo_type`, made now,
/// off the leaderboard and without a display name.
pub async fn insert_private_photo(app: &TestApp, owner: Uuid, score: f64, photo_type: &str) {
    let mut row = photo_row(owner, score, Utc::now());
    row.photo_type = Set(photo_type.into());
    row.insert(&app.db).await.unwrap();
}

/// A face photo row, private and unverified, without a display name.
fn photo_row(owner: Uuid, score: f64, created_at: DateTime<Utc>) -> photos::ActiveModel {
    let id = Uuid::now_v7();
    photos::ActiveModel {
        id: Set(id),
        user_id: Set(owner),
        original_image_url: Set(format!("/media/photos/{owner}/{id}/original.jpg")),
        edited_image_url: Set(None),
        score: Set(score),
        rating_label: Set("Gorgeous".into()),
        breakdown: Set(json!({})),
        photo_type: Set("face".into()),
        public_listing: Set(false),
        featured: Set(false),
        is_verified: Set(false),
        display_name: Set(None),
        bio: Set(None),
        share_slug: Set(None),
        share_expires_at: Set(None),
        listing_status: Set(None),
        rejection_reason: Set(None),
        reviewed_by: Set(None),
        reviewed_at: Set(None),
        contest_month: Set(None),
        contest_entered_at: Set(None),
        attested_adult: Set(false),
        attested_original: Set(false),
        screening: Set(None),
        screening_held: Set(false),
        created_at: Set(created_at),
        updated_at: Set(created_at),
    }
}

/// A sample image from the project's `testdata/`, e.g. `face/astronaut.png`.
pub fn testdata(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// A multipart form with `bytes` as the `image` field.
pub fn image_form(bytes: Vec<u8>, file_name: &str) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new().part(
        "image",
        reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_owned()),
    )
}

/// The test portrait (`face/astronaut.png`) as an upload.
pub fn astronaut() -> reqwest::multipart::Form {
    image_form(testdata("face/astronaut.png"), "astronaut.png")
}

/// Saves a photo (`POST /api/v1/photos`) as `token`'s user; the reply.
pub async fn save_photo(app: &TestApp, token: &str, form: reqwest::multipart::Form) -> Reply {
    let request = app
        .client
        .post(app.url("/api/v1/photos"))
        .bearer_auth(token)
        .multipart(form);
    app.send(request).await
}

/// [`save_photo`], which must succeed; the saved photo.
pub async fn saved_photo(app: &TestApp, token: &str, form: reqwest::multipart::Form) -> Value {
    let reply = save_photo(app, token, form).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body
}

/// Saves a basic personality result for `caller` (answers picked by
/// `seed`), as a finished quiz does; its id.
pub async fn personality_result(app: &TestApp, caller: &Caller, seed: usize) -> Uuid {
    use prettyscore_server::personality::{entity, quiz::QUESTIONS};
    let answers: std::collections::BTreeMap<String, String> = (0..20)
        .map(|i| {
            (
                i.to_string(),
                QUESTIONS[i].options[(i + seed) % 3].value.to_owned(),
            )
        })
        .collect();
    entity::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(caller.id),
        quiz_type: Set("basic".to_owned()),
        answers: Set(json!(answers)),
        score: Set(75),
        personality_type: Set("Test".to_owned()),
        analysis: Set("A basic analysis.".to_owned()),
        paid: Set(false),
        created_at: Set(Utc::now()),
        payment_id: Set(None),
    }
    .insert(&app.db)
    .await
    .unwrap()
    .id
}
