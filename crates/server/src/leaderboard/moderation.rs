//! Moderation: entries wait as `pending` until an admin approves (listed:
//! is_verified set) or rejects them with a reason the owner sees; approved
//! entries can be featured or unlisted; anyone signed in can report an entry
//! (into the one queue of the reports domain).
//! Every state change is one conditional UPDATE, so two admins (or a retried
//! request) cannot apply a decision twice, and each change goes to the audit log.
//! Photos the nudity check holds (`photos::screening`) wait here too, with the
//! classifier's scores: approving an entry releases its hold, and a held photo
//! that is only shared (no entry) is released on its own.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::listing::listed;
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{AdminErrors, ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AdminAction, AdminUser, AuthUser, ClientInfo, Json, Path, Query};
use crate::media;
use crate::photos::entity as photos;
use crate::photos::screening::{self, Screening};
use crate::values::message::reason as parse_reason;

pub use crate::photos::entity::ListingStatus;

/// An entry as the moderators see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ModerationEntry {
    pub photo_id: Uuid,
    /// A signed URL (pending photos are private), valid for an hour.
    pub image_url: String,
    pub score: f64,
    pub rating_label: String,
    pub display_name: Option<String>,
    pub bio: Option<String>,
    pub owner_id: Uuid,
    pub owner_email: Option<String>,
    /// `pending`, `approved`, `rejected` or `unlisted`; empty for a photo that
    /// is only shared (held by the nudity check, never put forward).
    pub status: String,
    pub rejection_reason: Option<String>,
    pub featured: bool,
    /// Listed on the public leaderboard now.
    pub listed: bool,
    pub contest_month: Option<String>,
    pub attested_adult: bool,
    pub attested_original: bool,
    /// Reports about this entry not yet resolved.
    pub open_reports: u64,
    /// The nudity check's scores, once the photo was screened; `held` while it
    /// waits for an admin.
    pub screening: Option<Screening>,
    pub created_at: DateTime<Utc>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

async fn owner_emails(
    state: &AppState,
    owners: impl IntoIterator<Item = Uuid>,
) -> Result<HashMap<Uuid, Option<String>>, ApiError> {
    let ids: Vec<Uuid> = owners.into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(users::Entity::find()
        .filter(users::Column::Id.is_in(ids))
        .all(&state.db)
        .await?
        .into_iter()
        .map(|user| (user.id, user.email))
        .collect())
}

async fn moderation_entries(
    state: &AppState,
    rows: Vec<photos::Model>,
) -> Result<Vec<ModerationEntry>, ApiError> {
    let emails = owner_emails(state, rows.iter().map(|row| row.user_id)).await?;
    let open = crate::reports::open_counts(
        &state.db,
        "photo",
        rows.iter().map(|row| row.id.to_string()),
    )
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| ModerationEntry {
            screening: screening::view(state, &row),
            photo_id: row.id,
            image_url: media::signed_url(state, &row.original_image_url),
            score: row.score,
            rating_label: row.rating_label,
            display_name: row.display_name,
            bio: row.bio,
            owner_id: row.user_id,
            owner_email: emails.get(&row.user_id).cloned().flatten(),
            status: row.listing_status.unwrap_or_default(),
            rejection_reason: row.rejection_reason,
            featured: row.featured,
            listed: row.public_listing && row.is_verified,
            contest_month: row.contest_month,
            attested_adult: row.attested_adult,
            attested_original: row.attested_original,
            open_reports: open.get(&row.id.to_string()).copied().unwrap_or(0),
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        })
        .collect())
}

pub(crate) async fn moderation_entry(
    state: &AppState,
    id: Uuid,
) -> Result<ModerationEntry, ApiError> {
    let row = photos::Entity::find_by_id(id)
        .filter(
            Condition::any()
                .add(photos::Column::ListingStatus.is_not_null())
                .add(photos::Column::Screening.is_not_null()),
        )
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Leaderboard entry not found"))?;
    Ok(moderation_entries(state, vec![row])
        .await?
        .pop()
        .expect("one row in, one entry out"))
}

