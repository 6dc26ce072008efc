//! Extractors whose rejections answer in the one error shape.

use axum::extract::FromRequest;

use super::error::ApiError;

/// `axum::Json`, but malformed bodies get our error shape instead of plain text.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}
