//! Saved photos: the user's own results. The server analyses the stored image
//! itself, so a saved, listed or ranked score is always one it computed; any
//! score a client sends is ignored.

pub mod entity;
pub mod orphans;
pub mod rules;
pub mod screening;
pub mod share;

use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use chrono::{DateTime, Utc};
use prettyscore_analysis::MAX_UPLOAD_BYTES;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::analyses::{analysis_error, limit_burst};
use crate::features::{self, Feature, SaveRight};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{AuthUser, ClientInfo, Json, Path};
use crate::http::upload;
use crate::http::user_data::UserData;
use crate::media;
use rules::{Listing, PhotoType};

/// A save carries the photo and maybe its edit, each at most 10 MB, plus the
/// form around them.
const SAVE_BODY_LIMIT: usize = 2 * MAX_UPLOAD_BYTES + 1024 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(save_photo, list_photos))
        .routes(routes!(attach_edit))
        .layer(DefaultBodyLimit::max(SAVE_BODY_LIMIT))
        .routes(routes!(get_photo, update_photo, delete_photo))
        .routes(routes!(share::share_photo, share::revoke_share))
}

/// The save form's field for the edit of the photo.
const EDITED_IMAGE_FIELD: &str = "edited_image";

/// A saved photo as its owner sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Photo {
    pub id: Uuid,
    pub user_id: Uuid,
    /// A signed URL of the stored original, valid for an hour.
    pub original_image_url: String,
    /// A signed URL of the latest edit, if any.
    pub edited_image_url: Option<String>,
    /// 1.0 to 10.0, computed by the server from the stored image.
    pub score: f64,
    pub rating_label: String,
    /// `symmetry`, `skinQuality`, `facialHarmony` and `overallBalance`, each out of 10.
    #[schema(value_type = std::collections::HashMap<String, f64>)]
    pub breakdown: serde_json::Value,
    /// `face`, `feet` or `hands`.
    pub photo_type: String,
    pub public_listing: bool,
    pub featured: bool,
    pub is_verified: bool,
    pub display_name: Option<String>,
    pub bio: Option<String>,
    /// The leaderboard listing: `pending` (admins will verify it soon),
    /// `approved`, `rejected` (see `rejection_reason`) or `unlisted`; null
    /// for a photo never put forward.
    pub listing_status: Option<String>,
    /// The admin's reason, shown to the owner, when `listing_status` is `rejected`.
    pub rejection_reason: Option<String>,
    /// The ranking contest month (`YYYY-MM`) the photo was entered in, if any.
    pub contest_month: Option<String>,
    /// The live share link, if the owner shared the photo (and did not
    /// revoke it, and it has not expired).
    pub share: Option<share::ShareLink>,
    /// The nudity check flagged the photo: it is held for review, and nothing of
    /// it is public until an admin has looked at it.
    pub held_for_review: bool,
    pub created_at: DateTime<Utc>,
}

impl Photo {
    fn from_row(state: &AppState, row: entity::Model) -> Self {
        let share = share::live_link(state, &row);
        Self {
            id: row.id,
            user_id: row.user_id,
            original_image_url: media::signed_url(state, &row.original_image_url),
            edited_image_url: row
                .edited_image_url
                .as_deref()
                .map(|path| media::signed_url(state, path)),
            score: row.score,
            rating_label: row.rating_label,
            breakdown: row.breakdown,
            photo_type: row.photo_type,
            public_listing: row.public_listing,
            featured: row.featured,
            is_verified: row.is_verified,
            display_name: row.display_name,
            bio: row.bio,
            listing_status: row.listing_status,
            rejection_reason: row.rejection_reason,
            contest_month: row.contest_month,
            share,
            held_for_review: row.screening_held,
            created_at: row.created_at,
        }
    }
}

