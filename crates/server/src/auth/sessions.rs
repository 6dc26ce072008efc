//! Sessions, access tokens and refresh-token rotation (docs/auth-compat.md §4, §6).
//!
//! Refresh tokens are opaque random strings; only their SHA-256 digest is
//! stored. Each use revokes the token and issues a child in the same session.
//! A revoked token is accepted again only when its child is still the live
//! token (two tabs refreshing at once) or within the reuse interval; any other
//! reuse means the token leaked, and the whole session is revoked.

use chrono::{DateTime, Utc};
use data_encoding::{BASE64URL_NOPAD, HEXLOWER};
use rand::RngCore;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, Set, TransactionTrait,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use crate::db::entities::{mfa_amr_claims, refresh_tokens, sessions, users};
use crate::http::AppState;
use crate::http::extract::ClientInfo;

pub fn digest(token: &str) -> String {
    HEXLOWER.encode(&Sha256::digest(token.as_bytes()))
}

fn random_token() -> String {
    let mut bytes = [0u8; 24];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    BASE64URL_NOPAD.encode(&bytes)
}

/// Stores a new refresh token for the session and returns it in clear.
pub async fn new_refresh_token(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    session_id: Uuid,
    parent: Option<String>,
) -> AuthResult<String> {
    let token = random_token();
    let now = Utc::now();
    refresh_tokens::ActiveModel {
        id: Set(Uuid::now_v7()),
        token: Set(digest(&token)),
        user_id: Set(user_id),
        session_id: Set(session_id),
        parent: Set(parent),
        revoked: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(token)
}

/// Records that `method` was used in the session (the `amr` claim).
pub async fn add_amr(db: &impl ConnectionTrait, session_id: Uuid, method: &str) -> AuthResult<()> {
    let now = Utc::now();
    let existing = mfa_amr_claims::Entity::find()
        .filter(mfa_amr_claims::Column::SessionId.eq(session_id))
        .filter(mfa_amr_claims::Column::AuthenticationMethod.eq(method))
        .one(db)
        .await?;
    match existing {
        Some(claim) => {
            let mut active: mfa_amr_claims::ActiveModel = claim.into();
            active.updated_at = Set(now);
            active.update(db).await?;
        }
        None => {
            mfa_amr_claims::ActiveModel {
                id: Set(Uuid::now_v7()),
                session_id: Set(session_id),
                authentication_method: Set(method.to_owned()),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(db)
            .await?;
        }
    }
    Ok(())
}

/// Signs the user in: a new session (aal1) with `method` in its `amr`, and
/// the token response.
pub async fn sign_in(
    state: &AppState,
    user: &users::Model,
    method: &str,
    client: &ClientInfo,
) -> AuthResult<Value> {
    if super::users::is_banned(user) {
        return Err(AuthError::bad_request("user_banned", "User is banned"));
    }
    let txn = state.db.begin().await?;
    let now = Utc::now();
    let session = sessions::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        aal: Set("aal1".into()),
        factor_id: Set(None),
        not_after: Set(None),
        refreshed_at: Set(None),
        user_agent: Set(client.user_agent.clone()),
        ip: Set(Some(client.ip.clone())),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&txn)
    .await?;
    add_amr(&txn, session.id, method).await?;
    let refresh_token = new_refresh_token(&txn, user.id, session.id, None).await?;
    let user = super::users::touch_sign_in(&txn, user).await?;
    let response = token_response(state, &txn, &user, &session, &refresh_token).await?;
    txn.commit().await?;
    crate::db::audit::record(
        &state.db,
        "login",
        Some(user.id),
        user.email.as_deref(),
        &client.ip,
        json!({"provider": method, "session_id": session.id}),
    )
    .await;
    Ok(response)
}

/// The access token of `session` for `user`, and its expiry (unix seconds).
pub async fn access_token(
    state: &AppState,
    db: &impl ConnectionTrait,
    user: &users::Model,
    session: &sessions::Model,
) -> AuthResult<(String, i64)> {
    let amr: Vec<Value> = mfa_amr_claims::Entity::find()
        .filter(mfa_amr_claims::Column::SessionId.eq(session.id))
        .order_by_desc(mfa_amr_claims::Column::UpdatedAt)
        .all(db)
        .await?
        .into_iter()
        .map(|claim| json!({"method": claim.authentication_method, "timestamp": claim.updated_at.timestamp()}))
        .collect();
    let now = Utc::now().timestamp();
    let exp = now + state.config.auth.jwt_expiry_secs as i64;
    let claims = json!({
        "iss": super::reply::api_url(state),
        "sub": user.id,
        "aud": user.aud,
        "exp": exp,
        "iat": now,
        "email": user.email.clone().unwrap_or_default(),
        "phone": user.phone.clone().unwrap_or_default(),
        "app_metadata": user.raw_app_meta_data,
        "user_metadata": user.raw_user_meta_data,
        "role": user.role,
        "aal": session.aal,
        "amr": amr,
        "session_id": session.id,
        "is_anonymous": user.is_anonymous,
    });
    Ok((state.keys.sign(&claims), exp))
}

/// The token response of docs/auth-compat.md §3.
pub async fn token_response(
    state: &AppState,
    db: &impl ConnectionTrait,
    user: &users::Model,
    session: &sessions::Model,
    refresh_token: &str,
) -> AuthResult<Value> {
    let (access_token, expires_at) = access_token(state, db, user, session).await?;
    Ok(json!({
        "access_token": access_token,
        "token_type": "bearer",
        "expires_in": state.config.auth.jwt_expiry_secs,
        "expires_at": expires_at,
        "refresh_token": refresh_token,
        "user": super::users::user_json(db, user).await?,
    }))
}

fn already_used() -> AuthError {
    AuthError::bad_request(
        "refresh_token_already_used",
        "Invalid Refresh Token: Already Used",
    )
}

/// `grant_type=refresh_token`.
pub async fn refresh(state: &AppState, token: &str) -> AuthResult<Value> {
    let not_found = || {
        AuthError::bad_request(
            "refresh_token_not_found",
            "Invalid Refresh Token: Refresh Token Not Found",
        )
    };
    let hash = digest(token);
    let found = refresh_tokens::Entity::find()
        .filter(refresh_tokens::Column::Token.eq(hash.as_str()))
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;

    let txn = state.db.begin().await?;
    // Writing to the session row first serialises concurrent refreshes of one
    // session: a row lock on PostgreSQL, the write lock on SQLite.
    let now = Utc::now();
    let locked = sessions::Entity::update_many()
        .col_expr(sessions::Column::UpdatedAt, Expr::value(now))
        .filter(sessions::Column::Id.eq(found.session_id))
        .exec(&txn)
        .await?;
    if locked.rows_affected == 0 {
        return Err(AuthError::bad_request(
            "session_not_found",
            "Session not found",
        ));
    }
    let session = sessions::Entity::find_by_id(found.session_id)
        .one(&txn)
        .await?
        .ok_or_else(|| AuthError::bad_request("session_not_found", "Session not found"))?;
    if session.not_after.is_some_and(|at| at < now) {
        return Err(AuthError::bad_request("session_expired", "Session expired"));
    }
    let user = users::Entity::find_by_id(found.user_id)
        .one(&txn)
        .await?
        .ok_or_else(|| AuthError::bad_request("user_not_found", "User not found"))?;
    if super::users::is_banned(&user) {
        return Err(AuthError::bad_request("user_banned", "User is banned"));
    }
    let current = refresh_tokens::Entity::find_by_id(found.id)
        .one(&txn)
        .await?
        .ok_or_else(not_found)?;

    let parent = if !current.revoked {
        revoke(&txn, current.id).await?;
        current.token.clone()
    } else {
        let live = refresh_tokens::Entity::find()
            .filter(refresh_tokens::Column::SessionId.eq(session.id))
            .filter(refresh_tokens::Column::Revoked.eq(false))
            .order_by_desc(refresh_tokens::Column::CreatedAt)
            .one(&txn)
            .await?;
        let child_is_live = live
            .as_ref()
            .is_some_and(|live| live.parent.as_deref() == Some(current.token.as_str()));
        let interval =
            chrono::Duration::seconds(state.config.auth.refresh_token_reuse_interval_secs as i64);
        let within_interval = revoked_at(&current) + interval >= now;
        if !(child_is_live || within_interval) {
            // Reuse of an old token: the family is compromised.
            sessions::Entity::delete_by_id(session.id)
                .exec(&txn)
                .await?;
            txn.commit().await?;
            crate::db::audit::record(
                &state.db,
                "token_revoked",
                Some(user.id),
                user.email.as_deref(),
                "",
                json!({"reason": "refresh_token_reused", "session_id": session.id}),
            )
            .await;
            tracing::warn!(session = %session.id, "refresh token reused; session revoked");
            return Err(already_used());
        }
        match live {
            Some(live) => {
                revoke(&txn, live.id).await?;
                live.token
            }
            None => current.token.clone(),
        }
    };
    let refresh_token = new_refresh_token(&txn, user.id, session.id, Some(parent)).await?;
    let mut active: sessions::ActiveModel = session.clone().into();
    active.refreshed_at = Set(Some(now));
    let session = active.update(&txn).await?;
    let response = token_response(state, &txn, &user, &session, &refresh_token).await?;
    txn.commit().await?;
    Ok(response)
}

fn revoked_at(token: &refresh_tokens::Model) -> DateTime<Utc> {
    token.updated_at
}

async fn revoke(db: &impl ConnectionTrait, id: Uuid) -> AuthResult<()> {
    refresh_tokens::Entity::update_many()
        .col_expr(refresh_tokens::Column::Revoked, Expr::value(true))
        .col_expr(refresh_tokens::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(refresh_tokens::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// Issues a fresh token pair for an existing session (after MFA), chained to
/// the session's live token so the client's old token still resolves.
pub async fn reissue(
    state: &AppState,
    db: &impl ConnectionTrait,
    user: &users::Model,
    session: &sessions::Model,
) -> AuthResult<Value> {
    let live = refresh_tokens::Entity::find()
        .filter(refresh_tokens::Column::SessionId.eq(session.id))
        .filter(refresh_tokens::Column::Revoked.eq(false))
        .order_by_desc(refresh_tokens::Column::CreatedAt)
        .one(db)
        .await?;
    let parent = match live {
        Some(live) => {
            revoke(db, live.id).await?;
            Some(live.token)
        }
        None => None,
    };
    let refresh_token = new_refresh_token(db, user.id, session.id, parent).await?;
    token_response(state, db, user, session, &refresh_token).await
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    Local,
    Others,
}

impl Scope {
    pub fn parse(value: Option<&str>) -> AuthResult<Self> {
        match value.unwrap_or("global") {
            "global" | "" => Ok(Self::Global),
            "local" => Ok(Self::Local),
            "others" => Ok(Self::Others),
            _ => Err(AuthError::validation(
                "Unsupported logout scope: use global, local or others",
            )),
        }
    }
}

/// Deletes the sessions the scope names (their refresh tokens go with them).
pub async fn sign_out(
    db: &DatabaseConnection,
    user_id: Uuid,
    session_id: Option<Uuid>,
    scope: Scope,
) -> AuthResult<()> {
    let mut delete = sessions::Entity::delete_many().filter(sessions::Column::UserId.eq(user_id));
    match (scope, session_id) {
        (Scope::Global, _) => {}
        (Scope::Local, Some(id)) => delete = delete.filter(sessions::Column::Id.eq(id)),
        (Scope::Others, Some(id)) => delete = delete.filter(sessions::Column::Id.ne(id)),
        (_, None) => return Ok(()),
    }
    delete.exec(db).await?;
    Ok(())
}
