//! A request over its rate is a 429 that says when to try again. The counting
//! itself ([`crate::rate_limit`]) is shared by every instance.

use axum::http::StatusCode;
use sea_orm::DatabaseConnection;

use crate::http::error::{ApiError, ErrorCode};
use crate::rate_limit::{count_hit, window_remaining_secs};

/// Counts one hit of `key` in the current window of `window_secs` seconds and
/// refuses it, with `message` and a `Retry-After` for the window's end, once
/// the window holds more than `limit`.
pub async fn enforce(
    db: &DatabaseConnection,
    key: &str,
    window_secs: i64,
    limit: u32,
    message: &'static str,
) -> Result<(), ApiError> {
    if count_hit(db, key, window_secs).await? > i64::from(limit) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            message,
        )
        .with_retry_after(window_remaining_secs(window_secs)));
    }
    Ok(())
}
