//! `prettyscore demo`: sample contestants and approved leaderboard entries for
//! a fresh database, so a newcomer sees a living leaderboard.
//!
//! The photos are public-domain and CC0 portraits from the project's test
//! data (`testdata/face` and `testdata/portraits`, with their sources and
//! licences in `testdata/README.md`; embedded in the binary at build time, so
//! the command works from any directory): one portrait per contestant, each a
//! different person, so a newcomer's first look at the community is not one
//! face many times. Each is really analysed: every score shown is one the
//! server computed from the stored image, and a portrait in which the
//! analysis finds no face is left out. Demo
//! users have no password (nobody can sign in as them) and an address under
//! `demo.prettyscore.invalid`, a domain that can never receive mail.
//!
//! It refuses a database that already has photos: demo data never lands on a
//! live site by accident, only when someone runs this command on an empty one.

use chrono::{Duration, Utc};
use sea_orm::sea_query::{Alias, Query};
use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, PaginatorTrait, Set};
use uuid::Uuid;

use super::moderation::ListingStatus;
use super::rules::month_of;
use crate::media;
use crate::photos::{entity as photos, storage_prefix};
use crate::storage::Storage;

/// The sample contestants' portraits, one person each.
pub static PORTRAITS: &[&[u8]] = &[
    include_bytes!("../../../../testdata/face/astronaut-baseline.jpg"),
    include_bytes!("../../../../testdata/portraits/grace-hopper.jpg"),
    include_bytes!("../../../../testdata/portraits/aksel-andersson.jpg"),
    include_bytes!("../../../../testdata/portraits/ew-dahlgren.jpg"),
    include_bytes!("../../../../testdata/portraits/antoine-claudet.jpg"),
    include_bytes!("../../../../testdata/portraits/alimehemet.jpg"),
];

/// Display names and bios of the sample contestants, in the order of
/// [`PORTRAITS`] (pseudonyms: the portraits' sitters are named only in
/// `testdata/README.md`).
const PEOPLE: &[(&str, &str)] = &[
    ("Nova", "Stargazer and weekend hiker."),
    ("Ada", "Engineer by day, painter by night."),
    ("Theo", "Chess, jazz and long walks."),
    ("Ravi", "Traveller, 42 countries so far."),
    ("Leo", "Film photographer. Coffee first."),
    ("Kai", "Collecting sunsets since 1999."),
];

/// What the command did.
#[derive(Debug)]
pub struct Seeded {
    pub users: usize,
    pub entries: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error(
        "the database already has photos; demo data goes only into a fresh database (nothing was changed)"
    )]
    NotFresh,
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// Fills a fresh database with sample users and approved entries.
pub async fn seed(db: &impl ConnectionTrait, storage: &Storage) -> Result<Seeded, DemoError> {
    let existing = photos::Entity::find()
        .count(db)
        .await
        .map_err(anyhow::Error::from)?;
    if existing > 0 {
        return Err(DemoError::NotFresh);
    }
    // Analysis is CPU work: off the async runtime.
    let analysed = tokio::task::spawn_blocking(|| {
        PORTRAITS
            .iter()
            .zip(PEOPLE)
            .filter_map(|(bytes, person)| {
                let stored = media::prepare_for_storage(bytes).ok()?;
                let analysis = prettyscore_analysis::analyze_face(&stored.bytes).ok()?;
                Some((stored, analysis, person))
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(anyhow::Error::from)?;

    let now = Utc::now();
    let month = month_of(now);
    let mut entries = 0;
    let count = analysed.len();
    for (index, (stored, analysis, (name, bio))) in analysed.into_iter().enumerate() {
        let user_id = Uuid::now_v7();
        let email = format!("{}@demo.prettyscore.invalid", name.to_lowercase());
        insert_user(db, user_id, &email, index % 3 == 0).await?;
        let photo_id = Uuid::now_v7();
        let key = format!(
            "{}original.{}",
            storage_prefix(user_id, photo_id),
            stored.extension
        );
        storage
            .put(&key, stored.bytes.into())
            .await
            .map_err(anyhow::Error::from)?;
        // Spread over the last days, so ties are broken by age as in real life.
        let created_at = now - Duration::hours(3 * (count - index) as i64);
        let breakdown = serde_json::to_value(analysis.breakdown).map_err(anyhow::Error::from)?;
        let in_contest = index % 2 == 0;
        photos::ActiveModel {
            id: Set(photo_id),
            user_id: Set(user_id),
            original_image_url: Set(media::media_path(&key)),
            edited_image_url: Set(None),
            score: Set(analysis.score),
            rating_label: Set(analysis.rating_label.to_owned()),
            breakdown: Set(breakdown),
            photo_type: Set("face".to_owned()),
            public_listing: Set(true),
            featured: Set(index == 0),
            is_verified: Set(true),
            display_name: Set(Some((*name).to_owned())),
            bio: Set(Some((*bio).to_owned())),
            share_slug: Set(None),
            share_expires_at: Set(None),
            listing_status: Set(Some(ListingStatus::Approved.into())),
            rejection_reason: Set(None),
            reviewed_by: Set(None),
            reviewed_at: Set(Some(created_at)),
            contest_month: Set(in_contest.then(|| month.clone())),
            contest_entered_at: Set(in_contest.then_some(created_at)),
            attested_adult: Set(in_contest),
            attested_original: Set(in_contest),
            screening: Set(None),
            screening_held: Set(false),
            created_at: Set(created_at),
            updated_at: Set(created_at),
        }
        .insert(db)
        .await
        .map_err(anyhow::Error::from)?;
        entries += 1;
    }
    Ok(Seeded {
        users: entries,
        entries,
    })
}

async fn insert_user(
    db: &impl ConnectionTrait,
    id: Uuid,
    email: &str,
    verified: bool,
) -> Result<(), DemoError> {
    let user = Query::insert()
        .into_table(Alias::new("users"))
        .columns([Alias::new("id"), Alias::new("email")])
        .values_panic([id.into(), email.into()])
        .to_owned();
    db.execute(&user).await.map_err(anyhow::Error::from)?;
    let profile = Query::insert()
        .into_table(Alias::new("profiles"))
        .columns([
            Alias::new("id"),
            Alias::new("email"),
            Alias::new("is_verified"),
        ])
        .values_panic([id.into(), email.into(), verified.into()])
        .to_owned();
    db.execute(&profile).await.map_err(anyhow::Error::from)?;
    // The leaderboard lists adults on file only; the sample people are.
    let born = Query::insert()
        .into_table(Alias::new("birth_dates"))
        .columns([
            Alias::new("id"),
            Alias::new("user_id"),
            Alias::new("date_of_birth"),
        ])
        .values_panic([
            Uuid::now_v7().into(),
            id.into(),
            chrono::NaiveDate::from_ymd_opt(1995, 6, 1)
                .expect("a real day")
                .into(),
        ])
        .to_owned();
    db.execute(&born).await.map_err(anyhow::Error::from)?;
    Ok(())
}
