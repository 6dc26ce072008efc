//! The monthly ranking contest: a user enters one of their photos with an
//! attestation (18 or older, an original photo of themselves); it goes on the
//! leaderboard once approved. This month's standings are the listed entries
//! entered this month, in leaderboard order. At month end `prettyscore contest
//! freeze --month YYYY-MM` copies the top 10 into `contest_winners`, once.

use axum::extract::State;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    Set, TransactionSession, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::listing::{LeaderboardEntry, entries_of, listed_after};
use super::moderation::ListingStatus;
use super::rules::{month_end, month_of, parse_month};
use crate::http::AppState;
use crate::http::error::{ApiError, CommunityErrors, ErrorBody, SignedInErrors};
use crate::http::extract::{CommunityMember, Json, MaybeAuthUser, Query};
use crate::photos::entity as photos;
use crate::photos::rules::{DisplayName, parse_bio};
use crate::photos::screening;

/// The spec's prize and the number of monthly winners.
pub const PRIZE_DOLLARS: u32 = 50_000;
pub const WINNERS: u64 = 10;
/// How many of a month's entries the standings show.
const STANDINGS: u64 = 50;

pub mod winners {
    //! `contest_winners`: a month's frozen top 10.
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "contest_winners")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub month: String,
        pub place: i32,
        pub photo_id: Option<Uuid>,
        pub user_id: Option<Uuid>,
        pub display_name: String,
        pub score: f64,
        pub frozen_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContestSubmission {
    /// One of the caller's photos.
    pub photo_id: Uuid,
    /// Needed when the photo has no display name yet; otherwise it replaces it.
    pub display_name: Option<String>,
    pub bio: Option<String>,
    /// The entrant is 18 or older.
    pub attest_adult: bool,
    /// The photo is an original photo of the entrant.
    pub attest_original: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContestEntry {
    pub photo_id: Uuid,
    /// `YYYY-MM`.
    pub contest_month: String,
    /// `pending` until an admin approves it, or `approved` if it already was.
    pub listing_status: String,
    /// The nudity check flagged the photo: it waits for an admin like any
    /// pending entry, and is not shown until one approves it.
    pub held_for_review: bool,
    pub message: String,
}

/// Enters one of the caller's photos in this month's contest. The photo is
/// put forward for the leaderboard (public_listing) and waits for an admin,
/// unless it is approved already with this same name and bio: a change to
/// either sends it back to review (off the leaderboard until approved). The
/// photo is screened first; a flagged one is held for review.
#[utoipa::path(post, path = "/contest/entries", tag = "leaderboard",
    request_body = ContestSubmission,
    responses(
        CommunityErrors,
        (status = 200, description = "Entered", body = ContestEntry),
        SignedInErrors,
        (status = 404, description = "No such photo of this user", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the attestation or a display name is missing", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn submit(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Json(body): Json<ContestSubmission>,
) -> Result<Json<ContestEntry>, ApiError> {
    if !(body.attest_adult && body.attest_original) {
        return Err(ApiError::invalid(
            "Please confirm that you are 18 or older and that the photo is an original photo of yourself",
        ));
    }
    let photo = photos::Entity::find_by_id(body.photo_id)
        .filter(photos::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Photo not found"))?;
    let original = photo.original_image_url.clone();
    let photo = screening::screen(&state, photo, &original).await?;
    let held = photo.screening_held;
    let display_name = match body.display_name.as_deref() {
        Some(raw) => {
            DisplayName::parse_unreserved(raw, &state.config.community.reserved_name_words)?
                .into_inner()
        }
        None => match photo.display_name.clone() {
            Some(name) => name,
            None => DisplayName::parse("")?.into_inner(),
        },
    };
    let bio = match body.bio.as_deref() {
        Some(raw) => parse_bio(Some(raw))?,
        None => photo.bio.clone(),
    };
    let now = Utc::now();
    let month = month_of(now);
    // What an admin approved is the photo with its text: a new name or bio
    // goes back to review like a new entry (issue 25: an approved entry's
    // owner could change both, live at once). The same text stays approved.
    let same_text =
        photo.display_name.as_deref() == Some(display_name.as_str()) && photo.bio == bio;
    let approved = same_text
        && !held
        && photo.is_verified
        && photo.public_listing
        && photo.listing_status.as_deref() == Some(ListingStatus::Approved.as_str());
    let status = if approved {
        ListingStatus::Approved
    } else {
        ListingStatus::Pending
    };
    let entered_at = match &photo.contest_month {
        Some(m) if *m == month => photo.contest_entered_at.unwrap_or(now),
        _ => now,
    };
    let mut change: photos::ActiveModel = photo.into();
    change.public_listing = Set(true);
    change.is_verified = Set(approved);
    change.listing_status = Set(Some(status.into()));
    if !approved {
        change.rejection_reason = Set(None);
    }
    change.display_name = Set(Some(display_name));
    change.bio = Set(bio);
    change.contest_month = Set(Some(month.clone()));
    change.contest_entered_at = Set(Some(entered_at));
    change.attested_adult = Set(true);
    change.attested_original = Set(true);
    change.updated_at = Set(now);
    let row = change.update(&state.db).await?;
    Ok(Json(ContestEntry {
        photo_id: row.id,
        contest_month: month,
        listing_status: status.into(),
        held_for_review: held,
        message: if held {
            screening::HELD_MESSAGE.to_owned()
        } else if approved {
            "Your photo is in this month's ranking!".to_owned()
        } else {
            "Your photo was submitted! Admins will verify your entry soon.".to_owned()
        },
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// `YYYY-MM`; this month when absent.
    pub month: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Winner {
    pub place: u32,
    pub photo_id: Option<Uuid>,
    pub display_name: String,
    pub score: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Standings {
    /// `YYYY-MM`.
    pub month: String,
    /// When the month's contest closes (the first instant of the next month, UTC).
    pub ends_at: DateTime<Utc>,
    /// Seconds until then; 0 once closed.
    pub seconds_left: i64,
    pub prize_dollars: u32,
    pub winners_count: u64,
    /// The month's listed entries in leaderboard order (top 50); `rank` is
    /// the place in this month's contest, `contact_fee` the fee at that place.
    pub entries: Vec<LeaderboardEntry>,
    /// The frozen top 10, once the month is frozen.
    pub winners: Vec<Winner>,
}

/// A month's standings and the time left.
#[utoipa::path(get, path = "/contest/standings", tag = "leaderboard",
    params(StandingsQuery),
    responses(
        (status = 200, description = "The standings", body = Standings),
        (status = 400, description = "`invalid_query`: not a YYYY-MM month", body = ErrorBody),
    ))]
pub async fn standings(
    State(state): State<AppState>,
    MaybeAuthUser(caller): MaybeAuthUser,
    Query(query): Query<StandingsQuery>,
) -> Result<Json<Standings>, ApiError> {
    let now = Utc::now();
    let month = match query.month {
        Some(raw) => {
            let (year, month) = parse_month(&raw)?;
            format!("{year:04}-{month:02}")
        }
        None => month_of(now),
    };
    let ends_at = month_end(&month)?;
    let rows = listed_after(&state.db, None, STANDINGS, Some(&month)).await?;
    let (entries, _) = entries_of(&state, rows, None, caller.map(|c| c.user_id)).await?;
    let winners = frozen_winners(&state.db, &month)
        .await?
        .into_iter()
        .map(|w| Winner {
            place: u32::try_from(w.place).unwrap_or(0),
            photo_id: w.photo_id,
            display_name: w.display_name,
            score: w.score,
        })
        .collect();
    Ok(Json(Standings {
        seconds_left: (ends_at - now).num_seconds().max(0),
        month,
        ends_at,
        prize_dollars: PRIZE_DOLLARS,
        winners_count: WINNERS,
        entries,
        winners,
    }))
}

async fn frozen_winners(
    db: &impl ConnectionTrait,
    month: &str,
) -> Result<Vec<winners::Model>, DbErr> {
    winners::Entity::find()
        .filter(winners::Column::Month.eq(month))
        .order_by_asc(winners::Column::Place)
        .all(db)
        .await
}

/// What `freeze` did.
#[derive(Debug)]
pub enum Freeze {
    /// The month's top 10 (or fewer) are now its winners.
    Frozen(Vec<winners::Model>),
    /// The month was frozen before; its winners stay as they were.
    AlreadyFrozen(Vec<winners::Model>),
}

#[derive(Debug, thiserror::Error)]
pub enum FreezeError {
    #[error("{0}")]
    Month(String),
    #[error("the contest of {month} is still running until {ends_at}; freeze it after that")]
    StillRunning {
        month: String,
        ends_at: DateTime<Utc>,
    },
    #[error(transparent)]
    Database(#[from] DbErr),
}

/// Freezes a month's top 10 (listed entries of that month, in leaderboard
/// order) as its winners, once: a second run, or a concurrent one, leaves the
/// first result as it is. A month can be frozen only after it has ended.
pub async fn freeze(
    db: &(impl ConnectionTrait + TransactionTrait),
    month: &str,
    now: DateTime<Utc>,
) -> Result<Freeze, FreezeError> {
    let (year, number) =
        parse_month(month).map_err(|err| FreezeError::Month(err.message().to_owned()))?;
    let month = format!("{year:04}-{number:02}");
    let ends_at = month_end(&month).map_err(|err| FreezeError::Month(err.message().to_owned()))?;
    if now < ends_at {
        return Err(FreezeError::StillRunning { month, ends_at });
    }
    let existing = frozen_winners(db, &month).await?;
    if !existing.is_empty() {
        return Ok(Freeze::AlreadyFrozen(existing));
    }
    let top = listed_after(db, None, WINNERS, Some(&month)).await?;
    let txn = db.begin().await?;
    let mut inserted = 0;
    for (place, photo) in top.iter().enumerate() {
        let row = winners::ActiveModel {
            id: Set(Uuid::now_v7()),
            month: Set(month.clone()),
            place: Set(i32::try_from(place + 1).unwrap_or(i32::MAX)),
            photo_id: Set(Some(photo.id)),
            user_id: Set(Some(photo.user_id)),
            display_name: Set(photo.display_name.clone().unwrap_or_default()),
            score: Set(photo.score),
            frozen_at: Set(now),
        };
        let result = winners::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([winners::Column::Month, winners::Column::Place])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&txn)
            .await?;
        inserted += result;
    }
    txn.commit().await?;
    let winners = frozen_winners(db, &month).await?;
    if inserted < top.len() as u64 {
        // Another run froze the month at the same moment: its result stands.
        return Ok(Freeze::AlreadyFrozen(winners));
    }
    Ok(Freeze::Frozen(winners))
}
