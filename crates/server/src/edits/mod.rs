//! AI photo edits: `POST /functions/v1/edit-photo` and the free-edit quota
//! (`GET /api/v1/edits/quota`).
//!
//! An edit reads its image from a data URL or one of our own media URLs
//! (`source`, never from the network), works out a plan (the built-in
//! engine's operations, or the generative provider for prompts the engine
//! cannot do: `engine`), takes one free edit if it is an AI edit (`quota`),
//! runs it, and stores the result: under the signed-in owner's photo when a
//! `photoId` is given, otherwise as a temporary image that expires (`temp`).
//! Slider adjustments alone are not AI edits and cost nothing; without a
//! `photoId` their result is answered inline (a data URL) and not stored, so
//! free edits cannot fill the disk.

pub mod device;
pub mod engine;
pub mod quota;
pub mod source;
pub mod temp;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use chrono::Utc;
use prettyscore_imaging::{Adjustments, Unsupported};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::billing::MaybePremium;
use crate::features::{self, Feature};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{ClientInfo, Json, not_signed_in};
use crate::http::rate_limit;
use crate::http::upload;
use crate::media;
use crate::photos::{self, entity as photo_entity};
use crate::values::text;
use device::Device;
use engine::{EngineKind, Plan, RATE_LIMITED};
use source::{ImageSource, MAX_IMAGE_BYTES, SourceError};

/// A 10 MB image as a base64 data URL, plus the JSON around it.
const EDIT_BODY_LIMIT: usize = 15 * 1024 * 1024;
/// Longest accepted instruction, in characters.
const MAX_PROMPT_CHARS: usize = 1000;

pub const MISSING_PROMPT: &str = "Please enter an editing instruction";
/// When a signed-out address's edit results of the hour fill its bytes
/// (`edits.anonymous_temp_bytes_per_address`).
const ANONYMOUS_BYTES_USED: &str =
    "Many edits were made from your network in the last hour. Please sign in, or try again later.";
/// When temporary results fill their storage budget (`edits.temp_budget_bytes`).
const TEMP_BUDGET_USED: &str =
    "Photo editing is very busy right now. Please try again in a few minutes.";
const TEMP_BUDGET_RETRY_SECS: u64 = 60;

pub const FREE_EDITS_USED: &str =
    "You've used all your free edits. Upgrade to Premium for unlimited edits!";
const FOREIGN_IMAGE: &str = "Only photos you upload here can be edited: send the image itself or one of your PrettyScore image links.";

/// `/functions/v1/edit-photo`.
pub fn function_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(edit_photo))
        .layer(DefaultBodyLimit::max(EDIT_BODY_LIMIT))
}

/// `/api/v1/edits/…`.
pub fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(edit_quota))
}

/// The body of `edit-photo`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditPhotoRequest {
    /// The photo to edit: a `data:image/…;base64,` URL (at most 10 MB
    /// decoded) or one of this server's signed media URLs
    /// (`/media/<key>?token=…`, relative or on this server's address). Any
    /// other URL is refused, and nothing is ever fetched.
    pub image_url: String,
    /// The editing instruction, e.g. `Enhance`, `Upscale to 4K`,
    /// `blur the background`, `black and white`. Trimmed; required unless
    /// `adjustments` are given.
    #[serde(default)]
    pub prompt: Option<String>,
    /// One of the signed-in user's photos: the result is stored with it and
    /// becomes its `edited_image_url`.
    #[serde(default)]
    pub photo_id: Option<Uuid>,
    /// The editor's sliders, applied after the prompt's operations. Slider
    /// changes alone are free (not an AI edit).
    #[serde(default)]
    pub adjustments: Option<Adjustments>,
    /// `ai_editor` when the edit comes from the Premium AI Editor (/editor):
    /// the caller must then be signed in and be Premium or within the
    /// editor's free trial (403 `feature_locked`). Edits from the results
    /// page and the dashboard send nothing and use the free edits.
    #[serde(default)]
    pub feature: Option<Feature>,
}

