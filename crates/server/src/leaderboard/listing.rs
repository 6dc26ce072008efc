//! The public leaderboard: which photos are listed, their order, ranks and
//! fees, keyset pages, and their publicly cacheable images.
//!
//! Listed = `public_listing AND is_verified` (is_verified: approved by an
//! admin), not held by screening, and its owner an adult on file (issue 41:
//! an account from before the age question, or one an admin corrected to a
//! minor's date, is off the leaderboard until an adult date is on file; the
//! listing itself is kept). Order: score descending, then the older entry first, then the id
//! (only so that a page boundary is exact). Rank = 1 + the number of listed
//! entries with a higher score, or an equal score and an older created_at.

use std::collections::HashMap;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::rules::{Cursor, ranks_after};
use crate::billing::rules::contact_fee_dollars;
use crate::db::entities::{birth_dates, profiles};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{MaybeAuthUser, Path, Query};
use crate::http::shared_answer::SharedAnswer;
use crate::media;
use crate::photos::entity as photos;
use crate::values::birth::latest_adult_birth_date;

/// Entries per page unless asked otherwise, and the most a page holds.
pub const DEFAULT_PAGE_SIZE: u64 = 20;
pub const MAX_PAGE_SIZE: u64 = 100;

/// The listed photos.
pub fn listed() -> Condition {
    let today = chrono::Utc::now().date_naive();
    let adults = sea_orm::sea_query::Query::select()
        .column(birth_dates::Column::UserId)
        .from(birth_dates::Entity)
        .and_where(birth_dates::Column::DateOfBirth.lte(latest_adult_birth_date(today)))
        .to_owned();
    Condition::all()
        .add(photos::Column::PublicListing.eq(true))
        .add(photos::Column::IsVerified.eq(true))
        // Approval releases a hold; this keeps a held photo off even if not.
        .add(photos::Column::ScreeningHeld.eq(false))
        .add(photos::Column::UserId.in_subquery(adults))
}

/// Up to `limit` listed photos in leaderboard order, after `after` (a page's
/// last entry) if given, and only of one contest month if given. Each part
/// is one range scan of `photos_listed_order_idx` (or `photos_contest_idx`):
/// the rest of the cursor's score (same score, later (created_at, id)), then
/// the lower scores; no sort, no offset, however deep the page.
pub async fn listed_after(
    db: &impl ConnectionTrait,
    after: Option<&Cursor>,
    limit: u64,
    month: Option<&str>,
) -> Result<Vec<photos::Model>, DbErr> {
    let base = || {
        let mut condition = listed();
        if let Some(month) = month {
            condition = condition.add(photos::Column::ContestMonth.eq(month));
        }
        photos::Entity::find().filter(condition)
    };
    let in_order = |select: sea_orm::Select<photos::Entity>| {
        select
            .order_by_desc(photos::Column::Score)
            .order_by_asc(photos::Column::CreatedAt)
            .order_by_asc(photos::Column::Id)
    };
    let Some(after) = after else {
        return in_order(base()).limit(limit).all(db).await;
    };
    let rest_of_score = base().filter(photos::Column::Score.eq(after.score)).filter(
        Expr::tuple([
            Expr::col((photos::Entity, photos::Column::CreatedAt)),
            Expr::col((photos::Entity, photos::Column::Id)),
        ])
        .gt(Expr::tuple([
            Expr::val(after.created_at),
            Expr::val(after.id),
        ])),
    );
    let mut rows = in_order(rest_of_score).limit(limit).all(db).await?;
    let missing = limit.saturating_sub(rows.len() as u64);
    if missing > 0 {
        let lower = base().filter(photos::Column::Score.lt(after.score));
        rows.extend(in_order(lower).limit(missing).all(db).await?);
    }
    Ok(rows)
}

