//! The admin API (`/admin/*`, `/invite`) for a service-role token.

use axum::extract::{Path, State};
use axum::http::HeaderValue;
use axum::response::Response;
use chrono::Utc;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set, TransactionTrait,
};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use super::extract::{AuthJson, AuthQuery, ServiceRole, non_empty};
use super::notices::{self, Change};
use super::otp::{self, MailKind};
use super::reply::{RedirectQuery, api_url, ok};
use super::users::{self as user_rules, NewUser};
use super::{account, password};
use crate::db::entities::{mfa_factors, users};
use crate::http::AppState;
use crate::http::extract::ClientInfo;

/// Go-style durations as GoTrue takes them for `ban_duration`: `24h`,
/// `1h30m`, `90s`, or `none` to lift a ban.
pub fn parse_ban_duration(value: &str) -> AuthResult<Option<chrono::Duration>> {
    let invalid = || AuthError::validation(format!("invalid format for ban duration: {value}"));
    if value == "none" {
        return Ok(None);
    }
    let mut total = chrono::Duration::zero();
    let mut number = String::new();
    let mut chars = value.chars().peekable();
    if value.is_empty() {
        return Err(invalid());
    }
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        let mut unit = c.to_string();
        if c == 'm' && chars.peek() == Some(&'s') {
            unit.push(chars.next().unwrap_or('s'));
        }
        let amount: f64 = number.parse().map_err(|_| invalid())?;
        number.clear();
        let millis = match unit.as_str() {
            "h" => amount * 3_600_000.0,
            "m" => amount * 60_000.0,
            "s" => amount * 1000.0,
            "ms" => amount,
            _ => return Err(invalid()),
        };
        total += chrono::Duration::milliseconds(millis as i64);
    }
    if !number.is_empty() {
        return Err(invalid());
    }
    Ok(Some(total))
}

fn user_not_found() -> AuthError {
    AuthError::user_not_found()
}