/// The answer of `edit-photo`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditPhotoResponse {
    /// A signed URL of the result, valid for an hour (relative, like photos'
    /// URLs). Slider adjustments alone on an unsaved photo (no `photoId`)
    /// answer the result itself as a `data:image/jpeg;base64,` URL and store
    /// nothing.
    pub edited_image_url: String,
    /// Free AI edits left for this browser (and user); `null` for premium
    /// members (unlimited).
    #[schema(required = true)]
    pub edits_remaining: Option<u32>,
    /// The operations applied, e.g. `["enhance", "retouch"]`; `generative`
    /// for the provider's edit.
    pub operations: Vec<String>,
    pub engine: EngineKind,
}

/// The caller's free AI edits.
#[derive(Debug, Serialize, ToSchema)]
pub struct EditQuota {
    /// Free AI edits per browser and user.
    pub limit: u32,
    /// Used by this browser, plus by the signed-in user on other browsers.
    pub used: u32,
    /// `null` when unlimited.
    #[schema(required = true)]
    pub remaining: Option<u32>,
    /// A premium member: no limit.
    pub unlimited: bool,
    /// Whether prompts beyond the built-in engine go to a generative provider.
    pub generative: bool,
}

/// Edits a photo: a preset or plain-language prompt (built-in engine, or the
/// generative provider when configured), and/or the sliders. Free AI edits
/// are counted per browser (the `ps_device` cookie, issued here when missing)
/// and per signed-in user; premium members are unlimited.
#[utoipa::path(post, path = "/edit-photo", tag = "edits",
    request_body = EditPhotoRequest,
    responses(
        (status = 200, description = "The edited photo", body = EditPhotoResponse),
        (status = 400, description = "`missing_prompt`, `invalid_image_url`, or an image the engine cannot read", body = ErrorBody),
        (status = 401, description = "`not_signed_in`: a `photoId` without a signed-in user", body = ErrorBody),
        (status = 402, description = "`provider_credits`: the generative provider needs credits", body = ErrorBody),
        (status = 401, description = "`not_signed_in`: `feature` `ai_editor` without a signed-in caller", body = ErrorBody),
        (status = 403, description = "`free_edits_used`: no free edits left; `feature_locked`: the AI Editor without Premium or an active trial", body = ErrorBody),
        (status = 404, description = "`photoId` is not one of the signed-in user's photos", body = ErrorBody),
        (status = 413, description = "The image is over 10 MB", body = ErrorBody),
        (status = 422, description = "`unsupported_prompt`: the built-in engine cannot do this (the message says what it can); `no_face`: a face edit on a photo without a face; `image_incomplete`: a cut-off or damaged photo", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many edits from this client, or the provider is busy", body = ErrorBody),
        (status = 502, description = "`edit_failed`: the generative provider failed", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
async fn edit_photo(
    State(state): State<AppState>,
    client: ClientInfo,
    device: Device,
    caller: MaybePremium,
    // The raw request, read only after the client's rate is checked: a client
    // over it must not get to send (and make us buffer) another 10 MB.
    request: Request,
) -> Response {
    let result = edit(&state, &client, &device, &caller, request).await;
    device.attach(&state, result.into_response())
}

async fn edit(
    state: &AppState,
    client: &ClientInfo,
    device: &Device,
    caller: &MaybePremium,
    request: Request,
) -> Result<Json<EditPhotoResponse>, ApiError> {
    let user = caller.user.as_ref();
    limit_rate(state, client).await?;
    let axum::Json(request) = axum::Json::<EditPhotoRequest>::from_request(request, state)
        .await
        .map_err(body_error)?;
    text::check_line("imageUrl", &request.image_url)?;
    let mut editor_access = None;
    match request.feature {
        None => {}
        Some(Feature::AiEditor) => {
            let user = user.ok_or_else(not_signed_in)?;
            editor_access =
                Some(features::require_access(&state.db, user.user_id, Feature::AiEditor).await?);
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                ErrorCode::UnknownFeature,
                "Edits can only be gated by the ai_editor feature.",
            ));
        }
    }
    let prompt = request.prompt.as_deref().unwrap_or_default().trim();
    text::check_text("prompt", prompt)?;
    if prompt.is_empty() && request.adjustments.is_none() {
        return Err(ApiError::bad_request(
            ErrorCode::MissingPrompt,
            MISSING_PROMPT,
        ));
    }
    if prompt.chars().count() > MAX_PROMPT_CHARS {
        return Err(ApiError::bad_request(
            ErrorCode::ValidationFailed,
            "Please keep the editing instruction under 1000 characters.",
        ));
    }
    if let Some(adjustments) = &request.adjustments {
        check_adjustments(adjustments)?;
    }
    let photo = match request.photo_id {
        Some(id) => {
            // Editing a saved photo needs its owner signed in.
            let user = user.ok_or_else(crate::http::extract::not_signed_in)?;
            Some(photos::own_photo(state, user, id).await?)
        }
        None => None,
    };
    let image = read_image(state, &request.image_url).await?;
    // A cut-off photo is refused before any engine sees it (or a free edit goes).
    prettyscore_analysis::check_complete(&image).map_err(crate::analyses::analysis_error)?;
    let plan = Plan::for_request(prompt, request.adjustments, state.image_edits.is_some())
        .map_err(unsupported)?;

    // Slider adjustments alone on an unsaved photo: the result goes back
    // inline and nothing is stored (free edits must not fill the disk).
    let inline = photo.is_none() && !plan.is_ai_edit() && prompt.is_empty();
    let limit = state.config.edits.free_edits;
    let user_id = user.map(|user| user.user_id);
    let premium = caller.premium_editing;
    let counted = (plan.is_ai_edit() || !prompt.is_empty()) && !premium;
    // Signed out, the address's edits of the day are counted too (under a
    // quota key of their own), so a fresh cookie brings no fresh edits.
    let address = (counted && user_id.is_none()).then(|| address_key(client));
    let per_address = state.config.edits.anonymous_per_address_per_day;
    if let Some(address) = &address
        && !quota::take(&state.db, address, None, per_address).await?
    {
        return Err(free_edits_used());
    }
    if counted && !quota::take(&state.db, &device.id, user_id, limit).await? {
        if let Some(address) = &address {
            quota::give_back(&state.db, address).await?;
        }
        return Err(free_edits_used());
    }

    let finished = async {
        let outcome = engine::Editor::of(state).run(plan, image).await?;
        let url = if inline {
            inline_result(&outcome.jpeg)
        } else {
            let anonymous_address = client.rate_key();
            store_result(
                state,
                photo.as_ref(),
                user_id,
                Some(&anonymous_address),
                outcome.jpeg,
            )
            .await?
        };
        Ok::<_, ApiError>((url, outcome.operations, outcome.engine))
    }
    .await;
    let (edited_image_url, operations, engine) = match finished {
        Ok(done) => done,
        Err(err) => {
            // Only successful edits count.
            let taken = counted
                .then_some(device.id.as_str())
                .into_iter()
                .chain(address.as_deref());
            for key in taken {
                if let Err(give_back) = quota::give_back(&state.db, key).await {
                    tracing::error!(error = %give_back, "could not give back a failed edit");
                }
            }
            return Err(err);
        }
    };
    // The editor's trial is one saved session: used up by the first edit
    // saved onto one of the user's photos.
    if let (Some(access), Some(user), Some(_)) = (editor_access, user, photo.as_ref()) {
        features::use_once(&state.db, user.user_id, Feature::AiEditor, access).await?;
    }
    let edits_remaining = if premium {
        None
    } else {
        let used = used_edits(state, &device.id, user_id, Some(client)).await?;
        Some(limit.saturating_sub(used))
    };
    Ok(Json(EditPhotoResponse {
        edited_image_url,
        edits_remaining,
        operations,
        engine,
    }))
}

/// How many free AI edits this browser (and signed-in user) has left.
/// Issues the `ps_device` cookie when the browser has none.
#[utoipa::path(get, path = "/edits/quota", tag = "edits",
    responses(
        (status = 200, description = "The caller's free edits", body = EditQuota),
        (status = 401, description = "A bearer token was sent but is not valid", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
async fn edit_quota(
    State(state): State<AppState>,
    client: ClientInfo,
    device: Device,
    caller: MaybePremium,
) -> Response {
    let result = quota_of(&state, &device, &caller, Some(&client)).await;
    device.attach(&state, result.into_response())
}

/// The caller's free edits on this device (the dashboard shows them too);
/// signed out, from `client`'s address too.
pub async fn quota_of(
    state: &AppState,
    device: &Device,
    caller: &MaybePremium,
    client: Option<&ClientInfo>,
) -> Result<Json<EditQuota>, ApiError> {
    let user_id = caller.user.as_ref().map(|user| user.user_id);
    let unlimited = caller.premium_editing;
    let used = used_edits(state, &device.id, user_id, client).await?;
    let usage = quota::Usage {
        limit: state.config.edits.free_edits,
        used,
        unlimited,
    };
    Ok(Json(EditQuota {
        limit: usage.limit,
        used: usage.used,
        remaining: usage.remaining(),
        unlimited,
        generative: state.image_edits.is_some(),
    }))
}

/// The quota key of the edits a signed-out client address made today.
fn address_key(client: &ClientInfo) -> String {
    format!("address:{}:{}", client.rate_key(), Utc::now().date_naive())
}

/// Free edits counted against this browser and user; signed out, also what
/// the address has used of its day's allowance (`client`'s, when known).
async fn used_edits(
    state: &AppState,
    device_id: &str,
    user_id: Option<Uuid>,
    client: Option<&ClientInfo>,
) -> Result<u32, DbErr> {
    let used = quota::used(&state.db, device_id, user_id).await?;
    let (None, Some(client)) = (user_id, client) else {
        return Ok(used);
    };
    let by_address = quota::used(&state.db, &address_key(client), None).await?;
    let address_left = state
        .config
        .edits
        .anonymous_per_address_per_day
        .saturating_sub(by_address);
    Ok(used.max(state.config.edits.free_edits.saturating_sub(address_left)))
}

fn free_edits_used() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::FreeEditsUsed,
        FREE_EDITS_USED,
    )
}

/// The per-client rate (shared by every instance).
async fn limit_rate(state: &AppState, client: &ClientInfo) -> Result<(), ApiError> {
    let key = format!("edit:{}", client.rate_key());
    rate_limit::enforce(
        &state.db,
        &key,
        60,
        state.config.edits.per_client_per_minute,
        RATE_LIMITED,
    )
    .await
}

fn body_error(rejection: JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return upload::too_large().with_cause(rejection);
    }
    ApiError::from(rejection)
}

