//! Extractors: who is calling.
//!
//! - [`AuthUser`] / [`MaybeAuthUser`] for `/api` and `/functions`: a verified
//!   access token of a live session, refused in the `/api` error shape (401
//!   `not_signed_in`);
//! - [`Bearer`] for `/auth/v1` user endpoints and [`ServiceRole`] for the admin
//!   API, refused in GoTrue's shape;
//! - [`ClientInfo`] (address and user agent) and [`AuthJson`] (a body whose
//!   rejection is a GoTrue error).

use std::net::SocketAddr;

use axum::extract::{
    ConnectInfo, FromRequest, FromRequestParts, OptionalFromRequestParts, Request,
};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use sea_orm::EntityTrait;
use serde::de::DeserializeOwned;
use serde_json::Value;
use uuid::Uuid;

use super::error::AuthError;
use crate::db::entities::{sessions, users};
use crate::http::AppState;
use crate::http::error::ApiError;

/// The claims of a verified access token that the server relies on.
#[derive(Debug, Clone)]
pub struct Claims {
    pub sub: Option<Uuid>,
    pub role: String,
    pub session_id: Option<Uuid>,
    pub aal: String,
    pub email: Option<String>,
    pub is_anonymous: bool,
    pub raw: Value,
}

impl Claims {
    fn from_value(raw: Value) -> Self {
        let text = |name: &str| raw.get(name).and_then(Value::as_str).map(str::to_owned);
        Self {
            sub: text("sub").and_then(|s| s.parse().ok()),
            role: text("role").unwrap_or_default(),
            session_id: text("session_id").and_then(|s| s.parse().ok()),
            aal: text("aal").unwrap_or_else(|| "aal1".into()),
            email: text("email").filter(|e| !e.is_empty()),
            is_anonymous: raw
                .get("is_anonymous")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            raw,
        }
    }

    pub fn is_service_role(&self) -> bool {
        matches!(self.role.as_str(), "service_role" | "supabase_admin")
    }
}

fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|token| !token.is_empty())
}

/// Verifies the bearer token's signature and expiry.
async fn verified_claims(parts: &Parts, state: &AppState) -> Result<Claims, AuthError> {
    let token = bearer_token(parts).ok_or_else(|| {
        AuthError::new(
            StatusCode::UNAUTHORIZED,
            "no_authorization",
            "This endpoint requires a Bearer token",
        )
    })?;
    let claims = state
        .keys
        .verify(&state.db, token)
        .await
        .map_err(|err| AuthError::forbidden("bad_jwt", err.to_string()))?;
    Ok(Claims::from_value(claims))
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

/// A signed-in user calling `/api` or `/functions`.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: Uuid,
    pub session_id: Uuid,
    /// `aal1`, or `aal2` after a second factor in this session.
    pub aal: String,
    pub email: Option<String>,
    pub is_anonymous: bool,
}

pub fn not_signed_in() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "not_signed_in",
        "Please sign in to continue.",
    )
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let claims = verified_claims(parts, state)
            .await
            .map_err(|err| not_signed_in().with_cause(anyhow::anyhow!("{err}")))?;
        let (Some(user_id), Some(session_id)) = (claims.sub, claims.session_id) else {
            return Err(not_signed_in());
        };
        // A signed-out session ends at once, not when its access token expires.
        let session = sessions::Entity::find_by_id(session_id)
            .one(&state.db)
            .await?
            .filter(|session| session.user_id == user_id)
            .ok_or_else(not_signed_in)?;
        Ok(Self {
            user_id,
            session_id,
            aal: session.aal,
            email: claims.email,
            is_anonymous: claims.is_anonymous,
        })
    }
}

/// The signed-in user, if any: a missing token is `None`, a bad one an error.
#[derive(Debug, Clone)]
pub struct MaybeAuthUser(pub Option<AuthUser>);

impl FromRequestParts<AppState> for MaybeAuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if bearer_token(parts).is_none() {
            return Ok(Self(None));
        }
        Ok(Self(Some(
            <AuthUser as FromRequestParts<AppState>>::from_request_parts(parts, state).await?,
        )))
    }
}

impl OptionalFromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, ApiError> {
        Ok(MaybeAuthUser::from_request_parts(parts, state).await?.0)
    }
}

/// The caller's address (for rate limits, MFA challenges and the session) and
/// user agent.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub ip: String,
    pub user_agent: Option<String>,
}

impl FromRequestParts<AppState> for ClientInfo {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AuthError> {
        let forwarded = state
            .config
            .auth
            .trust_x_forwarded_for
            .then(|| parts.headers.get("x-forwarded-for"))
            .flatten()
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(',').next())
            .map(|ip| ip.trim().to_owned())
            .filter(|ip| !ip.is_empty());
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip().to_string());
        Ok(Self {
            ip: forwarded.or(peer).unwrap_or_else(|| "unknown".into()),
            user_agent: parts
                .headers
                .get(header::USER_AGENT)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned),
        })
    }
}

/// A JSON body; malformed bodies are GoTrue's `bad_json`, wrong field types
/// `validation_failed`. An empty body reads as `{}`.
#[derive(Debug, Clone, Default)]
pub struct AuthJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for AuthJson<T> {
    type Rejection = AuthError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AuthError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|_| AuthError::bad_request("bad_json", "Could not read the request body"))?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes).map(Self).map_err(|err| {
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
