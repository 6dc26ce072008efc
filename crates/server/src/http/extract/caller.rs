//! Who is calling `/api` and `/functions`: the bearer token, verified, of a
//! live session. The auth API's own extractors (GoTrue's error shape) build on
//! [`verified_claims`].

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::StatusCode;
use axum::http::header;
use axum::http::request::Parts;
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};
use serde_json::Value;
use uuid::Uuid;

use super::session_cache::SessionState;
use crate::db::entities::{mfa_factors, sessions};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorCode};
use crate::tokens::JwtError;

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
    pub fn from_value(raw: Value) -> Self {
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

/// The token of an `Authorization: Bearer …` header.
pub fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|token| !token.is_empty())
}

/// Why a request's bearer token was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum TokenRefusal {
    #[error("no bearer token")]
    Missing,
    #[error(transparent)]
    Invalid(#[from] JwtError),
}

/// Verifies the bearer token's signature and expiry.
pub async fn verified_claims(parts: &Parts, state: &AppState) -> Result<Claims, TokenRefusal> {
    let token = bearer_token(parts).ok_or(TokenRefusal::Missing)?;
    let claims = state.keys.verify(&state.db, token).await?;
    Ok(Claims::from_value(claims))
}

/// A signed-in user calling `/api` or `/functions`.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: Uuid,
    pub session_id: Uuid,
    /// `aal1`, or `aal2` after a second factor in this session.
    pub aal: String,
    /// When the session began (the sign-in), for actions that need a fresh one.
    pub signed_in_at: chrono::DateTime<chrono::Utc>,
    pub email: Option<String>,
    pub is_anonymous: bool,
}

/// How long after signing in a session counts as fresh for actions that
/// cannot be undone (deleting the account).
pub const FRESH_SIGN_IN_SECS: i64 = 300;

impl AuthUser {
    /// Whether the session began at most [`FRESH_SIGN_IN_SECS`] ago.
    pub fn signed_in_recently(&self) -> bool {
        chrono::Utc::now() - self.signed_in_at <= chrono::Duration::seconds(FRESH_SIGN_IN_SECS)
    }
}

pub fn not_signed_in() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        ErrorCode::NotSignedIn,
        "Please sign in to continue.",
    )
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let claims = verified_claims(parts, state)
            .await
            .map_err(|err| not_signed_in().with_cause(err))?;
        let (Some(user_id), Some(session_id)) = (claims.sub, claims.session_id) else {
            return Err(not_signed_in());
        };
        // A signed-out session ends at once, not when its access token expires.
        let session = live_session(state, session_id, user_id)
            .await?
            .ok_or_else(not_signed_in)?;
        // A second factor protects the whole account, not only `/auth/v1`:
        // a user with a verified factor must have used it in this session.
        if session.aal != "aal2" && session.has_verified_factor {
            return Err(insufficient_aal());
        }
        Ok(Self {
            user_id,
            session_id,
            aal: session.aal,
            signed_in_at: session.created_at,
            email: claims.email,
            is_anonymous: claims.is_anonymous,
        })
    }
}

pub fn insufficient_aal() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::InsufficientAal,
        "Enter the code from your authenticator app to continue.",
    )
}

/// The user's live session and whether they have a verified second factor,
/// in one query, or from the recent reads of [`super::SessionCache`]: it
/// runs on every signed-in request.
async fn live_session(
    state: &AppState,
    session_id: Uuid,
    user_id: Uuid,
) -> Result<Option<SessionState>, sea_orm::DbErr> {
    let verified_factor = Query::select()
        .expr(Expr::val(1))
        .from(mfa_factors::Entity)
        .and_where(
            Expr::col((mfa_factors::Entity, mfa_factors::Column::UserId))
                .equals((sessions::Entity, sessions::Column::UserId)),
        )
        .and_where(Expr::col((mfa_factors::Entity, mfa_factors::Column::Status)).eq("verified"))
        .to_owned();
    if let Some(cached) = state.sessions.get(session_id, user_id) {
        return Ok(Some(cached));
    }
    let epoch = state.sessions.epoch();
    let session = sessions::Entity::find_by_id(session_id)
        .filter(sessions::Column::UserId.eq(user_id))
        .select_only()
        .column(sessions::Column::Aal)
        .column(sessions::Column::CreatedAt)
        .column_as(Expr::exists(verified_factor), "has_verified_factor")
        .into_model::<SessionState>()
        .one(&state.db)
        .await?;
    if let Some(session) = &session {
        state
            .sessions
            .put(session_id, user_id, epoch, session.clone());
    }
    Ok(session)
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