fn invalid_image_url(message: &'static str) -> ApiError {
    ApiError::bad_request(ErrorCode::InvalidImageUrl, message)
}

fn unsupported(unsupported: Unsupported) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::UnsupportedPrompt,
        unsupported.message,
    )
}

/// Sliders: brightness, contrast and saturation 0 to 200 %, blur 0 to 10 px.
fn check_adjustments(adjustments: &Adjustments) -> Result<(), ApiError> {
    let percent = |value: f32| value.is_finite() && (0.0..=200.0).contains(&value);
    let valid = percent(adjustments.brightness)
        && percent(adjustments.contrast)
        && percent(adjustments.saturation)
        && adjustments.blur_px.is_finite()
        && (0.0..=10.0).contains(&adjustments.blur_px);
    if !valid {
        return Err(ApiError::bad_request(
            ErrorCode::ValidationFailed,
            "Brightness, contrast and saturation go from 0 to 200%, blur from 0 to 10 px.",
        ));
    }
    Ok(())
}

/// The image an `imageUrl` names, read without any network request.
async fn read_image(state: &AppState, image_url: &str) -> Result<Bytes, ApiError> {
    let source = source::parse_image_url(image_url, &state.base_url).map_err(|err| match err {
        SourceError::TooLarge => upload::too_large(),
        SourceError::BadData => {
            invalid_image_url("The image data could not be read. Please choose the photo again.")
        }
        SourceError::NotAllowed(_) => invalid_image_url(FOREIGN_IMAGE).with_cause(err),
    })?;
    match source {
        ImageSource::Inline(bytes) => Ok(Bytes::from(bytes)),
        ImageSource::Media(media_ref) => {
            let token = media_ref.token.as_deref().unwrap_or_default();
            if !media::token_grants(state, &media_ref.key, token).await {
                return Err(invalid_image_url(
                    "This image link has expired. Please open the photo again.",
                ));
            }
            let bytes = state
                .storage
                .get(&media_ref.key)
                .await
                .map_err(ApiError::internal)?
                .ok_or_else(|| {
                    invalid_image_url("This image is no longer available. Please upload it again.")
                })?;
            if bytes.len() > MAX_IMAGE_BYTES {
                return Err(upload::too_large());
            }
            Ok(bytes)
        }
    }
}