/// The multipart body of a save.
#[derive(ToSchema)]
#[allow(dead_code)]
struct SavePhotoForm {
    /// The photo as it was taken (the original): JPEG, PNG, WebP, GIF or
    /// BMP, at most 10 MB. The server scores this image.
    #[schema(format = Binary, content_media_type = "application/octet-stream")]
    image: String,
    /// The result of an AI edit of it, if the user made one: stored as the
    /// photo's `edited_image_url`, as an edit made in My Photos would be.
    /// It is not scored (the saved score is the original's).
    #[schema(format = Binary, content_media_type = "application/octet-stream")]
    edited_image: Option<String>,
    /// Required (trimmed) when `public_listing` is true.
    #[schema(nullable = false)]
    display_name: Option<String>,
    #[schema(nullable = false)]
    bio: Option<String>,
    /// `true` submits the photo to the leaderboard queue (verified by an
    /// admin); `true` or `false`, never null.
    #[schema(nullable = false)]
    public_listing: Option<bool>,
    /// `face` (the default), `feet` or `hands`: which analysis scores it.
    /// Feet and hands need Premium, or are the photo just scored with the
    /// free trial (saved once); they never join the leaderboard.
    #[schema(nullable = false)]
    photo_type: Option<String>,
}

/// Saves a face, feet or hands photo to the signed-in user's photos, with its
/// edit if one is sent. The server scores the stored original; EXIF and GPS
/// data are removed from both images before storing.
#[utoipa::path(post, path = "/photos", tag = "photos",
    request_body(content = SavePhotoForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Saved", body = Photo),
        (status = 400, description = "Not an image, or a damaged one", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 403, description = "`feature_locked`: feet or hands without Premium or a fresh trial result; with `public_listing`, the community gate's `age_required`, `terms_required`, `confirmation_required`", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "`image_incomplete`: a cut-off or damaged photo; no face (or hand) found, a face in a feet photo, or a missing display name", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn save_photo(
    State(state): State<AppState>,
    user: AuthUser,
    client: ClientInfo,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<impl IntoResponse, ApiError> {
    // The rate before the body: a client over it must not get to send (and
    // make us buffer) another 10 MB.
    limit_burst(&state, &client).await?;
    let mut form = upload::read_form_with_images(
        multipart?,
        &[EDITED_IMAGE_FIELD],
        &["display_name", "bio", "public_listing", "photo_type"],
    )
    .await?;
    let photo_type = PhotoType::parse(form.text("photo_type"))?;
    let image = form.require_image()?;
    let edited_image = form.take_image(EDITED_IMAGE_FIELD);
    let listing = Listing::parse(
        form.text("public_listing"),
        form.text("display_name"),
        form.text("bio"),
        &state.config.community.reserved_name_words,
    )?;
    if listing.public_listing {
        // A public listing is a community feature (issue 41).
        crate::http::extract::require_member(&state, &user).await?;
    }
    if photo_type != PhotoType::Face {
        if listing.public_listing {
            return Err(ApiError::invalid(
                "Only face photos can join the leaderboard",
            ));
        }
        may_save_body_photo(&state, user.user_id, photo_type).await?;
    }

    let (stored, analysis, edit) = state
        .blocking
        .run(move || {
            let stored = media::prepare_for_storage(&image)?;
            let analysis = score_photo(photo_type, &stored.bytes)?;
            let edit = edited_image
                .map(|edit| media::prepare_for_storage(&edit))
                .transpose()?;
            Ok((stored, analysis, edit))
        })
        .await?
        .map_err(analysis_error)?;

    let id = Uuid::new_v4();
    let folder = storage_prefix(user.user_id, id);
    let key = format!("{folder}original.{}", stored.extension);
    let edit_key = edit
        .as_ref()
        .map(|edit| format!("{folder}edits/{}.{}", Uuid::new_v4(), edit.extension));
    let mut objects = vec![(key.clone(), stored.bytes)];
    objects.extend(edit_key.clone().zip(edit.map(|edit| edit.bytes)));
    // All the images within one storage deadline, so the client gets the
    // 503 before the proxy's timeout; what failed or hung is removed in the
    // background (storage that hangs would hold the answer up again).
    let deadline = state.storage.deadline();
    let stored_all = tokio::time::timeout(deadline, async {
        for (object_key, bytes) in objects {
            state.storage.put(&object_key, bytes.into()).await?;
        }
        Ok::<_, crate::storage::StorageError>(())
    })
    .await
    .unwrap_or(Err(crate::storage::StorageError::TimedOut(deadline)));
    if let Err(err) = stored_all {
        state.storage.remove_later(folder, true);
        return Err(ApiError::internal(err));
    }
    let now = Utc::now();
    let row = entity::ActiveModel {
        id: Set(id),
        user_id: Set(user.user_id),
        original_image_url: Set(media::media_path(&key)),
        edited_image_url: Set(edit_key.as_deref().map(media::media_path)),
        score: Set(analysis.score),
        rating_label: Set(analysis.rating_label.to_owned()),
        breakdown: Set(analysis.breakdown),
        photo_type: Set(photo_type.as_str().to_owned()),
        public_listing: Set(listing.public_listing),
        featured: Set(false),
        // Leaderboard entries wait for an admin.
        is_verified: Set(false),
        display_name: Set(listing.display_name),
        bio: Set(listing.bio),
        share_slug: Set(None),
        share_expires_at: Set(None),
        listing_status: Set(listing
            .public_listing
            .then(|| entity::ListingStatus::Pending.into())),
        rejection_reason: Set(None),
        reviewed_by: Set(None),
        reviewed_at: Set(None),
        contest_month: Set(None),
        contest_entered_at: Set(None),
        attested_adult: Set(false),
        attested_original: Set(false),
        screening: Set(None),
        screening_held: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
    };
    let row = match row.insert(&state.db).await {
        Ok(row) => row,
        Err(err) => {
            // Leave no orphaned image behind.
            let _ = state.storage.delete_prefix(&folder).await;
            return Err(ApiError::internal(err));
        }
    };
    // A leaderboard entry is screened now, so the admins see the scores.
    let row = if row.public_listing {
        let original = row.original_image_url.clone();
        screening::screen(&state, row, &original).await?
    } else {
        row
    };
    Ok((StatusCode::CREATED, Json(Photo::from_row(&state, row))))
}

/// A stored photo's score, as the analysis of its type gives it.
struct Scored {
    score: f64,
    rating_label: &'static str,
    breakdown: serde_json::Value,
}

fn score_photo(
    photo_type: PhotoType,
    bytes: &[u8],
) -> Result<Scored, prettyscore_analysis::AnalysisError> {
    fn scored(score: f64, rating_label: &'static str, breakdown: impl Serialize) -> Scored {
        Scored {
            score,
            rating_label,
            breakdown: serde_json::to_value(breakdown).expect("a breakdown of numbers"),
        }
    }
    Ok(match photo_type {
        PhotoType::Face => {
            let a = prettyscore_analysis::analyze_face(bytes)?;
            scored(a.score, a.rating_label, a.breakdown)
        }
        PhotoType::Feet => {
            let a = prettyscore_analysis::analyze_feet(bytes)?;
            scored(a.score, a.rating_label, a.breakdown)
        }
        PhotoType::Hands => {
            let a = prettyscore_analysis::analyze_hands(bytes)?;
            scored(a.score, a.rating_label, a.breakdown)
        }
    })
}

/// Feet and hands are Premium features: a save scores the photo again, so
/// without Premium only the photo just scored with the free trial may be
/// saved, once.
async fn may_save_body_photo(
    state: &AppState,
    user_id: Uuid,
    photo_type: PhotoType,
) -> Result<(), ApiError> {
    let feature = match photo_type {
        PhotoType::Feet => Feature::FeetScoring,
        PhotoType::Hands => Feature::HandsScoring,
        PhotoType::Face => return Ok(()),
    };
    match features::save_right(&state.db, user_id, feature).await? {
        SaveRight::Premium => Ok(()),
        SaveRight::TrialResult(at) => {
            let saved = entity::Entity::find()
                .filter(entity::Column::UserId.eq(user_id))
                .filter(entity::Column::PhotoType.eq(photo_type.as_str()))
                .filter(entity::Column::CreatedAt.gte(at))
                .count(&state.db)
                .await?;
            if saved > 0 {
                return Err(features::trial_result_saved());
            }
            Ok(())
        }
    }
}

#[derive(Debug, Default, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PhotoSort {
    /// Newest first.
    #[default]
    Latest,
    /// Highest score first.
    Rating,
}

impl PhotoSort {
    /// The list's name in [`AppState::user_lists`].
    fn cache_key(self) -> &'static str {
        match self {
            Self::Latest => "photos?sort=latest",
            Self::Rating => "photos?sort=rating",
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `latest` (default) or `rating`.
    #[serde(default)]
    #[param(inline)]
    sort: PhotoSort,
}

/// The signed-in user's saved photos.
#[utoipa::path(get, path = "/photos", tag = "photos",
    params(ListQuery),
    responses(
        (status = 200, description = "The user's photos", body = Vec<Photo>),
        (status = 401, description = "Not signed in", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn list_photos(
    State(state): State<AppState>,
    user: AuthUser,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    // My Photos, the dashboard and the pickers all ask for this list: an
    // answer read a moment ago is given again (see `http::recent_reads`).
    let key = (user.user_id, query.sort.cache_key());
    if let Some(body) = state.user_lists.get(&key) {
        return Ok(json_body(body));
    }
    let epoch = state.user_lists.epoch();
    let select = entity::Entity::find().filter(entity::Column::UserId.eq(user.user_id));
    let select = match query.sort {
        PhotoSort::Latest => select.order_by_desc(entity::Column::CreatedAt),
        PhotoSort::Rating => select
            .order_by_desc(entity::Column::Score)
            .order_by_desc(entity::Column::CreatedAt),
    };
    let rows = select.all(&state.db).await?;
    let photos: Vec<Photo> = rows
        .into_iter()
        .map(|row| Photo::from_row(&state, row))
        .collect();
    let body = Bytes::from(serde_json::to_vec(&photos).map_err(ApiError::internal)?);
    state.user_lists.put(key, epoch, body.clone());
    Ok(json_body(body))
}

/// A JSON answer from bytes already serialized.
fn json_body(body: Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// The storage folder of a photo's images: its original and every edit
/// (`photos/<user>/<photo>/`).
pub fn storage_prefix(user_id: Uuid, photo_id: Uuid) -> String {
    format!("{}{photo_id}/", user_prefix(user_id))
}

/// The storage folder of all of a user's photos (`photos/<user>/`).
fn user_prefix(user_id: Uuid) -> String {
    format!("{PHOTOS_FOLDER}/{user_id}/")
}

/// Where every saved photo's folder is.
pub(crate) const PHOTOS_FOLDER: &str = "photos";

/// The user's own photo, or 404 (also for someone else's).
pub(crate) async fn own_photo(
    state: &AppState,
    user: &AuthUser,
    id: Uuid,
) -> Result<entity::Model, ApiError> {
    entity::Entity::find_by_id(id)
        .filter(entity::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Photo not found"))
}

/// One of the signed-in user's photos.
#[utoipa::path(get, path = "/photos/{id}", tag = "photos",
    params(("id" = Uuid, Path, description = "The photo's id")),
    responses(
        (status = 200, description = "The photo", body = Photo),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such photo of this user", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn get_photo(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
) -> Result<Json<Photo>, ApiError> {
    let row = own_photo(&state, &user, id).await?;
    Ok(Json(Photo::from_row(&state, row)))
}

/// A change to a photo.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PhotoUpdate {
    /// `null` shows the original again; otherwise one of this photo's own
    /// edits, as `edit-photo` answered it (the dashboard's Undo writes an
    /// earlier edit back). Any other image is refused (`invalid_image_url`).
    #[serde(deserialize_with = "Option::deserialize")]
    #[schema(required = true)]
    pub edited_image_url: Option<String>,
}

/// Sets or clears the photo's edited image (Undo in the dashboard editor).
#[utoipa::path(patch, path = "/photos/{id}", tag = "photos",
    params(("id" = Uuid, Path, description = "The photo's id")),
    request_body = PhotoUpdate,
    responses(
        (status = 200, description = "The updated photo", body = Photo),
        (status = 400, description = "`invalid_image_url`: not one of this photo's edits", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such photo of this user", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn update_photo(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
    Json(update): Json<PhotoUpdate>,
) -> Result<Json<Photo>, ApiError> {
    let row = own_photo(&state, &user, id).await?;
    let edited = match update.edited_image_url.as_deref() {
        None => None,
        Some(url) => Some(edit_path(&state, &row, url).await?),
    };
    let mut change: entity::ActiveModel = row.into();
    change.edited_image_url = Set(edited);
    change.updated_at = Set(Utc::now());
    let row = change.update(&state.db).await?;
    Ok(Json(Photo::from_row(&state, row)))
}

/// The media path a photo's `edited_image_url` may be set to: one of our
/// media URLs whose object lies under that photo's own folder and exists.
/// The caller owns the photo, which is what authorises it; the URL's token
/// is not needed (an Undo may come after a signed URL's hour).
async fn edit_path(state: &AppState, photo: &entity::Model, url: &str) -> Result<String, ApiError> {
    let refused = || {
        ApiError::bad_request(
            ErrorCode::InvalidImageUrl,
            "That image does not belong to this photo. Please pick one of its edits.",
        )
    };
    let media_ref =
        media::parse_media_url(url, &state.base_url).map_err(|err| refused().with_cause(err))?;
    let folder = storage_prefix(photo.user_id, photo.id);
    // The photo's own images: its original and its edits (not its share cards).
    if !media_ref.key.starts_with(&folder) || media_ref.key.starts_with(&format!("{folder}cards/"))
    {
        return Err(refused());
    }
    let exists = state
        .storage
        .exists(&media_ref.key)
        .await
        .map_err(ApiError::internal)?;
    if !exists {
        return Err(refused());
    }
    Ok(media::media_path(&media_ref.key))
}

/// The multipart body of an edit attached to a saved photo.
#[derive(ToSchema)]
#[allow(dead_code)]
struct AttachEditForm {
    /// The edited photo (JPEG, PNG, WebP, GIF or BMP, at most 10 MB), as
    /// the AI Photo Editor made it from this photo.
    #[schema(format = Binary, content_media_type = "application/octet-stream")]
    image: String,
}

/// Attaches an edit to one of the user's saved photos (the AI Photo
/// Editor's Save for a photo opened from My Photos): stored beside the
/// original as its `edited_image_url`, EXIF and GPS data removed. The photo
/// keeps its original and the score the server computed from it; nothing is
/// scored again, so every photo type (face, feet, hands) takes an edit the
/// same way, and the photo is updated, never duplicated.
#[utoipa::path(put, path = "/photos/{id}/edited-image", tag = "photos",
    params(("id" = Uuid, Path, description = "The photo's id")),
    request_body(content = AttachEditForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The photo with its new edit", body = Photo),
        (status = 400, description = "`missing_image`, or not an image", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such photo of this user", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "`image_incomplete`: a cut-off or damaged image", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn attach_edit(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<Photo>, ApiError> {
    // The owner first: nobody else's body is read (or stored).
    let row = own_photo(&state, &user, id).await?;
    let mut form = upload::read_form(multipart?, &[]).await?;
    let image = form.require_image()?;
    let edit = state
        .blocking
        .run(move || media::prepare_for_storage(&image))
        .await?
        .map_err(analysis_error)?;
    let key = format!(
        "{}edits/{}.{}",
        storage_prefix(row.user_id, row.id),
        Uuid::new_v4(),
        edit.extension
    );
    state
        .storage
        .put(&key, edit.bytes.into())
        .await
        .map_err(ApiError::internal)?;
    let path = media::media_path(&key);
    // One conditional UPDATE: a photo deleted meanwhile leaves no image behind.
    let updated = entity::Entity::update_many()
        .col_expr(
            entity::Column::EditedImageUrl,
            sea_orm::sea_query::Expr::value(path.clone()),
        )
        .col_expr(
            entity::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(Utc::now()),
        )
        .filter(entity::Column::Id.eq(row.id))
        .filter(entity::Column::UserId.eq(user.user_id))
        .exec(&state.db)
        .await;
    match updated {
        Ok(done) if done.rows_affected == 1 => {}
        outcome => {
            let _ = state.storage.delete(&key).await;
            return Err(match outcome {
                Err(err) => err.into(),
                Ok(_) => ApiError::not_found("Photo not found"),
            });
        }
    }
    let row = own_photo(&state, &user, id).await?;
    Ok(Json(Photo::from_row(&state, row)))
}

/// Deletes one of the user's photos and its images.
#[utoipa::path(delete, path = "/photos/{id}", tag = "photos",
    params(("id" = Uuid, Path, description = "The photo's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such photo of this user", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn delete_photo(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let row = own_photo(&state, &user, id).await?;
    // The row takes its share link with it: `/s/<slug>` answers 404 at once.
    entity::Entity::delete_by_id(row.id).exec(&state.db).await?;
    delete_images(&state, &row).await;
    Ok(StatusCode::NO_CONTENT)
}

/// Takes a photo down for good after a report (issue 41): its row goes, so
/// its share page and card, its leaderboard listing and its contest entry
/// answer 404 at once, and its stored images are deleted. When `evidence`
/// names a storage folder, the images are copied there first (never
/// served: `/media/` only serves what a signed URL or a public listing names).
/// The keys of the copies.
pub async fn remove_reported(
    state: &AppState,
    row: &entity::Model,
    evidence: Option<&str>,
) -> Result<Vec<String>, sea_orm::DbErr> {
    let mut kept = Vec::new();
    if let Some(folder) = evidence {
        let mut keys: Vec<String> = std::iter::once(row.original_image_url.as_str())
            .chain(row.edited_image_url.as_deref())
            .filter_map(media::key_of)
            .map(str::to_owned)
            .collect();
        if let Ok(more) = state
            .storage
            .list(&storage_prefix(row.user_id, row.id))
            .await
        {
            keys.extend(more);
        }
        keys.sort();
        keys.dedup();
        for key in keys {
            match state.storage.get(&key).await {
                Ok(Some(bytes)) => {
                    let copy = format!("{folder}{}", key.replace('/', "_"));
                    if let Err(err) = state.storage.put(&copy, bytes).await {
                        tracing::warn!(%key, error = %err, "could not keep a removed photo as evidence");
                    } else {
                        kept.push(copy);
                    }
                }
                Ok(None) => {}
                Err(err) => {
                    tracing::warn!(%key, error = %err, "could not read a removed photo for evidence")
                }
            }
        }
    }
    entity::Entity::delete_by_id(row.id).exec(&state.db).await?;
    delete_images(state, row).await;
    Ok(kept)
}

/// Removes a photo's stored images: the original and every edit, all in its
/// folder. A failure is logged, not fatal, since the row is already gone.
async fn delete_images(state: &AppState, row: &entity::Model) {
    let paths =
        std::iter::once(row.original_image_url.as_str()).chain(row.edited_image_url.as_deref());
    for key in paths.filter_map(media::key_of) {
        if let Err(err) = state.storage.delete(key).await {
            tracing::warn!(%key, error = %err, "could not delete a photo's image");
        }
    }
    let folder = storage_prefix(row.user_id, row.id);
    if let Err(err) = state.storage.delete_prefix(&folder).await {
        tracing::warn!(%folder, error = %err, "could not delete a photo's edits");
    }
}

/// The photos domain's share of a user's data: the `photos` section of the
/// export (rows and images), and the images' deletion with the account.
pub struct SavedPhotos;

#[async_trait::async_trait]
impl UserData for SavedPhotos {
    fn name(&self) -> &'static str {
        "photos"
    }

    async fn export(
        &self,
        state: &AppState,
        user_id: Uuid,
    ) -> anyhow::Result<Option<serde_json::Value>> {
        export(state, user_id).await.map(Some)
    }

    async fn delete(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<()> {
        delete_user_images(state, user_id).await
    }
}

/// Deletes every image of a user's photos (account deletion): those of their
/// rows, and then everything under their folder, so that an image whose row
/// was never written (a crash between the two) goes too.
async fn delete_user_images(state: &AppState, user_id: Uuid) -> anyhow::Result<()> {
    let rows = entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .all(&state.db)
        .await?;
    for row in &rows {
        delete_images(state, row).await;
    }
    state.storage.delete_prefix(&user_prefix(user_id)).await?;
    Ok(())
}

/// A photo in the user's data export: the row, and its images themselves
/// as data URLs, so the download is complete without any further request.
#[derive(Serialize)]
struct ExportedPhoto {
    #[serde(flatten)]
    photo: Photo,
    original_image: Option<String>,
    edited_image: Option<String>,
}

/// The user's photos for their data export.
async fn export(state: &AppState, user_id: Uuid) -> anyhow::Result<serde_json::Value> {
    let rows = entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .order_by_asc(entity::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let mut photos = Vec::with_capacity(rows.len());
    for row in rows {
        let original_image = image_data_url(state, Some(&row.original_image_url)).await?;
        let edited_image = image_data_url(state, row.edited_image_url.as_deref()).await?;
        photos.push(ExportedPhoto {
            photo: Photo::from_row(state, row),
            original_image,
            edited_image,
        });
    }
    Ok(serde_json::to_value(photos)?)
}

async fn image_data_url(
    state: &AppState,
    media_path: Option<&str>,
) -> anyhow::Result<Option<String>> {
    let Some(key) = media_path.and_then(media::key_of) else {
        return Ok(None);
    };
    let Some(bytes) = state.storage.get(key).await? else {
        return Ok(None);
    };
    let mime = if bytes.starts_with(b"\x89PNG") {
        "image/png"
    } else {
        "image/jpeg"
    };
    Ok(Some(format!(
        "data:{mime};base64,{}",
        data_encoding::BASE64.encode(&bytes)
    )))
}