/// The current leaderboard rank of a photo, or None when it is not listed.
/// Two counts over index ranges: higher scores, and equal scores older.
pub async fn rank_of(db: &impl ConnectionTrait, photo_id: Uuid) -> Result<Option<u32>, DbErr> {
    let Some(photo) = photos::Entity::find_by_id(photo_id)
        .filter(listed())
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let higher = photos::Entity::find()
        .filter(listed())
        .filter(photos::Column::Score.gt(photo.score))
        .count(db)
        .await?;
    let older_equal = photos::Entity::find()
        .filter(listed())
        .filter(photos::Column::Score.eq(photo.score))
        .filter(photos::Column::CreatedAt.lt(photo.created_at))
        .count(db)
        .await?;
    Ok(Some(
        u32::try_from(1 + higher + older_equal).unwrap_or(u32::MAX),
    ))
}

/// Which owners carry the verification badge (`profiles.is_verified`).
pub async fn verified_owners(
    db: &impl ConnectionTrait,
    owners: impl IntoIterator<Item = Uuid>,
) -> Result<HashMap<Uuid, bool>, DbErr> {
    let ids: Vec<Uuid> = owners.into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(profiles::Entity::find()
        .filter(profiles::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|profile| (profile.id, profile.is_verified))
        .collect())
}

/// The public, cacheable address of a listed photo's image. The version
/// changes with each approval, so a cache never serves an older listing.
pub fn public_image_url(photo: &photos::Model) -> String {
    let version = photo
        .reviewed_at
        .unwrap_or(photo.created_at)
        .timestamp_millis();
    format!("/api/v1/leaderboard/entries/{}/image?v={version}", photo.id)
}

/// One entry of the public leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    pub photo_id: Uuid,
    /// 1 + the number of listed entries ahead of this one.
    pub rank: u32,
    /// Public and cacheable (listed photos only).
    pub image_url: String,
    pub display_name: String,
    pub bio: Option<String>,
    pub score: f64,
    pub rating_label: String,
    /// The owner's verification badge (profiles.is_verified).
    pub owner_verified: bool,
    /// Picked out by an admin.
    pub featured: bool,
    /// The contact fee in dollars at this rank: max(1000 - (rank-1)*50, 100).
    /// A contact request computes it again from the rank at that moment.
    pub contact_fee: u32,
    /// The caller's own entry (nobody contacts their own entry).
    pub is_own: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardPage {
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `after` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The `next_cursor` of the page before; absent for the first page.
    pub after: Option<String>,
    /// Entries per page, 1 to 100 (default 20).
    pub limit: Option<u64>,
}

/// Builds a page's entries from rows in order, with ranks from `after`.
pub(crate) async fn entries_of(
    state: &AppState,
    rows: Vec<photos::Model>,
    after: Option<&Cursor>,
    caller: Option<Uuid>,
) -> Result<(Vec<LeaderboardEntry>, Option<Cursor>), ApiError> {
    let badges = verified_owners(&state.db, rows.iter().map(|row| row.user_id)).await?;
    let keys: Vec<_> = rows.iter().map(|row| (row.score, row.created_at)).collect();
    let ranks = ranks_after(after, &keys);
    let last = rows
        .last()
        .zip(ranks.last())
        .map(|(row, &(rank, position))| Cursor {
            score: row.score,
            created_at: row.created_at,
            id: row.id,
            rank,
            position,
        });
    let entries = rows
        .into_iter()
        .zip(ranks)
        .map(|(row, (rank, _))| LeaderboardEntry {
            photo_id: row.id,
            rank,
            image_url: public_image_url(&row),
            display_name: row.display_name.clone().unwrap_or_default(),
            bio: row.bio.clone(),
            score: row.score,
            rating_label: row.rating_label.clone(),
            owner_verified: badges.get(&row.user_id).copied().unwrap_or(false),
            featured: row.featured,
            // At most $1000: always fits.
            contact_fee: u32::try_from(contact_fee_dollars(rank)).unwrap_or(u32::MAX),
            is_own: caller == Some(row.user_id),
        })
        .collect();
    Ok((entries, last))
}

