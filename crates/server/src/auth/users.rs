//! Users: queries, creation (with the identity and the profile row) and the
//! User object of docs/auth-compat.md §3.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use crate::db::entities::{identities, mfa_factors, profiles, users};

/// Lower-cased, trimmed; checked for a plausible shape.
pub fn normalise_email(email: &str) -> AuthResult<String> {
    let email = email.trim();
    if email.is_empty() {
        return Err(AuthError::validation("An email address is required"));
    }
    if email.len() > 255 {
        return Err(AuthError::validation("An email address is too long"));
    }
    if !is_valid_email(email) {
        return Err(AuthError::validation(
            "Unable to validate email address: invalid format",
        ));
    }
    Ok(email.to_lowercase())
}

pub use crate::values::person::is_valid_email;

/// E.164 without the plus sign, as GoTrue stores phones: its
/// `validatePhone` drops a leading `+` and the spaces, then wants
/// `^[1-9][0-9]{1,14}$`.
pub fn normalise_phone(phone: &str) -> AuthResult<String> {
    let digits: String = phone
        .trim()
        .trim_start_matches('+')
        .chars()
        .filter(|c| *c != ' ')
        .collect();
    let valid = (2..=15).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0');
    if !valid {
        return Err(AuthError::bad_request(
            "validation_failed",
            "Invalid phone number format (E.164 required)",
        ));
    }
    Ok(digits)
}

pub fn is_banned(user: &users::Model) -> bool {
    user.banned_until.is_some_and(|until| until > Utc::now())
}

pub async fn find_by_email(
    db: &impl ConnectionTrait,
    email: &str,
) -> AuthResult<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::Email.eq(email))
        .one(db)
        .await?)
}

