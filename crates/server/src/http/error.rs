//! The one error type at the HTTP edge. Every failure a user can cause has a
//! stable machine `code` and a message in the user's words; the cause of a 5xx
//! goes to the log, never to the client.

use std::borrow::Cow;

use axum::Json;
use axum::extract::multipart::MultipartRejection;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// The JSON body of every error answered under `/api/` and `/functions/`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable, machine-readable error code, e.g. `not_found`.
    pub code: String,
    /// Human-readable message, safe to show to the user.
    pub message: String,
}

#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: Cow<'static, str>,
    cause: Option<anyhow::Error>,
}

impl ApiError {
    pub fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            cause: None,
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn not_found(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn conflict(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    pub fn unavailable(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, code, message)
    }

    /// An unexpected failure: the client gets an opaque 500, the log gets the cause.
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        Self {
            cause: Some(cause.into()),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "Something went wrong on our side. Please try again.",
            )
        }
    }

    pub fn with_cause(mut self, cause: impl Into<anyhow::Error>) -> Self {
        self.cause = Some(cause.into());
        self
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn code(&self) -> &'static str {
        self.code
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            match &self.cause {
                Some(cause) => tracing::error!(code = self.code, error = ?cause, "request failed"),
                None => tracing::error!(code = self.code, "request failed"),
            }
        } else if let Some(cause) = &self.cause {
            tracing::debug!(code = self.code, error = %cause, "request refused");
        }
        let body = ErrorBody {
            code: self.code.to_owned(),
            message: self.message.into_owned(),
        };
        (self.status, Json(body)).into_response()
    }
}

impl From<sea_orm::DbErr> for ApiError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::internal(err)
    }
}

impl From<crate::blocking::BlockingError> for ApiError {
    fn from(err: crate::blocking::BlockingError) -> Self {
        Self::internal(err)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let (status, code, message) = match &rejection {
            JsonRejection::MissingJsonContentType(_) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "Send the request body as JSON (Content-Type: application/json).".to_owned(),
            ),
            JsonRejection::JsonSyntaxError(_) => (
                StatusCode::BAD_REQUEST,
                "invalid_json",
                "The request body is not valid JSON.".to_owned(),
            ),
            JsonRejection::JsonDataError(err) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "validation_failed",
                format!(
                    "The request body has a missing or invalid field: {}",
                    err.body_text()
                ),
            ),
            _ => (
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "The request body could not be read.".to_owned(),
            ),
        };
        Self::new(status, code, message).with_cause(rejection)
    }
}

impl From<MultipartRejection> for ApiError {
    fn from(rejection: MultipartRejection) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "invalid_upload",
            "Send the photo as a file upload (multipart/form-data).",
        )
        .with_cause(rejection)
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        Self::not_found("We couldn't find what you were looking for.").with_cause(rejection)
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request(
            "invalid_query",
            "The request has an invalid query parameter.",
        )
        .with_cause(rejection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;

    async fn body_of(err: ApiError) -> (StatusCode, serde_json::Value) {
        let response = err.into_response();
        let status = response.status();
        let bytes = to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn errors_carry_a_stable_code_and_the_users_message() {
        let (status, body) = body_of(ApiError::not_found("Contact request not found")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(
            body,
            serde_json::json!({"code": "not_found", "message": "Contact request not found"})
        );
    }

    #[tokio::test]
    async fn internal_errors_hide_their_cause() {
        let err = ApiError::internal(anyhow::anyhow!("password=hunter2 connection refused"));
        let (status, body) = body_of(err).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body["code"], "internal_error");
        assert!(!body.to_string().contains("hunter2"), "{body}");
    }
}
