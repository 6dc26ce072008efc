//! The auth API's extractors, refused in GoTrue's error shape:
//!
//! - [`Bearer`] for `/auth/v1` user endpoints and [`ServiceRole`] for the
//!   admin API;
//! - [`AuthJson`], a body whose rejection is a GoTrue error.
//!
//! `/api` and `/functions` use `http::extract`'s `AuthUser` instead.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use sea_orm::EntityTrait;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use super::error::AuthError;
use crate::db::entities::{sessions, users};
use crate::http::AppState;
use crate::http::extract::{Claims, TokenRefusal};

/// Verifies the bearer token's signature and expiry.
async fn verified_claims(parts: &Parts, state: &AppState) -> Result<Claims, AuthError> {
    crate::http::extract::verified_claims(parts, state)
        .await
        .map_err(|refusal| match refusal {
            TokenRefusal::Missing => AuthError::new(
                StatusCode::UNAUTHORIZED,
                "no_authorization",
                "This endpoint requires a Bearer token",
            ),
            TokenRefusal::Invalid(err) => AuthError::forbidden("bad_jwt", err.to_string()),
        })
}

/// A signed-in user calling `/auth/v1`: the token is valid, the user and the
/// session still exist.
#[derive(Debug, Clone)]
pub struct Bearer {
    pub claims: Claims,
    pub user: users::Model,
    pub session: Option<sessions::Model>,
}

impl Bearer {
    pub fn session_id(&self) -> Option<Uuid> {
        self.session.as_ref().map(|s| s.id)
    }

    pub fn aal(&self) -> &str {
        self.session.as_ref().map_or("aal1", |s| s.aal.as_str())
    }
}

impl FromRequestParts<AppState> for Bearer {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AuthError> {
        let claims = verified_claims(parts, state).await?;
        let Some(user_id) = claims.sub else {
            return Err(AuthError::forbidden(
                "bad_jwt",
                "invalid claim: missing sub claim",
            ));
        };
        let user = users::Entity::find_by_id(user_id)
            .one(&state.db)
            .await?
            .ok_or_else(|| {
                AuthError::forbidden(
                    "user_not_found",
                    "User from sub claim in JWT does not exist",
                )
            })?;
        if super::users::is_banned(&user) {
            return Err(AuthError::forbidden("user_banned", "User is banned"));
        }
        let session = match claims.session_id {
            Some(id) => Some(
                sessions::Entity::find_by_id(id)
                    .one(&state.db)
                    .await?
                    .ok_or_else(|| {
                        AuthError::forbidden(
                            "session_not_found",
                            "Session from session_id claim in JWT does not exist",
                        )
                    })?,
            ),
            None => None,
        };
        Ok(Self {
            claims,
            user,
            session,
        })
    }
}

/// A token with role `service_role` (or `supabase_admin`): opens the admin API.
#[derive(Debug, Clone)]
pub struct ServiceRole(pub Claims);

impl FromRequestParts<AppState> for ServiceRole {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AuthError> {
        let claims = verified_claims(parts, state).await?;
        if !claims.is_service_role() {
            return Err(AuthError::forbidden("not_admin", "User not allowed"));
        }
        Ok(Self(claims))
    }
}

/// Fields whose values are secrets: only NUL is refused in them.
const SECRET_FIELDS: &[&str] = &["password", "current_password"];

/// A JSON object body; malformed bodies (and any other JSON value) are
/// GoTrue's `bad_json`, wrong field types `validation_failed`. An empty body reads as `{}`; a body that is not sent
/// as `application/json` is refused with 415 (auth-js always sends it, and a
/// form post from another site cannot). Every string passes
/// [`crate::values::text`] (passwords only their NUL check) before any query.
#[derive(Debug, Clone, Default)]
pub struct AuthJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for AuthJson<T> {
    type Rejection = AuthError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AuthError> {
        let is_json = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(|mime| {
                let mime = mime.trim().to_ascii_lowercase();
                mime == "application/json"
                    || (mime.starts_with("application/") && mime.ends_with("+json"))
            });
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|rejection| {
                // A chunked body over the limit has no length to refuse early.
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    AuthError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "request_too_large",
                        super::error::BODY_TOO_LARGE,
                    )
                } else {
                    AuthError::bad_request("bad_json", "Could not read the request body")
                }
            })?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else if is_json != Some(true) {
            return Err(AuthError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "bad_json",
                "Request body must be JSON: send it with Content-Type: application/json",
            ));
        } else {
            &bytes
        };
        let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|err| {
            AuthError::bad_request(
                "bad_json",
                format!("Could not parse request body as JSON: {err}"),
            )
        })?;
        // Every auth body is an object (GoTrue decodes into a struct); serde
        // would read `[]` as a struct of defaults.
        if !value.is_object() {
            return Err(AuthError::bad_request(
                "bad_json",
                "Could not parse request body as JSON: expected an object",
            ));
        }
        crate::values::text::check_json(&value, SECRET_FIELDS)?;
        T::deserialize(value).map(Self).map_err(|err| {
            if err.is_data() {
                AuthError::validation(format!("Invalid request body: {err}"))
            } else {
                AuthError::bad_request(
                    "bad_json",
                    format!("Could not parse request body as JSON: {err}"),
                )
            }
        })
    }
}

/// A query string; a malformed one is GoTrue's 400 `validation_failed` in
/// the auth API's JSON shape, never axum's plain-text rejection.
#[derive(Debug, Clone, Default)]
pub struct AuthQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for AuthQuery<T> {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, AuthError> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|query| Self(query.0))
            .map_err(|rejection| {
                AuthError::validation(format!("Invalid query string: {}", rejection.body_text()))
            })
    }
}

/// An optional query parameter: absent and empty (`?page=`, as auth-js's
/// `admin.listUsers()` sends) are the same.
pub fn non_empty(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|value| !value.is_empty())
}
