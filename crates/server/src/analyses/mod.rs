//! Scoring photos for the results screens: face, pet, feet and hands. The
//! analysis itself lives in the `prettyscore-analysis` crate; this module
//! reads the upload, bounds the work, limits bursts and answers. Nothing is
//! stored.

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use bytes::Bytes;
use prettyscore_analysis::{AnalysisError, FaceAnalysis, FeetAnalysis, HandsAnalysis, PetAnalysis};
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::{ClientInfo, Json};
use crate::http::upload;
use crate::rate_limit;

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
        AnalysisError::NoFace
        | AnalysisError::FaceTooSmall
        | AnalysisError::NoHand
        | AnalysisError::NotFeet => StatusCode::UNPROCESSABLE_ENTITY,
        AnalysisError::NotAnImage
        | AnalysisError::CorruptImage(_)
        | AnalysisError::BadDimensions(..) => StatusCode::BAD_REQUEST,
    };
    ApiError::new(status, ErrorCode::from(&err), err.user_message()).with_cause(err)
}

/// Refuses a client that sends more analyses than the configured rate.
pub async fn limit_burst(state: &AppState, client: &ClientInfo) -> Result<(), ApiError> {
    let limit = state.config.analysis.per_client_per_minute;
    let hits = rate_limit::count_hit(&state.db, &format!("analysis:{}", client.ip), 60).await?;
    if hits > i64::from(limit) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "You're scoring photos very quickly. Please wait a minute and try again.",
        ));
    }
    Ok(())
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
        (status = 400, description = "Not an image, or a damaged one", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 422, description = "No face found, or too small", body = ErrorBody),
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
        (status = 400, description = "Not an image, or a damaged one", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
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

/// Scores a feet photo.
#[utoipa::path(post, path = "/analyses/feet", tag = "analyses",
    request_body(content = ImageUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The score, label and breakdown", body = FeetAnalysis),
        (status = 400, description = "Not an image, or a damaged one", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ))]
async fn analyze_feet(
    State(state): State<AppState>,
    client: ClientInfo,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<FeetAnalysis>, ApiError> {
    analyze(
        &state,
        &client,
        multipart,
        prettyscore_analysis::analyze_feet,
    )
    .await
}

/// Scores a hands photo.
#[utoipa::path(post, path = "/analyses/hands", tag = "analyses",
    request_body(content = ImageUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The score, label and breakdown", body = HandsAnalysis),
        (status = 400, description = "Not an image, or a damaged one", body = ErrorBody),
        (status = 413, description = "Over 10 MB", body = ErrorBody),
        (status = 429, description = "Too many analyses from this client", body = ErrorBody),
    ))]
async fn analyze_hands(
    State(state): State<AppState>,
    client: ClientInfo,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<HandsAnalysis>, ApiError> {
    analyze(
        &state,
        &client,
        multipart,
        prettyscore_analysis::analyze_hands,
    )
    .await
}
