//! Passkeys, in GoTrue's `/passkeys` API (auth-js's `passkey.*`,
//! `registerPasskey` and `signInWithPasskey`): a signed-in user registers
//! discoverable credentials; anyone signs in with one without typing an
//! address (the authenticator names the user); a user lists, renames and
//! removes theirs; the admin API lists and removes a user's.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
    TransactionTrait,
};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential,
};

use super::error::{AuthError, AuthResult};
use super::extract::{AuthJson, Bearer, ServiceRole};
use super::notices::{self, Change};
use super::reply::ok;
use super::webauthn::{self, Ceremony, account_name};
use super::{rate_limit, sessions, users as user_rules};
use crate::db::entities::{users, webauthn_credentials};
use crate::http::AppState;
use crate::http::extract::ClientInfo;

fn require_enabled(state: &AppState) -> AuthResult<()> {
    if state.config.auth.passkeys.enabled {
        Ok(())
    } else {
        Err(AuthError::not_found(
            "passkey_disabled",
            "Passkeys are disabled",
        ))
    }
}

fn passkey_not_found() -> AuthError {
    AuthError::not_found("validation_failed", "Passkey not found")
}

/// Registration is for people with an account: not anonymous users.
fn require_account(bearer: &Bearer) -> AuthResult<()> {
    if bearer.user.is_anonymous {
        return Err(AuthError::forbidden(
            "no_authorization",
            "Anonymous user not allowed to perform these actions",
        ));
    }
    Ok(())
}

/// With a second factor on, adding or removing a way in needs a session
/// that passed it (GoTrue's `requirePasskeyManagementAAL`).
async fn require_management_aal(state: &AppState, bearer: &Bearer) -> AuthResult<()> {
    if bearer.aal() != "aal2" && super::mfa::has_verified_factor(state, bearer.user.id).await? {
        return Err(AuthError::forbidden(
            "insufficient_aal",
            "AAL2 session is required to manage passkeys when MFA is enabled",
        ));
    }
    Ok(())
}

fn item_json(row: &webauthn_credentials::Model) -> Value {
    let mut item = json!({
        "id": row.id,
        "friendly_name": row.friendly_name.clone().unwrap_or_default(),
        "created_at": user_rules::time(Some(row.created_at)),
    });
    if let Some(used) = user_rules::time(row.last_used_at) {
        item["last_used_at"] = used;
    }
    item
}

async fn user_passkeys(
    db: &impl sea_orm::ConnectionTrait,
    user_id: Uuid,
) -> AuthResult<Vec<webauthn_credentials::Model>> {
    Ok(webauthn_credentials::Entity::find()
        .filter(webauthn_credentials::Column::UserId.eq(user_id))
        .order_by_asc(webauthn_credentials::Column::CreatedAt)
        .all(db)
        .await?)
}