/// A page of the public leaderboard: score descending, the older entry
/// first on ties. Open to everyone. The whole community reads it and it
/// changes only when an entry is listed, decided on or removed, so a page
/// is kept for a second ([`AppState::public_answers`]) and carries an
/// `ETag` (`If-None-Match` gets 304) and, for anonymous readers,
/// `Cache-Control: public, max-age=1`. A signed-in reader with an entry on
/// the page gets one made for them (their entry's `is_own`).
#[utoipa::path(get, path = "/leaderboard", tag = "leaderboard",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of listed entries", body = LeaderboardPage),
        (status = 304, description = "Not modified: the `If-None-Match` names this page"),
        (status = 400, description = "`invalid_query`: a malformed cursor or limit", body = ErrorBody),
    ))]
pub async fn leaderboard(
    State(state): State<AppState>,
    MaybeAuthUser(caller): MaybeAuthUser,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_PAGE_SIZE);
    if !(1..=MAX_PAGE_SIZE).contains(&limit) {
        return Err(ApiError::bad_request(
            crate::http::error::ErrorCode::InvalidQuery,
            "limit must be between 1 and 100",
        ));
    }
    let after = query.after.as_deref().map(Cursor::decode).transpose()?;
    let reader = caller.map(|caller| caller.user_id);
    let key = format!(
        "leaderboard?limit={limit}&after={}",
        query.after.as_deref().unwrap_or_default()
    );
    if let Some(page) = state.public_answers.get(&key)
        && page.serves(reader)
    {
        return Ok(page.respond(&headers, reader.is_none()));
    }
    let epoch = state.public_answers.epoch();
    // One more than asked tells whether another page follows.
    let mut rows = listed_after(&state.db, after.as_ref(), limit + 1, None).await?;
    let more = rows.len() as u64 > limit;
    rows.truncate(limit as usize);
    let owners: Vec<Uuid> = rows.iter().map(|row| row.user_id).collect();
    let (entries, last) = entries_of(&state, rows, after.as_ref(), None).await?;
    let mut page = LeaderboardPage {
        entries,
        next_cursor: last.filter(|_| more).map(|cursor| cursor.encode()),
    };
    let shared = SharedAnswer::json(&page, owners.clone()).map_err(ApiError::internal)?;
    state.public_answers.put(key, epoch, shared.clone());
    if shared.serves(reader) {
        return Ok(shared.respond(&headers, reader.is_none()));
    }
    for (entry, owner) in page.entries.iter_mut().zip(&owners) {
        entry.is_own = reader == Some(*owner);
    }
    let mine = SharedAnswer::json(&page, Vec::new()).map_err(ApiError::internal)?;
    Ok(mine.respond(&headers, false))
}

/// A listed photo's image, for everyone and for caches (public, 10 minutes).
/// Photos that are not listed are not found here: they stay private.
#[utoipa::path(get, path = "/leaderboard/entries/{id}/image", tag = "leaderboard",
    params(("id" = Uuid, Path, description = "The entry's photo id")),
    responses(
        (status = 200, description = "The image (JPEG or PNG)", content_type = "image/jpeg"),
        (status = 404, description = "No listed entry with this id", body = ErrorBody),
    ))]
pub async fn entry_image(
    State(state): State<AppState>,
    Path(id): Path<Uuid>,
) -> Result<Response, ApiError> {
    let not_listed = || ApiError::not_found("This entry is not on the leaderboard.");
    let photo = photos::Entity::find_by_id(id)
        .filter(listed())
        .one(&state.db)
        .await?
        .ok_or_else(not_listed)?;
    let key = media::key_of(&photo.original_image_url).ok_or_else(not_listed)?;
    let bytes = state
        .storage
        .get(key)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_listed)?;
    let content_type = if bytes.starts_with(b"\x89PNG") {
        "image/png"
    } else {
        "image/jpeg"
    };
    let mut response = Response::new(Body::from(bytes));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Short enough that an unlisted photo leaves shared caches soon.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=600"),
    );
    Ok(response)
}