#[derive(Debug, Default, Clone, Copy, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum StatusFilter {
    #[default]
    Pending,
    Approved,
    Rejected,
    Unlisted,
    /// Held by the nudity check, whatever the listing state (shares too).
    Held,
}

impl StatusFilter {
    fn status(self) -> Option<ListingStatus> {
        match self {
            Self::Pending => Some(ListingStatus::Pending),
            Self::Approved => Some(ListingStatus::Approved),
            Self::Rejected => Some(ListingStatus::Rejected),
            Self::Unlisted => Some(ListingStatus::Unlisted),
            Self::Held => None,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntriesQuery {
    /// `pending` (default, oldest first), `approved`, `rejected`, `unlisted`,
    /// or `held` (held by the nudity check, oldest first).
    #[serde(default)]
    #[param(inline)]
    pub status: StatusFilter,
}

/// The most entries the admin page shows at once.
const ADMIN_PAGE: u64 = 200;

/// Leaderboard entries by moderation state, for the admin page.
#[utoipa::path(get, path = "/admin/leaderboard/entries", tag = "admin",
    params(EntriesQuery),
    responses(
        (status = 200, description = "Entries in that state", body = Vec<ModerationEntry>),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_entries(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<EntriesQuery>,
) -> Result<Json<Vec<ModerationEntry>>, ApiError> {
    let select = photos::Entity::find().filter(match query.status.status() {
        Some(status) => photos::Column::ListingStatus.eq(status.as_str()),
        None => photos::Column::ScreeningHeld.eq(true),
    });
    let select = if matches!(query.status, StatusFilter::Pending | StatusFilter::Held) {
        select.order_by_asc(photos::Column::CreatedAt)
    } else {
        select
            .order_by_desc(photos::Column::ReviewedAt)
            .order_by_desc(photos::Column::CreatedAt)
    };
    let rows = select.limit(ADMIN_PAGE).all(&state.db).await?;
    Ok(Json(moderation_entries(&state, rows).await?))
}

/// An admin's decision, applied only from the states listed in `from`.
async fn decide(
    state: &AppState,
    admin: &AdminAction,
    id: Uuid,
    from: &[ListingStatus],
    to: ListingStatus,
    reason: Option<String>,
    action: &str,
) -> Result<bool, ApiError> {
    let now = Utc::now();
    let listed = to == ListingStatus::Approved;
    let before = photos::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .and_then(|row| row.listing_status);
    let mut update = photos::Entity::update_many()
        .col_expr(photos::Column::ListingStatus, Expr::value(to.as_str()))
        .col_expr(photos::Column::IsVerified, Expr::value(listed))
        .col_expr(photos::Column::ReviewedBy, Expr::value(admin.user_id()))
        .col_expr(photos::Column::ReviewedAt, Expr::value(now))
        .col_expr(photos::Column::UpdatedAt, Expr::value(now))
        .col_expr(photos::Column::RejectionReason, Expr::value(reason.clone()))
        // A rejected or unlisted photo is no longer put forward; approving
        // one of them lists it again.
        .col_expr(photos::Column::PublicListing, Expr::value(listed));
    if listed {
        // The admin approved the photo as it is: a screening hold ends too.
        update = update.col_expr(photos::Column::ScreeningHeld, Expr::value(false));
    } else {
        // Taken down by moderation: the photo's share link dies with its
        // listing (issue 45), so `/s/<slug>` and its card answer 404 at once.
        update = update
            .col_expr(photos::Column::Featured, Expr::value(false))
            .col_expr(photos::Column::ShareSlug, Expr::value(None::<String>))
            .col_expr(
                photos::Column::ShareExpiresAt,
                Expr::value(None::<chrono::DateTime<Utc>>),
            );
    }
    let result = update
        .filter(photos::Column::Id.eq(id))
        .filter(photos::Column::ListingStatus.is_in(ListingStatus::stored(from)))
        .exec(&state.db)
        .await?;
    let changed = result.rows_affected > 0;
    if changed {
        admin
            .record(
                &state.db,
                action,
                json!({ "photo_id": id, "reason": reason, "before": before, "after": to.as_str() }),
            )
            .await;
    }
    Ok(changed)
}

fn not_allowed(entry: &ModerationEntry, what: &str) -> ApiError {
    ApiError::conflict(
        ErrorCode::Conflict,
        format!("This entry is {}; it cannot be {what}.", entry.status),
    )
}

/// Approves an entry: it is listed (is_verified) from now on. Approving an
/// approved entry changes nothing.
#[utoipa::path(post, path = "/admin/leaderboard/entries/{id}/approve", tag = "admin",
    params(("id" = Uuid, Path, description = "The entry's photo id")),
    responses(
        (status = 200, description = "The entry, approved", body = ModerationEntry),
        AdminErrors,
        (status = 404, description = "No such entry", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn approve(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
) -> Result<Json<ModerationEntry>, ApiError> {
    decide(
        &state,
        &admin,
        id,
        &[
            ListingStatus::Pending,
            ListingStatus::Rejected,
            ListingStatus::Unlisted,
        ],
        ListingStatus::Approved,
        None,
        "leaderboard_entry_approved",
    )
    .await?;
    Ok(Json(moderation_entry(&state, id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReasonBody {
    /// Shown to the owner; 1 to 500 characters.
    pub reason: Option<String>,
}

/// Rejects a pending entry with a reason shown to its owner.
#[utoipa::path(post, path = "/admin/leaderboard/entries/{id}/reject", tag = "admin",
    params(("id" = Uuid, Path, description = "The entry's photo id")),
    request_body = ReasonBody,
    responses(
        (status = 200, description = "The entry, rejected", body = ModerationEntry),
        AdminErrors,
        (status = 404, description = "No such entry", body = ErrorBody),
        (status = 409, description = "`conflict`: not pending", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no reason", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn reject(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(body): Json<ReasonBody>,
) -> Result<Json<ModerationEntry>, ApiError> {
    let reason = parse_reason(
        body.reason.as_deref(),
        "Please enter a reason for the rejection",
    )?;
    let changed = decide(
        &state,
        &admin,
        id,
        &[ListingStatus::Pending],
        ListingStatus::Rejected,
        Some(reason),
        "leaderboard_entry_rejected",
    )
    .await?;
    let entry = moderation_entry(&state, id).await?;
    if !changed && entry.status != ListingStatus::Rejected {
        return Err(not_allowed(&entry, "rejected"));
    }
    Ok(Json(entry))
}

/// Takes an approved entry off the leaderboard (its owner sees `unlisted`,
/// with the reason if one is given).
#[utoipa::path(post, path = "/admin/leaderboard/entries/{id}/unlist", tag = "admin",
    params(("id" = Uuid, Path, description = "The entry's photo id")),
    request_body = ReasonBody,
    responses(
        (status = 200, description = "The entry, unlisted", body = ModerationEntry),
        AdminErrors,
        (status = 404, description = "No such entry", body = ErrorBody),
        (status = 409, description = "`conflict`: not approved", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn unlist(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(body): Json<ReasonBody>,
) -> Result<Json<ModerationEntry>, ApiError> {
    let reason = match body.reason.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(parse_reason(Some(raw), "")?),
    };
    let changed = decide(
        &state,
        &admin,
        id,
        &[ListingStatus::Approved],
        ListingStatus::Unlisted,
        reason,
        "leaderboard_entry_unlisted",
    )
    .await?;
    let entry = moderation_entry(&state, id).await?;
    if !changed && entry.status != ListingStatus::Unlisted {
        return Err(not_allowed(&entry, "unlisted"));
    }
    Ok(Json(entry))
}

/// Releases a photo the nudity check holds: an admin has looked at it and it may
/// be public (its share page and card go live). A pending leaderboard entry
/// still waits for approval; approving one releases it as well. Releasing a
/// photo that is not held changes nothing.
#[utoipa::path(post, path = "/admin/leaderboard/entries/{id}/release", tag = "admin",
    params(("id" = Uuid, Path, description = "The photo's id")),
    responses(
        (status = 200, description = "The photo, released", body = ModerationEntry),
        AdminErrors,
        (status = 404, description = "No such entry or screened photo", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn release(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
) -> Result<Json<ModerationEntry>, ApiError> {
    let entry = moderation_entry(&state, id).await?;
    let result = photos::Entity::update_many()
        .col_expr(photos::Column::ScreeningHeld, Expr::value(false))
        .col_expr(photos::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(photos::Column::Id.eq(id))
        .filter(photos::Column::ScreeningHeld.eq(true))
        .exec(&state.db)
        .await?;
    if result.rows_affected > 0 {
        admin
            .record(
                &state.db,
                "screening_hold_released",
                json!({ "photo_id": id, "screening": entry.screening }),
            )
            .await;
    }
    Ok(Json(moderation_entry(&state, id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FeatureBody {
    pub featured: bool,
}

/// Features (or stops featuring) an approved entry.
#[utoipa::path(post, path = "/admin/leaderboard/entries/{id}/feature", tag = "admin",
    params(("id" = Uuid, Path, description = "The entry's photo id")),
    request_body = FeatureBody,
    responses(
        (status = 200, description = "The entry", body = ModerationEntry),
        AdminErrors,
        (status = 404, description = "No such entry", body = ErrorBody),
        (status = 409, description = "`conflict`: not approved", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn feature(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(body): Json<FeatureBody>,
) -> Result<Json<ModerationEntry>, ApiError> {
    let result = photos::Entity::update_many()
        .col_expr(photos::Column::Featured, Expr::value(body.featured))
        .col_expr(photos::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(photos::Column::Id.eq(id))
        .filter(photos::Column::ListingStatus.eq(ListingStatus::Approved))
        .filter(photos::Column::Featured.ne(body.featured))
        .exec(&state.db)
        .await?;
    let entry = moderation_entry(&state, id).await?;
    if entry.status != ListingStatus::Approved {
        return Err(not_allowed(&entry, "featured"));
    }
    if result.rows_affected > 0 {
        let action = if body.featured {
            "leaderboard_entry_featured"
        } else {
            "leaderboard_entry_unfeatured"
        };
        admin.record(&state.db, action, json!({ "photo_id": id, "before": { "featured": !body.featured }, "after": { "featured": body.featured } }))
        .await;
    }
    Ok(Json(entry))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReportBody {
    /// What is wrong with the entry; 1 to 500 characters.
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReportReceipt {
    pub id: Uuid,
    pub message: String,
}

/// Reports a listed entry to the admins: a report of the one queue
/// (`/admin/reports`, reason `other` with the words given). One report per
/// user and entry: a repeated report answers with the first.
#[utoipa::path(post, path = "/leaderboard/entries/{id}/report", tag = "leaderboard",
    params(("id" = Uuid, Path, description = "The entry's photo id")),
    request_body = ReportBody,
    responses(
        (status = 201, description = "Reported", body = ReportReceipt),
        SignedInErrors,
        (status = 404, description = "No listed entry with this id", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no reason, or the caller's own entry", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn report(
    State(state): State<AppState>,
    user: AuthUser,
    client: ClientInfo,
    Path(id): Path<Uuid>,
    Json(body): Json<ReportBody>,
) -> Result<(StatusCode, Json<ReportReceipt>), ApiError> {
    let reason = parse_reason(
        body.reason.as_deref(),
        "Please tell us what is wrong with this entry",
    )?;
    let photo = photos::Entity::find_by_id(id)
        .filter(listed())
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("This entry is not on the leaderboard."))?;
    if photo.user_id == user.user_id {
        return Err(ApiError::invalid("You cannot report your own entry"));
    }
    let id = photo.id.to_string();
    let report_id = crate::reports::file(
        &state,
        crate::reports::NewReport {
            kind: "photo",
            id: &id,
            reason: crate::reports::rules::Reason::Other,
            details: reason,
            reporter: Some(&user),
            reporter_email: None,
            good_faith: false,
            ip: &client.ip,
        },
    )
    .await?
    .id;
    Ok((
        StatusCode::CREATED,
        Json(ReportReceipt {
            id: report_id,
            message: "Thank you. Our admins will review this entry.".to_owned(),
        }),
    ))
}
