//! Stored images as the web sees them: read back only through short-lived
//! signed URLs (an `<img>` cannot send the user's bearer token), served at
//! `/media/{key}`; metadata stripped before anything is stored (`strip`); our
//! own media URLs read back strictly (`url`).

pub mod strip;
pub mod url;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use chrono::Utc;
use serde::Deserialize;

use crate::http::AppState;
use crate::http::error::ApiError;

pub use strip::{StoredImage, prepare_for_storage};
pub use url::{MediaRef, MediaUrlError, parse_media_url};

/// How long a signed media URL works.
pub const URL_LIFETIME_SECS: i64 = 3600;

/// `/media/{*key}`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/media/{*key}", axum::routing::get(serve))
}

/// The object key behind a media path (`/media/<key>`).
pub fn key_of(media_path: &str) -> Option<&str> {
    media_path.strip_prefix("/media/")
}

pub fn media_path(key: &str) -> String {
    format!("/media/{key}")
}

/// A URL that shows the object for the next hour. Its token is an
/// HMAC-SHA256 under a key derived from the current signing key (shared by
/// every instance, rotated with it): only this server reads it back, so it
/// needs no public-key signature.
pub fn signed_url(state: &AppState, media_path: &str) -> String {
    let Some(key) = key_of(media_path) else {
        return media_path.to_owned();
    };
    let token = state
        .keys
        .sign_media(key, Utc::now().timestamp() + URL_LIFETIME_SECS);
    format!("{media_path}?token={token}")
}

/// Whether `token` is a live media token, by this server, for exactly `key`:
/// whoever holds it was given that image.
pub async fn token_grants(state: &AppState, key: &str, token: &str) -> bool {
    state.keys.verify_media(&state.db, key, token).await
}

#[derive(Deserialize)]
pub struct MediaQuery {
    token: Option<String>,
}

/// `GET /media/{key}`: the image, when the URL's signature and lifetime hold.
pub async fn serve(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(query): Query<MediaQuery>,
) -> Result<Response, ApiError> {
    let not_found = || ApiError::not_found("This image does not exist or its link has expired.");
    let token = query.token.ok_or_else(not_found)?;
    if !token_grants(&state, &key, &token).await {
        return Err(not_found());
    }
    let bytes = state
        .storage
        .get(&key)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_found)?;
    let bytes_are_png = bytes.starts_with(b"\x89PNG");
    let mut response = Response::new(Body::from(bytes));
    let headers = response.headers_mut();
    let content_type = if bytes_are_png {
        "image/png"
    } else {
        "image/jpeg"
    };
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(response)
}
