//! Extractors: who is calling, and request parts whose rejections answer in
//! the one error shape.
//!
//! - [`AuthUser`] / [`MaybeAuthUser`]: a verified access token of a live
//!   session, refused with 401 `not_signed_in`;
//! - [`AdminUser`]: a signed-in user with the admin role, else 403
//!   `admin_only`;
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
mod roles;

use axum::extract::{FromRequest, FromRequestParts};

pub use caller::{
    AuthUser, Claims, MaybeAuthUser, TokenRefusal, bearer_token, not_signed_in, verified_claims,
};
pub use client::ClientInfo;
pub use roles::{ADMIN_ROLE, AdminUser, admin_only, is_admin};

use super::error::ApiError;

/// `axum::Json`, but malformed bodies get our error shape instead of plain text.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

/// `axum::extract::Query`, but an invalid query gets our error shape.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}