pub(super) async fn load_user(state: &AppState, id: &str) -> AuthResult<users::Model> {
    let id: Uuid = id.parse().map_err(|_| user_not_found())?;
    user_rules::find(&state.db, id)
        .await?
        .ok_or_else(user_not_found)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AdminUserBody {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub password: Option<String>,
    pub email_confirm: Option<bool>,
    pub phone_confirm: Option<bool>,
    pub user_metadata: Option<Value>,
    pub app_metadata: Option<Value>,
    pub ban_duration: Option<String>,
    pub role: Option<String>,
}

pub async fn create_user(
    State(state): State<AppState>,
    _admin: ServiceRole,
    AuthJson(mut body): AuthJson<AdminUserBody>,
) -> AuthResult<Response> {
    let facts = crate::auth::community::take_signup_facts(
        &state.config.community,
        &mut body.user_metadata,
    )?;
    let email = body
        .email
        .as_deref()
        .filter(|e| !e.is_empty())
        .map(user_rules::normalise_email)
        .transpose()?;
    let phone = body
        .phone
        .as_deref()
        .filter(|p| !p.is_empty())
        .map(user_rules::normalise_phone)
        .transpose()?;
    if email.is_none() && phone.is_none() {
        return Err(AuthError::validation(
            "Unable to validate email address: invalid format",
        ));
    }
    if let Some(email) = &email
        && user_rules::find_by_email(&state.db, email).await?.is_some()
    {
        return Err(user_rules::email_exists());
    }
    let password_hash = match body.password.clone().filter(|p| !p.is_empty()) {
        Some(password) => {
            password::check_policy(&password, state.config.auth.password_min_length)?;
            Some(password::hash(password, state.config.auth.password_hash).await?)
        }
        None => None,
    };
    let txn = state.db.begin().await?;
    let mut user = user_rules::create(
        &txn,
        NewUser {
            email,
            phone,
            password_hash,
            user_metadata: body.user_metadata.clone(),
            app_metadata: body.app_metadata.clone(),
            email_confirmed: body.email_confirm.unwrap_or(false),
            phone_confirmed: body.phone_confirm.unwrap_or(false),
            role: body.role.clone(),
            facts,
            ..NewUser::default()
        },
    )
    .await?;
    if body.email_confirm == Some(true) {
        user = user_rules::confirm_email(&txn, &user).await?;
    }
    if let Some(ban) = body.ban_duration.as_deref() {
        user = apply_ban(&txn, user, ban).await?;
    }
    txn.commit().await?;
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

async fn apply_ban(
    db: &impl sea_orm::ConnectionTrait,
    user: users::Model,
    ban: &str,
) -> AuthResult<users::Model> {
    let until = parse_ban_duration(ban)?.map(|d| Utc::now() + d);
    let mut active: users::ActiveModel = user.into();
    active.banned_until = Set(until);
    active.updated_at = Set(Utc::now());
    let user = active.update(db).await?;
    if until.is_some() {
        crate::db::entities::sessions::Entity::delete_many()
            .filter(crate::db::entities::sessions::Column::UserId.eq(user.id))
            .exec(db)
            .await?;
    }
    Ok(user)
}

/// `?page=&per_page=`, read as GoTrue's `paginate` does: empty is absent,
/// anything but an unsigned integer is 400 "Bad Pagination Parameters".
#[derive(Debug, Default, Deserialize)]
pub struct PageQuery {
    pub page: Option<String>,
    pub per_page: Option<String>,
}

impl PageQuery {
    /// The page (from 1) and the page size (1 to 1000).
    pub fn parse(&self) -> AuthResult<(u64, u64)> {
        let number = |name: &str, value: &Option<String>, default: u64| match non_empty(value) {
            None => Ok(default),
            Some(text) => text.parse::<u64>().map_err(|_| {
                AuthError::validation(format!(
                    "Bad Pagination Parameters: {name} must be a non-negative integer, got {text:?}"
                ))
            }),
        };
        let page = number("page", &self.page, 1)?.max(1);
        let per_page = number("per_page", &self.per_page, 50)?.clamp(1, 1000);
        Ok((page, per_page))
    }
}

pub async fn list_users(
    State(state): State<AppState>,
    _admin: ServiceRole,
    AuthQuery(query): AuthQuery<PageQuery>,
) -> AuthResult<Response> {
    let (page, per_page) = query.parse()?;
    let total = users::Entity::find().count(&state.db).await?;
    let rows = users::Entity::find()
        .order_by_desc(users::Column::CreatedAt)
        .order_by_asc(users::Column::Id)
        .offset((page - 1) * per_page)
        .limit(per_page)
        .all(&state.db)
        .await?;
    let mut list = Vec::with_capacity(rows.len());
    for user in &rows {
        list.push(user_rules::user_json(&state.db, user).await?);
    }
    let mut response = ok(json!({"aud": "authenticated", "users": list}));
    let last = total.div_ceil(per_page).max(1);
    let base = format!("{}/admin/users", api_url(&state));
    let mut links = Vec::new();
    if page < last {
        links.push(format!(
            "<{base}?page={}&per_page={per_page}>; rel=\"next\"",
            page + 1
        ));
    }
    links.push(format!(
        "<{base}?page={last}&per_page={per_page}>; rel=\"last\""
    ));
    let headers = response.headers_mut();
    headers.insert("x-total-count", HeaderValue::from(total));
    if let Ok(value) = HeaderValue::from_str(&links.join(", ")) {
        headers.insert(axum::http::header::LINK, value);
    }
    Ok(response)
}

pub async fn get_user(
    State(state): State<AppState>,
    _admin: ServiceRole,
    Path(id): Path<String>,
) -> AuthResult<Response> {
    let user = load_user(&state, &id).await?;
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

pub async fn update_user(
    State(state): State<AppState>,
    _admin: ServiceRole,
    client: ClientInfo,
    Path(id): Path<String>,
    AuthJson(body): AuthJson<AdminUserBody>,
) -> AuthResult<Response> {
    let mut user = load_user(&state, &id).await?;
    // What the owner is told once the change is in.
    let mut old_email = None;
    let mut phone_changed = false;
    let txn = state.db.begin().await?;
    if let Some(email) = body.email.as_deref().filter(|e| !e.is_empty()) {
        let email = user_rules::normalise_email(email)?;
        if Some(&email) != user.email.as_ref() {
            old_email = user.email.clone();
            user = user_rules::set_email(&txn, &user, &email).await?;
        }
    }
    if let Some(phone) = body.phone.as_deref().filter(|p| !p.is_empty()) {
        let phone = user_rules::normalise_phone(phone)?;
        if Some(&phone) != user.phone.as_ref() {
            phone_changed = true;
            user = user_rules::set_phone(&txn, &user, &phone).await?;
        }
    }
    let password_changed = body.password.as_deref().is_some_and(|p| !p.is_empty());
    if let Some(password) = body.password.clone().filter(|p| !p.is_empty()) {
        password::check_policy(&password, state.config.auth.password_min_length)?;
        let hash = password::hash(password, state.config.auth.password_hash).await?;
        let mut active: users::ActiveModel = user.into();
        active.encrypted_password = Set(Some(hash));
        user = active.update(&txn).await?;
    }
    if body.email_confirm == Some(true) {
        user = user_rules::confirm_email(&txn, &user).await?;
    }
    let mut active: users::ActiveModel = user.clone().into();
    if let Some(data) = &body.user_metadata {
        active.raw_user_meta_data =
            Set(user_rules::merged_metadata(&user.raw_user_meta_data, data)?);
    }
    if let Some(data) = &body.app_metadata {
        active.raw_app_meta_data = Set(user_rules::merged_metadata(&user.raw_app_meta_data, data)?);
    }
    if let Some(role) = body.role.clone().filter(|r| !r.is_empty()) {
        active.role = Set(role);
    }
    if body.phone_confirm == Some(true) {
        active.phone_confirmed_at = Set(Some(Utc::now()));
    }
    active.updated_at = Set(Utc::now());
    user = active.update(&txn).await?;
    if let Some(ban) = body.ban_duration.as_deref() {
        user = apply_ban(&txn, user, ban).await?;
    }
    txn.commit().await?;
    if let Some(old) = old_email.as_deref() {
        notices::notify_email_change(&state, &user, old, &client).await;
    }
    if phone_changed {
        // Only its last two digits: the mail goes to an address, not the phone.
        let masked_phone = user.phone.as_deref().map(|phone| {
            let tail = &phone[phone.len().saturating_sub(2)..];
            format!("now ending in {tail}")
        });
        notices::notify(
            &state,
            &user,
            Change::Phone,
            masked_phone.as_deref(),
            &client,
        )
        .await;
    }
    if password_changed {
        notices::notify(&state, &user, Change::Password, None, &client).await;
    }
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

pub async fn delete_user(
    State(state): State<AppState>,
    _admin: ServiceRole,
    client: ClientInfo,
    Path(id): Path<String>,
    AuthJson(_body): AuthJson<Value>,
) -> AuthResult<Response> {
    let user = load_user(&state, &id).await?;
    let rendered = user_rules::user_json(&state.db, &user).await?;
    account::remove_user(&state, user.id, &client)
        .await
        .map_err(AuthError::internal)?;
    Ok(ok(rendered))
}

pub async fn list_factors(
    State(state): State<AppState>,
    _admin: ServiceRole,
    Path(id): Path<String>,
) -> AuthResult<Response> {
    let user = load_user(&state, &id).await?;
    let factors = mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(user.id))
        .order_by_asc(mfa_factors::Column::CreatedAt)
        .all(&state.db)
        .await?;
    Ok(ok(json!(
        factors
            .iter()
            .map(user_rules::factor_json)
            .collect::<Vec<_>>()
    )))
}

async fn load_factor(
    state: &AppState,
    user_id: &str,
    factor_id: &str,
) -> AuthResult<mfa_factors::Model> {
    let user = load_user(state, user_id).await?;
    let not_found = || AuthError::not_found("mfa_factor_not_found", "Factor not found");
    let factor_id: Uuid = factor_id.parse().map_err(|_| not_found())?;
    mfa_factors::Entity::find_by_id(factor_id)
        .one(&state.db)
        .await?
        .filter(|f| f.user_id == user.id)
        .ok_or_else(not_found)
}

pub async fn delete_factor(
    State(state): State<AppState>,
    _admin: ServiceRole,
    client: ClientInfo,
    Path((id, factor_id)): Path<(String, String)>,
) -> AuthResult<Response> {
    let factor = load_factor(&state, &id, &factor_id).await?;
    super::mfa::delete_factor(&state, &factor).await?;
    if factor.status == "verified"
        && let Some(user) = user_rules::find(&state.db, factor.user_id).await?
    {
        super::mfa::notify_factor(&state, &user, &factor, Change::FactorRemoved, &client).await;
    }
    Ok(ok(user_rules::factor_json(&factor)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FactorUpdate {
    pub friendly_name: Option<String>,
}

pub async fn update_factor(
    State(state): State<AppState>,
    _admin: ServiceRole,
    Path((id, factor_id)): Path<(String, String)>,
    AuthJson(body): AuthJson<FactorUpdate>,
) -> AuthResult<Response> {
    let factor = load_factor(&state, &id, &factor_id).await?;
    let mut active: mfa_factors::ActiveModel = factor.into();
    if let Some(name) = body.friendly_name {
        active.friendly_name = Set(Some(name).filter(|n| !n.is_empty()));
    }
    active.updated_at = Set(Utc::now());
    let factor = active.update(&state.db).await?;
    Ok(ok(user_rules::factor_json(&factor)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct InviteBody {
    pub email: Option<String>,
    pub data: Option<Value>,
}

/// Creates (or finds an unconfirmed) user to invite.
async fn invited_user(
    state: &AppState,
    email: &str,
    data: Option<Value>,
) -> AuthResult<users::Model> {
    match user_rules::find_by_email(&state.db, email).await? {
        Some(user) if user.email_confirmed_at.is_some() => Err(user_rules::email_exists()),
        Some(user) => Ok(user),
        None => {
            let txn = state.db.begin().await?;
            let user = user_rules::create(
                &txn,
                NewUser {
                    email: Some(email.to_owned()),
                    user_metadata: data,
                    invited: true,
                    ..NewUser::default()
                },
            )
            .await?;
            txn.commit().await?;
            Ok(user)
        }
    }
}

pub async fn invite(
    State(state): State<AppState>,
    _admin: ServiceRole,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(body): AuthJson<InviteBody>,
) -> AuthResult<Response> {
    let email = user_rules::normalise_email(body.email.as_deref().unwrap_or_default())?;
    let user = invited_user(&state, &email, body.data).await?;
    let target = otp::redirect_target(&state, query.redirect_to.as_deref());
    otp::mail_code_and_link(
        &state,
        user.id,
        otp::CONFIRMATION,
        &email,
        MailKind::Invite,
        &target,
        false,
    )
    .await?;
    let mut active: users::ActiveModel = user.into();
    active.invited_at = Set(Some(Utc::now()));
    active.confirmation_sent_at = Set(Some(Utc::now()));
    let user = active.update(&state.db).await?;
    Ok(ok(user_rules::user_json(&state.db, &user).await?))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GenerateLinkBody {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub email: Option<String>,
    pub new_email: Option<String>,
    pub password: Option<String>,
    pub data: Option<Value>,
    pub redirect_to: Option<String>,
}

/// `POST /admin/generate_link`: the link and code a mail would carry, without
/// sending the mail.
pub async fn generate_link(
    State(state): State<AppState>,
    _admin: ServiceRole,
    AuthQuery(query): AuthQuery<RedirectQuery>,
    AuthJson(body): AuthJson<GenerateLinkBody>,
) -> AuthResult<Response> {
    let email = user_rules::normalise_email(body.email.as_deref().unwrap_or_default())?;
    let kind = body.kind.clone().unwrap_or_default();
    let existing = user_rules::find_by_email(&state.db, &email).await?;
    let (user, token_type, relates_to, mail_kind) = match kind.as_str() {
        "signup" => {
            let user = match existing {
                Some(user) if user.email_confirmed_at.is_some() => {
                    return Err(user_rules::email_exists());
                }
                Some(user) => user,
                None => {
                    let password =
                        body.password
                            .clone()
                            .filter(|p| !p.is_empty())
                            .ok_or_else(|| {
                                AuthError::unprocessable(
                                    "validation_failed",
                                    "Signup requires a valid password",
                                )
                            })?;
                    password::check_policy(&password, state.config.auth.password_min_length)?;
                    let hash = password::hash(password, state.config.auth.password_hash).await?;
                    let txn = state.db.begin().await?;
                    let user = user_rules::create(
                        &txn,
                        NewUser {
                            email: Some(email.clone()),
                            password_hash: Some(hash),
                            user_metadata: body.data.clone(),
                            ..NewUser::default()
                        },
                    )
                    .await?;
                    txn.commit().await?;
                    user
                }
            };
            (
                user,
                otp::CONFIRMATION,
                email.clone(),
                MailKind::Confirmation,
            )
        }
        "invite" => {
            let user = invited_user(&state, &email, body.data.clone()).await?;
            (user, otp::CONFIRMATION, email.clone(), MailKind::Invite)
        }
        "magiclink" | "recovery" => {
            let user = existing.ok_or_else(user_not_found)?;
            let mail_kind = if kind == "recovery" {
                MailKind::Recovery
            } else {
                MailKind::MagicLink
            };
            (user, otp::RECOVERY, email.clone(), mail_kind)
        }
        "email_change_current" | "email_change_new" => {
            let user = existing.ok_or_else(user_not_found)?;
            let new_email =
                user_rules::normalise_email(body.new_email.as_deref().unwrap_or_default())?;
            if user_rules::find_by_email(&state.db, &new_email)
                .await?
                .is_some()
            {
                return Err(user_rules::email_exists());
            }
            let mut active: users::ActiveModel = user.into();
            active.new_email = Set(Some(new_email.clone()));
            active.email_change_sent_at = Set(Some(Utc::now()));
            let user = active.update(&state.db).await?;
            if kind == "email_change_new" {
                (
                    user,
                    otp::EMAIL_CHANGE_NEW,
                    new_email,
                    MailKind::EmailChange,
                )
            } else {
                (
                    user,
                    otp::EMAIL_CHANGE_CURRENT,
                    email.clone(),
                    MailKind::EmailChange,
                )
            }
        }
        _ => {
            return Err(AuthError::validation(
                "Invalid link type: use signup, invite, magiclink, recovery, email_change_current or email_change_new",
            ));
        }
    };
    let (code, hash) = otp::issue(&state.db, user.id, token_type, &relates_to).await?;
    let redirect = query.redirect_to.or(body.redirect_to);
    let target = otp::redirect_target(&state, redirect.as_deref());
    let link = otp::action_link(&state, &hash, mail_kind, &target, false);
    let mut value = user_rules::user_json(&state.db, &user).await?;
    let object = value.as_object_mut().expect("a user object");
    object.insert("action_link".into(), json!(link));
    object.insert("email_otp".into(), json!(code));
    object.insert("hashed_token".into(), json!(hash));
    object.insert("redirect_to".into(), json!(target));
    object.insert("verification_type".into(), json!(mail_kind.verify_type()));
    Ok(ok(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ban_durations_read_like_go() {
        assert_eq!(parse_ban_duration("none").unwrap(), None);
        assert_eq!(
            parse_ban_duration("24h").unwrap(),
            Some(chrono::Duration::hours(24))
        );
        assert_eq!(
            parse_ban_duration("1h30m").unwrap(),
            Some(chrono::Duration::minutes(90))
        );
        assert!(parse_ban_duration("forever").is_err());
        assert!(parse_ban_duration("12").is_err());
    }
}
