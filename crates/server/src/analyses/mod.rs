//! Scoring photos for the results screens: face, pet, feet and hands. The
//! analysis itself lives in the `prettyscore-analysis` crate; this module
//! reads the upload, bounds the work, limits bursts and answers. Nothing is
//! stored.
//!
//! Feet and hands scoring are Premium features (`feet_scoring`,
//! `hands_scoring`): the caller must be signed in and be Premium or have
//! activated the one free trial, which a successful analysis uses up.

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use bytes::Bytes;
use prettyscore_analysis::{AnalysisError, FaceAnalysis, FeetAnalysis, HandsAnalysis, PetAnalysis};
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::features::{self, Feature};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, ClientInfo, Json};
use crate::http::rate_limit;
use crate::http::upload;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(analyze_face))
        .routes(routes!(analyze_pet))
        .routes(routes!(analyze_feet))
        .routes(routes!(analyze_hands))
}

/// The multipart body of every analysis: one image file.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct ImageUpload {
    /// The photo: JPEG, PNG, WebP, GIF or BMP, at most 10 MB.
    #[schema(format = Binary, content_media_type = "application/octet-stream")]
    image: String,
}

/// Turns an analysis failure into the user's message with a fitting status.
pub fn analysis_error(err: AnalysisError) -> ApiError {
    let status = match err {
        AnalysisError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        AnalysisError::CorruptImage(_)
        | AnalysisError::NoFace
        | AnalysisError::FaceTooSmall
        | AnalysisError::NoHand
        | AnalysisError::NotFeet => StatusCode::UNPROCESSABLE_ENTITY,
        AnalysisError::NotAnImage | AnalysisError::BadDimensions(..) => StatusCode::BAD_REQUEST,
    };
    ApiError::new(status, ErrorCode::from(&err), err.user_message()).with_cause(err)
}

/// Refuses a client that sends more analyses than the configured rate.
pub async fn limit_burst(state: &AppState, client: &ClientInfo) -> Result<(), ApiError> {
    let key = format!("analysis:{}", client.rate_key());
    let limit = state.config.analysis.per_client_per_minute;
    rate_limit::enforce(
        &state.db,
        &key,
        60,
        limit,
        "You're scoring photos very quickly. Please wait a minute and try again.",
    )
    .await
}

/// Checks the client's rate, reads the upload and runs `analyze` in the pool.
async fn analyze<T: Serialize + Send + 'static>(
    state: &AppState,
    client: &ClientInfo,
    multipart: Result<Multipart, MultipartRejection>,
    analyze: fn(&[u8]) -> Result<T, AnalysisError>,
) -> Result<Json<T>, ApiError> {
    // The rate first: a client over it must not get to send (and make us
    // buffer) another 10 MB.
    limit_burst(state, client).await?;
    let image: Bytes = upload::read_form(multipart?, &[]).await?.require_image()?;
    let result = state.blocking.run(move || analyze(&image)).await?;
    result.map(Json).map_err(analysis_error)
}

/// Scores a face photo: score, tier, breakdown, and what was measured where.
#[utoipa::path(post, path = "/analyses/face", tag = "analyses",
    request_body(content = ImageUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The face's score and measures", body = FaceAnalysis),
        (status = 400, description = "Not an image, or unsupported dimensions", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "`image_incomplete`: a cut-off or damaged photo; no face found, or too small", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ))]
async fn analyze_face(
    State(state): State<AppState>,
    client: ClientInfo,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<FaceAnalysis>, ApiError> {
    analyze(
        &state,
        &client,
        multipart,
        prettyscore_analysis::analyze_face,
    )
    .await
}

/// Scores a pet photo's cuteness (a whole number from 7 to 10).
#[utoipa::path(post, path = "/analyses/pet", tag = "analyses",
    request_body(content = ImageUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The pet's score and title", body = PetAnalysis),
        (status = 400, description = "Not an image, or unsupported dimensions", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "`image_incomplete`: a cut-off or damaged photo", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ))]
async fn analyze_pet(
    State(state): State<AppState>,
    client: ClientInfo,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<PetAnalysis>, ApiError> {
    analyze(
        &state,
        &client,
        multipart,
        prettyscore_analysis::analyze_pet,
    )
    .await
}

/// An analysis of a gated feature: access first, then the analysis, then
/// the trial (if that is how the caller got in) is used up.
async fn analyze_gated<T: Serialize + Send + 'static>(
    state: &AppState,
    client: &ClientInfo,
    user: &AuthUser,
    feature: Feature,
    multipart: Result<Multipart, MultipartRejection>,
    analyze_image: fn(&[u8]) -> Result<T, AnalysisError>,
) -> Result<Json<T>, ApiError> {
    let access = features::require_access(&state.db, user.user_id, feature).await?;
    let result = analyze(state, client, multipart, analyze_image).await?;
    features::use_once(&state.db, user.user_id, feature, access).await?;
    Ok(result)
}

/// Scores a feet photo. Premium (`feet_scoring`), or the one free trial.
#[utoipa::path(post, path = "/analyses/feet", tag = "analyses",
    request_body(content = ImageUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The score, label and breakdown", body = FeetAnalysis),
        (status = 400, description = "Not an image, or unsupported dimensions", body = ErrorBody),
        SignedInErrors,
        (status = 403, description = "`feature_locked`: neither Premium nor an active trial", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "`not_feet`: no feet found (too little bare skin, fur, a face or a hand), or `image_incomplete`: a cut-off or damaged photo", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn analyze_feet(
    State(state): State<AppState>,
    client: ClientInfo,
    user: AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<FeetAnalysis>, ApiError> {
    analyze_gated(
        &state,
        &client,
        &user,
        Feature::FeetScoring,
        multipart,
        prettyscore_analysis::analyze_feet,
    )
    .await
}

/// Scores a hands photo. Premium (`hands_scoring`), or the one free trial.
#[utoipa::path(post, path = "/analyses/hands", tag = "analyses",
    request_body(content = ImageUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The score, label and breakdown", body = HandsAnalysis),
        (status = 400, description = "Not an image, or unsupported dimensions", body = ErrorBody),
        SignedInErrors,
        (status = 403, description = "`feature_locked`: neither Premium nor an active trial", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "`no_hand`, or `image_incomplete`: a cut-off or damaged photo", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn analyze_hands(
    State(state): State<AppState>,
    client: ClientInfo,
    user: AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<HandsAnalysis>, ApiError> {
    analyze_gated(
        &state,
        &client,
        &user,
        Feature::HandsScoring,
        multipart,
        prettyscore_analysis::analyze_hands,
    )
    .await
}