/// Locks the user's row until the transaction `db` ends: a write takes
/// SQLite's write lock and PostgreSQL's row lock, so a second request that
/// counts or changes the user's ways in waits and then sees the first's.
pub async fn lock(db: &impl ConnectionTrait, id: Uuid) -> AuthResult<()> {
    users::Entity::update_many()
        .col_expr(
            users::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(Utc::now()),
        )
        .filter(users::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

pub async fn find(db: &impl ConnectionTrait, id: Uuid) -> AuthResult<Option<users::Model>> {
    Ok(users::Entity::find_by_id(id).one(db).await?)
}

/// What a new user starts with.
#[derive(Debug, Default)]
pub struct NewUser {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub password_hash: Option<String>,
    pub user_metadata: Option<Value>,
    pub app_metadata: Option<Value>,
    pub email_confirmed: bool,
    pub phone_confirmed: bool,
    pub is_anonymous: bool,
    pub invited: bool,
    pub role: Option<String>,
    /// Signing up through an outside provider: its identity is created
    /// instead of the email one.
    pub provider_identity: Option<ProviderIdentity>,
    /// The date of birth and terms the sign-up declared
    /// ([`super::community::take_signup_facts`]).
    pub facts: super::community::SignupFacts,
}

/// An outside provider's identity (`google`, the person's `sub`, the claims).
#[derive(Debug, Clone)]
pub struct ProviderIdentity {
    pub provider: String,
    pub subject: String,
    pub data: Value,
}

/// Creates the user, its identity (`email`, `phone` or none for anonymous)
/// and its profile row, in the caller's transaction.
pub async fn create(db: &impl ConnectionTrait, new: NewUser) -> AuthResult<users::Model> {
    let id = Uuid::new_v4();
    let now = Utc::now();
    let provider = if let Some(identity) = &new.provider_identity {
        Some(identity.provider.as_str())
    } else if new.email.is_some() {
        Some("email")
    } else if new.phone.is_some() {
        Some("phone")
    } else {
        None
    };
    let mut app_metadata = match new.app_metadata {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    app_metadata.insert("provider".into(), json!(provider.unwrap_or("anonymous")));
    app_metadata.insert(
        "providers".into(),
        json!(provider.map(|p| vec![p]).unwrap_or_default()),
    );
    let user_metadata = match new.user_metadata {
        Some(Value::Object(map)) => Value::Object(strip_nulls(map)),
        _ => json!({}),
    };
    let user_metadata = checked_user_metadata(&user_metadata)?;
    check_metadata_size(&user_metadata)?;
    check_metadata_size(&Value::Object(app_metadata.clone()))?;
    let user = users::ActiveModel {
        id: Set(id),
        aud: Set("authenticated".into()),
        role: Set(new.role.unwrap_or_else(|| "authenticated".into())),
        email: Set(new.email.clone()),
        encrypted_password: Set(new.password_hash),
        email_confirmed_at: Set(new.email_confirmed.then_some(now)),
        invited_at: Set(new.invited.then_some(now)),
        confirmation_sent_at: Set(None),
        recovery_sent_at: Set(None),
        new_email: Set(None),
        email_change_sent_at: Set(None),
        email_change_confirm_status: Set(0),
        phone: Set(new.phone.clone()),
        phone_confirmed_at: Set(new.phone_confirmed.then_some(now)),
        new_phone: Set(None),
        phone_change_sent_at: Set(None),
        reauthentication_sent_at: Set(None),
        last_sign_in_at: Set(None),
        raw_app_meta_data: Set(Value::Object(app_metadata)),
        raw_user_meta_data: Set(user_metadata),
        is_anonymous: Set(new.is_anonymous),
        banned_until: Set(None),
        deleted_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await
    .map_err(|err| match constraint_name(&err).as_deref() {
        Some("users_email_key") => email_exists(),
        Some("users_phone_key") => AuthError::unprocessable(
            "phone_exists",
            "A user with this phone number has already been registered",
        ),
        _ => AuthError::from(err),
    })?;
    if let Some(provider) = provider {
        let (subject, data) = match &new.provider_identity {
            Some(identity) => (identity.subject.clone(), identity.data.clone()),
            None => {
                let subject = id.to_string();
                let data = json!({
                    "sub": subject,
                    "email": new.email,
                    "phone": new.phone,
                    "email_verified": false,
                    "phone_verified": false,
                });
                (subject, data)
            }
        };
        identities::ActiveModel {
            id: Set(Uuid::new_v4()),
            provider_id: Set(subject),
            user_id: Set(id),
            provider: Set(provider.into()),
            identity_data: Set(data),
            email: Set(new.email.clone()),
            last_sign_in_at: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(db)
        .await
        .map_err(|err| match constraint_name(&err).as_deref() {
            Some("identities_provider_id_provider_key") => AuthError::unprocessable(
                "identity_already_exists",
                "Identity is already linked to another user",
            ),
            _ => AuthError::from(err),
        })?;
    }
    crate::db::audit::record(
        db,
        "user_signedup",
        Some(id),
        new.email.as_deref(),
        "",
        json!({"provider": provider.unwrap_or("anonymous")}),
    )
    .await;
    profiles::ActiveModel {
        id: Set(id),
        email: Set(new.email),
        is_verified: Set(false),
        referred_by_partner: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    super::community::record_signup_facts(db, id, &new.facts).await?;
    Ok(user)
}

fn constraint_name(err: &sea_orm::DbErr) -> Option<String> {
    crate::db::constraints::violated_constraint(err).and_then(|v| v.constraint)
}

pub fn email_exists() -> AuthError {
    AuthError::unprocessable(
        "email_exists",
        "A user with this email address has already been registered",
    )
}

fn strip_nulls(map: Map<String, Value>) -> Map<String, Value> {
    map.into_iter().filter(|(_, v)| !v.is_null()).collect()
}

/// The largest user or app metadata, serialized: metadata travels in every
/// access token, and an unbounded one made tokens too large to send.
pub const MAX_METADATA_BYTES: usize = 16 * 1024;

/// 422 `validation_failed` when `metadata` serializes to more than
/// [`MAX_METADATA_BYTES`].
pub fn check_metadata_size(metadata: &Value) -> AuthResult<()> {
    let size = serde_json::to_vec(metadata).map_or(usize::MAX, |bytes| bytes.len());
    if size > MAX_METADATA_BYTES {
        return Err(AuthError::unprocessable(
            "validation_failed",
            format!(
                "User metadata is too large: at most {} KB are allowed",
                MAX_METADATA_BYTES / 1024
            ),
        ));
    }
    Ok(())
}

/// The metadata key of the name a person shows to others (contact
/// requests, chats), as GoTrue apps keep it: `data.display_name`.
pub const DISPLAY_NAME_KEY: &str = "display_name";

/// User metadata as it is stored: a `display_name` in it must be a name of
/// 1-50 visible characters (`values::text::check_display_name`), kept trimmed;
/// `null` (which deletes it in a patch) passes; `date_of_birth` and
/// `terms_version` are dropped (they are kept apart, `super::community`). 422 `validation_failed`
/// otherwise, in the user's words. Every other key is the app's own.
pub fn checked_user_metadata(metadata: &Value) -> AuthResult<Value> {
    let mut metadata = metadata.clone();
    // The date of birth and the terms are kept where the user cannot edit
    // them (`super::community`), never in the metadata.
    if let Some(map) = metadata.as_object_mut() {
        map.remove(super::community::DATE_OF_BIRTH_KEY);
        map.remove(super::community::TERMS_VERSION_KEY);
    }
    if let Some(value) = metadata
        .as_object_mut()
        .and_then(|map| map.get_mut(DISPLAY_NAME_KEY))
    {
        match value {
            Value::Null => {}
            Value::String(name) => {
                let trimmed = crate::values::text::check_display_name("Display name", name)
                    .map_err(|err| AuthError::unprocessable("validation_failed", err.message()))?
                    .to_owned();
                *name = trimmed;
            }
            _ => {
                return Err(AuthError::unprocessable(
                    "validation_failed",
                    "Display name must be text",
                ));
            }
        }
    }
    Ok(metadata)
}

/// [`merge_metadata`], refused when the result is over the size limit or
/// the patch carries a display name that is not one
/// ([`checked_user_metadata`]).
pub fn merged_metadata(current: &Value, patch: &Value) -> AuthResult<Value> {
    let patch = checked_user_metadata(patch)?;
    let merged = merge_metadata(current, &patch);
    check_metadata_size(&merged)?;
    Ok(merged)
}

/// Merges `patch` into `current`: a `null` value deletes the key.
pub fn merge_metadata(current: &Value, patch: &Value) -> Value {
    let mut merged = current.as_object().cloned().unwrap_or_default();
    if let Value::Object(patch) = patch {
        for (key, value) in patch {
            if value.is_null() {
                merged.remove(key);
            } else {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(merged)
}

/// Sets a new primary email on the user, its email identity and profile.
/// Gives `user` the phone number `phone` (normalised), unconfirmed (the
/// admin API's `phone`; `phone_confirm` confirms it after).
pub async fn set_phone(
    db: &impl ConnectionTrait,
    user: &users::Model,
    phone: &str,
) -> AuthResult<users::Model> {
    let now = Utc::now();
    let mut active: users::ActiveModel = user.clone().into();
    active.phone = Set(Some(phone.to_owned()));
    active.phone_confirmed_at = Set(None);
    active.updated_at = Set(now);
    active
        .update(db)
        .await
        .map_err(|err| match constraint_name(&err).as_deref() {
            Some("users_phone_key") => AuthError::unprocessable(
                "phone_exists",
                "A user with this phone number has already been registered",
            ),
            _ => AuthError::from(err),
        })
}

pub async fn set_email(
    db: &impl ConnectionTrait,
    user: &users::Model,
    email: &str,
) -> AuthResult<users::Model> {
    let now = Utc::now();
    let mut active: users::ActiveModel = user.clone().into();
    active.email = Set(Some(email.to_owned()));
    active.email_confirmed_at = Set(Some(now));
    active.new_email = Set(None);
    active.email_change_sent_at = Set(None);
    active.email_change_confirm_status = Set(0);
    active.updated_at = Set(now);
    let updated =
        active
            .update(db)
            .await
            .map_err(|err| match constraint_name(&err).as_deref() {
                Some("users_email_key") => email_exists(),
                _ => AuthError::from(err),
            })?;
    let identity = identities::Entity::find()
        .filter(identities::Column::UserId.eq(user.id))
        .filter(identities::Column::Provider.eq("email"))
        .one(db)
        .await?;
    match identity {
        Some(identity) => {
            let mut data = identity.identity_data.clone();
            data["email"] = json!(email);
            let mut active: identities::ActiveModel = identity.into();
            active.identity_data = Set(data);
            active.email = Set(Some(email.to_owned()));
            active.updated_at = Set(now);
            active.update(db).await?;
        }
        None => {
            // An anonymous or phone user gains an email identity.
            let subject = user.id.to_string();
            identities::ActiveModel {
                id: Set(Uuid::new_v4()),
                provider_id: Set(subject.clone()),
                user_id: Set(user.id),
                provider: Set("email".into()),
                identity_data: Set(json!({"sub": subject, "email": email, "email_verified": true, "phone_verified": false})),
                email: Set(Some(email.to_owned())),
                last_sign_in_at: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(db)
            .await?;
            add_provider(db, &updated, "email").await?;
        }
    }
    profiles::Entity::update_many()
        .col_expr(
            profiles::Column::Email,
            sea_orm::sea_query::Expr::value(email),
        )
        .col_expr(
            profiles::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(now),
        )
        .filter(profiles::Column::Id.eq(user.id))
        .exec(db)
        .await?;
    Ok(find(db, user.id).await?.unwrap_or(updated))
}

async fn add_provider(
    db: &impl ConnectionTrait,
    user: &users::Model,
    provider: &str,
) -> AuthResult<()> {
    let mut meta = user.raw_app_meta_data.clone();
    let mut providers: Vec<Value> = meta
        .get("providers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if !providers.iter().any(|p| p == provider) {
        providers.push(json!(provider));
    }
    meta["providers"] = json!(providers);
    if meta.get("provider").and_then(Value::as_str) == Some("anonymous") {
        meta["provider"] = json!(provider);
    }
    let mut active: users::ActiveModel = user.clone().into();
    active.raw_app_meta_data = Set(meta);
    active.is_anonymous = Set(false);
    active.updated_at = Set(Utc::now());
    active.update(db).await?;
    Ok(())
}

/// Marks the email confirmed (and the email identity verified).
pub async fn confirm_email(
    db: &impl ConnectionTrait,
    user: &users::Model,
) -> AuthResult<users::Model> {
    if user.email_confirmed_at.is_some() {
        return Ok(user.clone());
    }
    let now = Utc::now();
    let mut active: users::ActiveModel = user.clone().into();
    active.email_confirmed_at = Set(Some(now));
    active.updated_at = Set(now);
    let user = active.update(db).await?;
    if let Some(identity) = identities::Entity::find()
        .filter(identities::Column::UserId.eq(user.id))
        .filter(identities::Column::Provider.eq("email"))
        .one(db)
        .await?
    {
        let mut data = identity.identity_data.clone();
        data["email_verified"] = json!(true);
        let mut active: identities::ActiveModel = identity.into();
        active.identity_data = Set(data);
        active.updated_at = Set(now);
        active.update(db).await?;
    }
    Ok(user)
}

/// Marks the phone confirmed (a code sent to it came back) and its identity
/// verified.
pub async fn confirm_phone(
    db: &impl ConnectionTrait,
    user: &users::Model,
) -> AuthResult<users::Model> {
    if user.phone_confirmed_at.is_some() {
        return Ok(user.clone());
    }
    let now = Utc::now();
    let mut active: users::ActiveModel = user.clone().into();
    active.phone_confirmed_at = Set(Some(now));
    active.updated_at = Set(now);
    let user = active.update(db).await?;
    if let Some(identity) = identities::Entity::find()
        .filter(identities::Column::UserId.eq(user.id))
        .filter(identities::Column::Provider.eq("phone"))
        .one(db)
        .await?
    {
        let mut data = identity.identity_data.clone();
        data["phone_verified"] = json!(true);
        let mut active: identities::ActiveModel = identity.into();
        active.identity_data = Set(data);
        active.updated_at = Set(now);
        active.update(db).await?;
    }
    Ok(user)
}

pub async fn find_by_phone(
    db: &impl ConnectionTrait,
    phone: &str,
) -> AuthResult<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::Phone.eq(phone))
        .one(db)
        .await?)
}

pub async fn touch_sign_in(
    db: &impl ConnectionTrait,
    user: &users::Model,
) -> AuthResult<users::Model> {
    let now = Utc::now();
    let mut active: users::ActiveModel = user.clone().into();
    active.last_sign_in_at = Set(Some(now));
    active.updated_at = Set(now);
    Ok(active.update(db).await?)
}

pub fn time(value: Option<DateTime<Utc>>) -> Option<Value> {
    value.map(|at| json!(at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)))
}

pub fn factor_json(factor: &mfa_factors::Model) -> Value {
    json!({
        "id": factor.id,
        "friendly_name": factor.friendly_name.clone().unwrap_or_default(),
        "factor_type": factor.factor_type,
        "status": factor.status,
        "created_at": time(Some(factor.created_at)),
        "updated_at": time(Some(factor.updated_at)),
        "last_challenged_at": time(factor.last_challenged_at),
        "phone": factor.phone.clone().unwrap_or_default(),
    })
}

pub fn identity_json(identity: &identities::Model) -> Value {
    let mut value = json!({
        "identity_id": identity.id,
        "id": identity.provider_id,
        "user_id": identity.user_id,
        "identity_data": identity.identity_data,
        "provider": identity.provider,
        "email": identity.email.clone().unwrap_or_default(),
        "created_at": time(Some(identity.created_at)),
        "updated_at": time(Some(identity.updated_at)),
    });
    if let Some(at) = time(identity.last_sign_in_at) {
        value["last_sign_in_at"] = at;
    }
    value
}

/// The User object, with its identities and factors.
pub async fn user_json(db: &impl ConnectionTrait, user: &users::Model) -> AuthResult<Value> {
    let identities = identities::Entity::find()
        .filter(identities::Column::UserId.eq(user.id))
        .order_by_asc(identities::Column::CreatedAt)
        .all(db)
        .await?;
    let factors = mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(user.id))
        .order_by_asc(mfa_factors::Column::CreatedAt)
        .all(db)
        .await?;
    Ok(render(user, &identities, &factors))
}

pub fn render(
    user: &users::Model,
    identities: &[identities::Model],
    factors: &[mfa_factors::Model],
) -> Value {
    let mut value = json!({
        "id": user.id,
        "aud": user.aud,
        "role": user.role,
        "email": user.email.clone().unwrap_or_default(),
        "phone": user.phone.clone().unwrap_or_default(),
        "app_metadata": user.raw_app_meta_data,
        "user_metadata": user.raw_user_meta_data,
        "identities": identities.iter().map(identity_json).collect::<Vec<_>>(),
        "created_at": time(Some(user.created_at)),
        "updated_at": time(Some(user.updated_at)),
        "is_anonymous": user.is_anonymous,
    });
    let object = value.as_object_mut().expect("an object");
    let confirmed_at = user.email_confirmed_at.or(user.phone_confirmed_at);
    for (name, at) in [
        ("email_confirmed_at", user.email_confirmed_at),
        ("phone_confirmed_at", user.phone_confirmed_at),
        ("confirmed_at", confirmed_at),
        ("confirmation_sent_at", user.confirmation_sent_at),
        ("recovery_sent_at", user.recovery_sent_at),
        ("email_change_sent_at", user.email_change_sent_at),
        ("phone_change_sent_at", user.phone_change_sent_at),
        ("reauthentication_sent_at", user.reauthentication_sent_at),
        ("invited_at", user.invited_at),
        ("last_sign_in_at", user.last_sign_in_at),
        ("banned_until", user.banned_until),
        ("deleted_at", user.deleted_at),
    ] {
        if let Some(at) = time(at) {
            object.insert(name.into(), at);
        }
    }
    if let Some(new_email) = &user.new_email {
        object.insert("new_email".into(), json!(new_email));
    }
    if let Some(new_phone) = &user.new_phone {
        object.insert("new_phone".into(), json!(new_phone));
    }
    if !factors.is_empty() {
        object.insert(
            "factors".into(),
            json!(factors.iter().map(factor_json).collect::<Vec<_>>()),
        );
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(
            normalise_email("  Ada@Example.COM ").unwrap(),
            "ada@example.com"
        );
        for bad in [
            "ada",
            "ada@",
            "@example.com",
            "a b@example.com",
            "xx:;x@x.x",
            "ada@example..com",
            "ada@example.com.",
            "ada@-example.com",
            "ada@exam_ple.com",
            "ada@b@example.com",
            "\"ada\"@example.com",
            "adá@example.com",
        ] {
            let err = normalise_email(bad).unwrap_err();
            assert_eq!(
                err.message, "Unable to validate email address: invalid format",
                "{bad}"
            );
            assert_eq!(err.code, "validation_failed");
            assert_eq!(err.status, axum::http::StatusCode::BAD_REQUEST);
        }
        assert_eq!(
            normalise_email("").unwrap_err().message,
            "An email address is required"
        );
        let long = format!("{}@example.com", "a".repeat(250));
        assert_eq!(
            normalise_email(&long).unwrap_err().message,
            "An email address is too long"
        );
        // What GoTrue's rule lets through.
        for good in [
            "a.b+tag@example.co.uk",
            "o'brien@example.com",
            "x!#$%&*/=?^_`{|}~-@a-b.example",
            "ada@localhost",
        ] {
            assert!(normalise_email(good).is_ok(), "{good}");
        }
        let label = "a".repeat(63);
        assert!(is_valid_email(&format!("ada@{label}.com")));
        assert!(!is_valid_email(&format!("ada@{label}a.com")));
    }

    #[test]
    fn phones_are_e164_digits() {
        assert_eq!(normalise_phone("+1 555 123 4567").unwrap(), "15551234567");
        for bad in [
            "12ab",
            "+0123456",
            "1",
            "1234567890123456",
            "+1 (555) 123-4567",
        ] {
            let err = normalise_phone(bad).unwrap_err();
            assert_eq!(err.message, "Invalid phone number format (E.164 required)");
        }
    }

    #[test]
    fn metadata_merges_and_null_deletes_a_key() {
        let merged = merge_metadata(&json!({"a": 1, "b": 2}), &json!({"b": null, "c": 3}));
        assert_eq!(merged, json!({"a": 1, "c": 3}));
    }
}