fn display_name(user: &users::Model) -> String {
    ["display_name", "full_name", "name"]
        .iter()
        .find_map(|key| user.raw_user_meta_data.get(key)?.as_str())
        .filter(|name| !name.trim().is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| account_name(user))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CeremonyBody {
    pub challenge_id: Option<String>,
    pub credential: Option<Value>,
}

impl CeremonyBody {
    fn parts(self) -> AuthResult<(String, Value)> {
        let challenge_id = self
            .challenge_id
            .filter(|id| !id.is_empty())
            .ok_or_else(|| {
                AuthError::bad_request("validation_failed", "challenge_id is required")
            })?;
        let credential = self
            .credential
            .filter(|c| !c.is_null())
            .ok_or_else(|| AuthError::bad_request("validation_failed", "credential is required"))?;
        Ok((challenge_id, credential))
    }
}

fn parse<T: serde::de::DeserializeOwned>(credential: Value) -> AuthResult<T> {
    serde_json::from_value(credential).map_err(|err| {
        tracing::debug!("unreadable WebAuthn credential: {err}");
        AuthError::bad_request(
            "webauthn_verification_failed",
            "Invalid credential response",
        )
    })
}

/// `POST /passkeys/registration/options`: creation options for a new
/// discoverable credential, excluding the user's own.
pub async fn registration_options(
    State(state): State<AppState>,
    bearer: Bearer,
) -> AuthResult<Response> {
    require_enabled(&state)?;
    require_account(&bearer)?;
    require_management_aal(&state, &bearer).await?;
    let user = &bearer.user;
    let existing = user_passkeys(&state.db, user.id).await?;
    if existing.len() as u64 >= state.config.auth.passkeys.max_per_user {
        return Err(too_many());
    }
    let exclude = existing
        .iter()
        .filter_map(|row| BASE64URL_NOPAD.decode(row.credential_id.as_bytes()).ok())
        .collect::<Vec<_>>();
    let rp = webauthn::relying_party(&state)?;
    let (options, registration) = rp
        .start_passkey_registration(
            user.id,
            &account_name(user),
            &display_name(user),
            Some(exclude),
        )
        .map_err(AuthError::internal)?;
    let mut options = serde_json::to_value(options.public_key).map_err(AuthError::internal)?;
    // A passkey is a discoverable credential: sign-in starts without an
    // address, so the authenticator must keep the user's handle.
    options["authenticatorSelection"]["residentKey"] = json!("required");
    options["authenticatorSelection"]["requireResidentKey"] = json!(true);
    let (challenge_id, expires_at) = webauthn::store_challenge(
        &state.db,
        Some(user.id),
        Ceremony::Registration,
        &registration,
    )
    .await?;
    Ok(ok(json!({
        "challenge_id": challenge_id,
        "options": options,
        "expires_at": expires_at,
    })))
}

fn credential_exists() -> AuthError {
    AuthError::unprocessable(
        "webauthn_credential_exists",
        "This credential is already registered",
    )
}

fn too_many() -> AuthError {
    AuthError::unprocessable("too_many_passkeys", "Maximum number of passkeys reached")
}

/// `POST /passkeys/registration/verify`: checks the new credential against
/// its challenge and keeps it.
pub async fn registration_verify(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    AuthJson(body): AuthJson<CeremonyBody>,
) -> AuthResult<Response> {
    require_enabled(&state)?;
    require_account(&bearer)?;
    require_management_aal(&state, &bearer).await?;
    let user = &bearer.user;
    let (challenge_id, credential) = body.parts()?;
    let registration: PasskeyRegistration = webauthn::consume_challenge(
        &state.db,
        &challenge_id,
        Ceremony::Registration,
        Some(user.id),
    )
    .await?;
    let credential: RegisterPublicKeyCredential = parse(credential)?;
    // Said before the library's own check (the user's credentials are
    // excluded), in the same words whoever holds it.
    let known = webauthn_credentials::Entity::find()
        .filter(
            webauthn_credentials::Column::CredentialId
                .eq(BASE64URL_NOPAD.encode(&credential.raw_id)),
        )
        .count(&state.db)
        .await?;
    if known > 0 {
        return Err(credential_exists());
    }
    let rp = webauthn::relying_party(&state)?;
    let passkey = rp
        .finish_passkey_registration(&credential, &registration)
        .map_err(webauthn::verification_failed)?;
    let record = serde_json::to_string(&passkey).map_err(AuthError::internal)?;

    let txn = state.db.begin().await?;
    // Two tabs registering at once count each other's passkey.
    user_rules::lock(&txn, user.id).await?;
    let count = webauthn_credentials::Entity::find()
        .filter(webauthn_credentials::Column::UserId.eq(user.id))
        .count(&txn)
        .await?;
    if count >= state.config.auth.passkeys.max_per_user {
        return Err(too_many());
    }
    let now = Utc::now();
    let row = webauthn_credentials::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        credential_id: Set(BASE64URL_NOPAD.encode(passkey.cred_id())),
        credential: Set(record),
        sign_count: Set(0),
        friendly_name: Set(Some(match count {
            0 => "Passkey".to_owned(),
            n => format!("Passkey {}", n + 1),
        })),
        last_used_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&txn)
    .await
    .map_err(
        |err| match crate::db::constraints::violated_constraint(&err) {
            Some(violation) if violation.is("webauthn_credentials_credential_id_key") => {
                AuthError::unprocessable(
                    "webauthn_credential_exists",
                    "This credential is already registered",
                )
            }
            _ => AuthError::from(err),
        },
    )?;
    txn.commit().await?;
    crate::db::audit::record(
        &state.db,
        "passkey_created",
        Some(user.id),
        user.email.as_deref(),
        &client.ip,
        json!({"passkey_id": row.id}),
    )
    .await;
    notices::notify(
        &state,
        user,
        Change::PasskeyAdded,
        row.friendly_name.as_deref(),
        &client,
    )
    .await;
    Ok(ok(json!({
        "id": row.id,
        "friendly_name": row.friendly_name.clone().unwrap_or_default(),
        "created_at": item_json(&row)["created_at"],
    })))
}

