//! The error shape of `/auth/v1` (docs/auth-compat.md §2). Every answer carries
//! `X-Supabase-Api-Version: 2024-01-01`, and the body holds both the current
//! and the legacy fields (`code`, `error_code`, `msg`, `message`), so every
//! auth-js version reads the same code and message.

use std::borrow::Cow;

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

pub const API_VERSION_HEADER: &str = "x-supabase-api-version";
pub const API_VERSION: &str = "2024-01-01";

/// The answer to a body above the auth API's limit (`super::MAX_BODY_BYTES`).
pub const BODY_TOO_LARGE: &str = "The request body is too large (at most 1 MB).";

#[derive(Debug)]
pub struct AuthError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: Cow<'static, str>,
    /// Extra top-level fields (`weak_password`, OAuth-style `error`).
    extra: Option<Value>,
    /// Seconds until a refused (429) request may be tried again.
    retry_after: Option<u64>,
    cause: Option<anyhow::Error>,
}

pub type AuthResult<T> = Result<T, AuthError>;

impl AuthError {
    pub fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            extra: None,
            retry_after: None,
            cause: None,
        }
    }

    /// The `Retry-After` of a 429 (60 s when not given).
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs.max(1));
        self
    }

    pub fn bad_request(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn unprocessable(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    pub fn forbidden(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    pub fn not_found(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }

    pub fn validation(message: impl Into<Cow<'static, str>>) -> Self {
        Self::bad_request("validation_failed", message)
    }

    pub fn too_many(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, code, message)
    }

    pub fn rate_limited() -> Self {
        Self::too_many(
            "over_request_rate_limit",
            "Request rate limit reached. Please try again later.",
        )
    }

    pub fn invalid_credentials() -> Self {
        Self::bad_request("invalid_credentials", "Invalid login credentials")
    }

    pub fn otp_expired() -> Self {
        Self::forbidden("otp_expired", "Token has expired or is invalid")
    }

    pub fn user_not_found() -> Self {
        Self::not_found("user_not_found", "User not found")
    }

    pub fn insufficient_aal(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "insufficient_aal", message)
    }

    pub fn weak_password(message: impl Into<Cow<'static, str>>, reasons: &[&str]) -> Self {
        let message = message.into();
        let mut err = Self::unprocessable("weak_password", message.clone());
        err.extra = Some(json!({"weak_password": {"message": message, "reasons": reasons}}));
        err
    }

    pub fn sms_unavailable() -> Self {
        Self::bad_request(
            "sms_send_failed",
            "Error sending SMS: no SMS provider is configured",
        )
    }

    /// Phone sign-in is off (no SMS provider is configured): 422
    /// `phone_provider_disabled`, with GoTrue's message for the endpoint.
    pub fn phone_disabled(message: &'static str) -> Self {
        Self::unprocessable("phone_provider_disabled", message)
    }

    /// An unexpected failure: an opaque 500 for the client, the cause in the
    /// log. The database out of reach is a 503 `database_unavailable` with
    /// `Retry-After` instead, in GoTrue's shape.
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        if cause.chain().any(|err| {
            err.downcast_ref::<sea_orm::DbErr>()
                .is_some_and(crate::db::is_unavailable)
        }) {
            return Self {
                cause: Some(cause),
                ..Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "database_unavailable",
                    crate::http::error::DATABASE_UNAVAILABLE,
                )
                .with_retry_after(crate::http::error::DATABASE_RETRY_AFTER_SECS)
            };
        }
        Self {
            cause: Some(cause),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "unexpected_failure",
                "Unexpected failure, please try again.",
            )
        }
    }

    /// The same failure (and cause in the log) under another code and message.
    pub fn with_code(mut self, code: &'static str, message: &'static str) -> Self {
        self.code = code;
        self.message = message.into();
        self
    }

    pub fn with_extra(mut self, extra: Value) -> Self {
        self.extra = Some(extra);
        self
    }
}

impl std::fmt::Display for AuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.message)
    }
}

/// A violated constraint is the caller's data, never an outage: GoTrue's
/// `conflict` (409) for a clash, `validation_failed` (422) for other rules.
/// Anything else is a 500. Known clashes (an email in use, a factor name)
/// are answered with their own codes before it comes to this.
impl From<sea_orm::DbErr> for AuthError {
    fn from(err: sea_orm::DbErr) -> Self {
        use crate::db::constraints::{ViolationKind, violated_constraint};
        use crate::http::error::{RULE_FALLBACK, UNIQUE_FALLBACK};
        let refused = match violated_constraint(&err).map(|violation| violation.kind) {
            None => return Self::internal(err),
            Some(ViolationKind::Unique) => {
                Self::new(StatusCode::CONFLICT, "conflict", UNIQUE_FALLBACK)
            }
            Some(_) => Self::unprocessable("validation_failed", RULE_FALLBACK),
        };
        Self {
            cause: Some(err.into()),
            ..refused
        }
    }
}

/// A refused character (NUL, a control, a bidi override): 400
/// `validation_failed`, before any query.
impl From<crate::values::text::TextError> for AuthError {
    fn from(err: crate::values::text::TextError) -> Self {
        Self::validation(err.message())
    }
}

impl From<sea_orm::TransactionError<AuthError>> for AuthError {
    fn from(err: sea_orm::TransactionError<AuthError>) -> Self {
        match err {
            sea_orm::TransactionError::Connection(err) => Self::internal(err),
            sea_orm::TransactionError::Transaction(err) => err,
        }
    }
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!(code = self.code, error = ?self.cause, "auth request failed");
        }
        let mut body = json!({
            "code": self.code,
            "error_code": self.code,
            "msg": self.message,
            "message": self.message,
        });
        if let (Some(Value::Object(extra)), Value::Object(body)) = (self.extra, &mut body) {
            body.extend(extra);
        }
        let mut response = (self.status, axum::Json(body)).into_response();
        response
            .headers_mut()
            .insert(API_VERSION_HEADER, HeaderValue::from_static(API_VERSION));
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                HeaderValue::from(self.retry_after.unwrap_or(60)),
            );
        } else if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn errors_carry_every_field_auth_js_reads_and_the_version_header() {
        let response =
            AuthError::weak_password("Password should be at least 6 characters.", &["length"])
                .into_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(response.headers()[API_VERSION_HEADER], API_VERSION);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["code"], "weak_password");
        assert_eq!(body["error_code"], "weak_password");
        assert_eq!(body["msg"], body["message"]);
        assert_eq!(body["weak_password"]["reasons"], json!(["length"]));
    }
}