/// A result that is not stored: the JPEG as a data URL.
fn inline_result(jpeg: &[u8]) -> String {
    format!(
        "data:image/jpeg;base64,{}",
        data_encoding::BASE64.encode(jpeg)
    )
}

/// Stores an edit result and answers its signed URL: with the photo (which
/// then shows it), or as a temporary image.
async fn store_result(
    state: &AppState,
    photo: Option<&photo_entity::Model>,
    user_id: Option<Uuid>,
    anonymous_address: Option<&str>,
    jpeg: Vec<u8>,
) -> Result<String, ApiError> {
    let Some(photo) = photo else {
        let key = match temp::store(state, user_id, anonymous_address, jpeg).await {
            Ok(key) => key,
            Err(temp::StoreError::AddressOverBudget(retry_after)) => {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    ErrorCode::RateLimited,
                    ANONYMOUS_BYTES_USED,
                )
                .with_retry_after(retry_after));
            }
            Err(temp::StoreError::OverBudget) => {
                return Err(
                    ApiError::unavailable(ErrorCode::ServerBusy, TEMP_BUDGET_USED)
                        .with_retry_after(TEMP_BUDGET_RETRY_SECS),
                );
            }
            Err(temp::StoreError::Failed(err)) => return Err(ApiError::internal(err)),
        };
        return Ok(media::signed_url(state, &media::media_path(&key)));
    };
    let key = format!(
        "{}edits/{}.jpg",
        photos::storage_prefix(photo.user_id, photo.id),
        Uuid::new_v4()
    );
    state
        .storage
        .put(&key, Bytes::from(jpeg))
        .await
        .map_err(ApiError::internal)?;
    let path = media::media_path(&key);
    let updated = photo_entity::Entity::update_many()
        .col_expr(
            photo_entity::Column::EditedImageUrl,
            Expr::value(path.clone()),
        )
        .col_expr(photo_entity::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(photo_entity::Column::Id.eq(photo.id))
        .filter(photo_entity::Column::UserId.eq(photo.user_id))
        .exec(&state.db)
        .await;
    match updated {
        Ok(result) if result.rows_affected == 1 => Ok(media::signed_url(state, &path)),
        outcome => {
            // The photo went meanwhile (or the update failed): leave nothing behind.
            let _ = state.storage.delete(&key).await;
            match outcome {
                Err(err) => Err(err.into()),
                Ok(_) => Err(ApiError::not_found("Photo not found")),
            }
        }
    }
}