/// `POST /passkeys/authentication/options`: a challenge for any of the
/// site's discoverable credentials (no user is named).
pub async fn authentication_options(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthJson(_body): AuthJson<Value>,
) -> AuthResult<Response> {
    require_enabled(&state)?;
    rate_limit::hit(
        &state.db,
        &format!("passkey:{}", client.rate_key()),
        300,
        state.config.auth.rate_limits.token_per_5min,
        AuthError::rate_limited,
    )
    .await?;
    // Each call stores a challenge row: one address stores at most a few
    // per challenge lifetime, which is what an honest sign-in page needs.
    rate_limit::hit(
        &state.db,
        &format!("passkey-options:{}", client.rate_key()),
        webauthn::CHALLENGE_TTL_SECS,
        webauthn::SIGN_IN_CHALLENGES_PER_ADDRESS,
        AuthError::rate_limited,
    )
    .await?;
    let rp = webauthn::relying_party(&state)?;
    let (options, authentication) = rp
        .start_discoverable_authentication()
        .map_err(AuthError::internal)?;
    let (challenge_id, expires_at) =
        webauthn::store_challenge(&state.db, None, Ceremony::Authentication, &authentication)
            .await?;
    Ok(ok(json!({
        "challenge_id": challenge_id,
        "options": options.public_key,
        "expires_at": expires_at,
    })))
}

/// `POST /passkeys/authentication/verify`: finds the user the authenticator
/// names, checks the assertion with their passkey and signs them in.
pub async fn authentication_verify(
    State(state): State<AppState>,
    client: ClientInfo,
    AuthJson(body): AuthJson<CeremonyBody>,
) -> AuthResult<Response> {
    require_enabled(&state)?;
    let (challenge_id, credential) = body.parts()?;
    let authentication: DiscoverableAuthentication =
        webauthn::consume_challenge(&state.db, &challenge_id, Ceremony::Authentication, None)
            .await?;
    let credential: PublicKeyCredential = parse(credential)?;
    let rp = webauthn::relying_party(&state)?;
    let (user_id, credential_id) = rp
        .identify_discoverable_authentication(&credential)
        .map_err(webauthn::verification_failed)?;
    let row = webauthn_credentials::Entity::find()
        .filter(
            webauthn_credentials::Column::CredentialId.eq(BASE64URL_NOPAD.encode(credential_id)),
        )
        .filter(webauthn_credentials::Column::UserId.eq(user_id))
        .one(&state.db)
        .await?
        .ok_or_else(|| webauthn::verification_failed("no such passkey"))?;
    let mut passkey: Passkey =
        serde_json::from_str(&row.credential).map_err(AuthError::internal)?;
    let result = rp
        .finish_discoverable_authentication_v2(&credential, authentication, &passkey)
        .map_err(webauthn::verification_failed)?;
    let user = user_rules::find(&state.db, user_id)
        .await?
        .ok_or_else(|| webauthn::verification_failed("the passkey's user is gone"))?;
    // GoTrue's passkey sign-in answers a ban with 403 (the shared session
    // code's password-grant shape is a 400).
    if user_rules::is_banned(&user) {
        return Err(AuthError::forbidden("user_banned", "User is banned"));
    }
    if user.email.is_some() && user.email_confirmed_at.is_none() {
        return Err(AuthError::forbidden(
            "email_not_confirmed",
            "Email not confirmed",
        ));
    }

    let now = Utc::now();
    let counter = i64::from(result.counter());
    let changed = passkey.update_credential(&result) == Some(true);
    let record = serde_json::to_string(&passkey).map_err(AuthError::internal)?;
    let mut update = webauthn_credentials::Entity::update_many()
        .col_expr(
            webauthn_credentials::Column::Credential,
            sea_orm::sea_query::Expr::value(record),
        )
        .filter(webauthn_credentials::Column::Id.eq(row.id));
    if counter > 0 {
        // The count moves forward in this one conditional update: of
        // assertions carrying the same count (a cloned key, or one answer
        // replayed on several challenges) exactly one signs in.
        update = update
            .col_expr(
                webauthn_credentials::Column::SignCount,
                sea_orm::sea_query::Expr::value(counter),
            )
            .filter(webauthn_credentials::Column::SignCount.lt(counter));
        if update.exec(&state.db).await?.rows_affected == 0 {
            return Err(webauthn::verification_failed(
                "the sign count did not move forward",
            ));
        }
    } else if changed {
        // An authenticator without a counter (always 0): only its flags move.
        update.exec(&state.db).await?;
    }
    webauthn_credentials::Entity::update_many()
        .col_expr(
            webauthn_credentials::Column::LastUsedAt,
            sea_orm::sea_query::Expr::value(now),
        )
        .filter(webauthn_credentials::Column::Id.eq(row.id))
        .exec(&state.db)
        .await?;
    let response = sessions::sign_in(&state, &user, "passkey", &client).await?;
    Ok(ok(response))
}

