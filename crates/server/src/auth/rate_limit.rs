//! The auth API's rate limits (docs/auth-compat.md §9), counted by the shared
//! fixed-window counter in [`crate::rate_limit`].

use sea_orm::DatabaseConnection;

use super::error::{AuthError, AuthResult};

/// Counts one hit of `key` in the current window and fails with `error` once
/// more than `limit` hits fall in it.
pub async fn hit(
    db: &DatabaseConnection,
    key: &str,
    window_secs: i64,
    limit: u32,
    error: impl FnOnce() -> AuthError,
) -> AuthResult<()> {
    let count = crate::rate_limit::count_hit(db, key, window_secs).await?;
    if count > i64::from(limit) {
        return Err(error().with_retry_after(crate::rate_limit::window_remaining_secs(window_secs)));
    }
    Ok(())
}
