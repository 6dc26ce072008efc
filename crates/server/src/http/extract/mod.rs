//! Extractors: who is calling, and request parts whose rejections answer in
//! the one error shape.
//!
//! - [`AuthUser`] / [`MaybeAuthUser`]: a verified access token of a live
//!   session, refused with 401 `not_signed_in`;
//!   and 403 `insufficient_aal` when the user has a verified second factor
//!   but this session has not used it (aal1);
//! - [`AdminUser`]: a signed-in user with the admin role, else 403
//!   `admin_only`;
//! - [`CommunityMember`]: a signed-in adult with the current terms accepted
//!   and a confirmed address, else 403 `age_required`, `terms_required` or
//!   `confirmation_required` (the one community gate, issue 41);
//! - [`ClientInfo`]: the caller's address and user agent;
//! - [`Json`]: a JSON body whose rejection is an [`ApiError`];
//! - [`Query`]: query parameters whose rejection is an [`ApiError`] (400
//!   `invalid_query`, not axum's plain text).
//!
//! Roles and entitlements are extractors too, so a handler that needs one
//! cannot forget to check it: a handler taking an `AuthUser` is never reached
//! without a signed-in user.

mod caller;
mod client;
mod community;
mod roles;
mod session_cache;

use axum::extract::{FromRequest, FromRequestParts};

pub use caller::{
    AuthUser, Claims, FRESH_SIGN_IN_SECS, MaybeAuthUser, TokenRefusal, bearer_token,
    insufficient_aal, not_signed_in, verified_claims,
};
pub use client::{ClientInfo, client_ip, rate_key};
pub use community::{
    CommunityMember, Standing, age_required, confirmation_required, require_member, standing,
    terms_required,
};
pub use roles::{ADMIN_ROLE, AdminAction, AdminUser, admin_only, is_admin};
pub use session_cache::{SESSION_CACHE_TTL, SessionCache, forget_recent_reads_after_writes};

use super::error::ApiError;

/// `axum::Json`, but malformed bodies get our error shape instead of plain
/// text, and every string in the body passes [`crate::values::text`] (no NUL,
/// control or bidi-override characters) before the handler runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_request(req, state).await?;
        crate::values::text::check_json(&value, &[])?;
        T::deserialize(value).map(Self).map_err(|err| {
            ApiError::invalid(format!(
                "The request body has a missing or invalid field: {err}"
            ))
        })
    }
}

/// `axum::extract::Path`, but a malformed id is our 404 in the error shape
/// (axum's is plain text), like an id that names nothing.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// `axum::extract::Query`, but an invalid query gets our error shape.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}