/// `GET /passkeys`: the signed-in user's passkeys, oldest first.
pub async fn list(State(state): State<AppState>, bearer: Bearer) -> AuthResult<Response> {
    require_enabled(&state)?;
    let rows = user_passkeys(&state.db, bearer.user.id).await?;
    Ok(ok(json!(rows.iter().map(item_json).collect::<Vec<_>>())))
}

async fn own_passkey(
    state: &AppState,
    user_id: Uuid,
    id: &str,
) -> AuthResult<webauthn_credentials::Model> {
    let id: Uuid = id.parse().map_err(|_| passkey_not_found())?;
    webauthn_credentials::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .filter(|row| row.user_id == user_id)
        .ok_or_else(passkey_not_found)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateBody {
    pub friendly_name: Option<String>,
}

/// `PATCH /passkeys/{id}`: renames one.
pub async fn update(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    Path(id): Path<String>,
    AuthJson(body): AuthJson<UpdateBody>,
) -> AuthResult<Response> {
    require_enabled(&state)?;
    let name = body
        .friendly_name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .ok_or_else(|| AuthError::bad_request("validation_failed", "friendly_name is required"))?;
    if name.chars().count() > 120 {
        return Err(AuthError::bad_request(
            "validation_failed",
            "friendly_name must be 120 characters or less",
        ));
    }
    let row = own_passkey(&state, bearer.user.id, &id).await?;
    let mut active: webauthn_credentials::ActiveModel = row.into();
    active.friendly_name = Set(Some(name));
    active.updated_at = Set(Utc::now());
    let row = active.update(&state.db).await?;
    crate::db::audit::record(
        &state.db,
        "passkey_updated",
        Some(bearer.user.id),
        bearer.user.email.as_deref(),
        &client.ip,
        json!({"passkey_id": row.id}),
    )
    .await;
    Ok(ok(item_json(&row)))
}

/// `DELETE /passkeys/{id}`: removes one (204).
pub async fn delete(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    Path(id): Path<String>,
) -> AuthResult<Response> {
    require_enabled(&state)?;
    require_management_aal(&state, &bearer).await?;
    let row = own_passkey(&state, bearer.user.id, &id).await?;
    remove(&state, &row).await?;
    crate::db::audit::record(
        &state.db,
        "passkey_deleted",
        Some(bearer.user.id),
        bearer.user.email.as_deref(),
        &client.ip,
        json!({"passkey_id": row.id}),
    )
    .await;
    notices::notify(
        &state,
        &bearer.user,
        Change::PasskeyRemoved,
        row.friendly_name.as_deref(),
        &client,
    )
    .await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Deletes `row`; of two deletes at once the second finds nothing.
async fn remove(state: &AppState, row: &webauthn_credentials::Model) -> AuthResult<()> {
    let gone = webauthn_credentials::Entity::delete_by_id(row.id)
        .exec(&state.db)
        .await?;
    if gone.rows_affected == 0 {
        return Err(passkey_not_found());
    }
    Ok(())
}

/// `GET /admin/users/{id}/passkeys`.
pub async fn admin_list(
    State(state): State<AppState>,
    _admin: ServiceRole,
    Path(user_id): Path<String>,
) -> AuthResult<Response> {
    let user = super::admin::load_user(&state, &user_id).await?;
    let rows = user_passkeys(&state.db, user.id).await?;
    Ok(ok(json!(rows.iter().map(item_json).collect::<Vec<_>>())))
}

/// `DELETE /admin/users/{id}/passkeys/{passkey_id}` (204).
pub async fn admin_delete(
    State(state): State<AppState>,
    _admin: ServiceRole,
    client: ClientInfo,
    Path((user_id, id)): Path<(String, String)>,
) -> AuthResult<Response> {
    let user = super::admin::load_user(&state, &user_id).await?;
    let row = own_passkey(&state, user.id, &id).await?;
    remove(&state, &row).await?;
    crate::db::audit::record(
        &state.db,
        "passkey_deleted",
        Some(user.id),
        user.email.as_deref(),
        "",
        json!({"passkey_id": row.id, "by": "admin"}),
    )
    .await;
    notices::notify(
        &state,
        &user,
        Change::PasskeyRemoved,
        row.friendly_name.as_deref(),
        &client,
    )
    .await;
    Ok(StatusCode::NO_CONTENT.into_response())
}
