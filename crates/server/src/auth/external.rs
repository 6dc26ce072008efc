//! Who a person an outside provider vouches for is here (GoTrue's account
//! linking rules):
//! - an identity already linked signs its user in;
//! - linking (a signed-in user asked for it) adds the identity to that user,
//!   unless another user has it;
//! - otherwise an account with the same address takes the identity only when
//!   the provider verified the address: an unverified address never takes an
//!   account over;
//! - otherwise a new account is made, confirmed when the provider verified the
//!   address (or sign-ups need no confirmation).

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, TransactionTrait,
};
use serde_json::{Value, json};
use uuid::Uuid;

use super::community::SignupFacts;
use super::error::{AuthError, AuthResult};
use super::notices::{self, Change};
use super::users::{self, NewUser, ProviderIdentity};
use crate::db::entities::{identities, users as user_rows};
use crate::http::AppState;
use crate::http::extract::ClientInfo;
use crate::providers::identity::ProviderUser;

/// What the browser declared when it left for the provider (issue 41): the
/// date of birth and terms a new account is made with, and whether a new
/// account may be made without them (the web app asks for them first; a
/// GoTrue client that asks nothing makes one as GoTrue does, and it is
/// asked at its first community feature).
#[derive(Debug, Clone, Default)]
pub struct Declared {
    pub facts: SignupFacts,
    /// No new account without a date: 422 `age_required`, nothing stored.
    pub require_date_of_birth: bool,
}

/// What the provider's answer comes to.
#[derive(Debug)]
pub enum Outcome {
    /// Sign in as this user (after linking, the user who linked).
    SignIn(user_rows::Model),
    /// A new account whose address the provider did not verify: it waits
    /// for the confirmation mail, like an email sign-up.
    AwaitsConfirmation(user_rows::Model),
}

pub async fn resolve(
    state: &AppState,
    provider: &str,
    label: &str,
    person: &ProviderUser,
    linking: Option<Uuid>,
    declared: &Declared,
    client: &ClientInfo,
) -> AuthResult<Outcome> {
    // Two callbacks for one new person (a double submit, two tabs) race to
    // create the same identity: the loser finds the winner's on a second look.
    let (outcome, linked) = match attempt(state, provider, label, person, linking, declared).await {
        Err(err) if err.code == "identity_race" => {
            attempt(state, provider, label, person, linking, declared).await
        }
        other => other,
    }?;
    if linked && let Outcome::SignIn(user) = &outcome {
        notices::notify(state, user, Change::IdentityLinked, Some(label), client).await;
    }
    Ok(outcome)
}

async fn attempt(
    state: &AppState,
    provider: &str,
    label: &str,
    person: &ProviderUser,
    linking: Option<Uuid>,
    declared: &Declared,
) -> AuthResult<(Outcome, bool)> {
    let txn = state.db.begin().await?;
    // A write first: it takes SQLite's write lock (so two callbacks queue
    // instead of both reading, then failing to upgrade), and on PostgreSQL
    // the identity's row lock when it exists.
    identities::Entity::update_many()
        .col_expr(
            identities::Column::UpdatedAt,
            Expr::col(identities::Column::UpdatedAt),
        )
        .filter(identities::Column::Provider.eq(provider))
        .filter(identities::Column::ProviderId.eq(&person.subject))
        .exec(&txn)
        .await?;
    let email = person
        .email
        .as_deref()
        .filter(|email| users::is_valid_email(email))
        .map(str::to_lowercase);
    let existing = identities::Entity::find()
        .filter(identities::Column::Provider.eq(provider))
        .filter(identities::Column::ProviderId.eq(&person.subject))
        .one(&txn)
        .await?;

    // Whether the identity was added to an existing account.
    let mut linked = false;
    let outcome = match (existing, linking) {
        (Some(identity), Some(target)) if identity.user_id != target => {
            return Err(identity_already_exists());
        }
        (Some(identity), _) => {
            let user = find_user(&txn, identity.user_id).await?;
            refresh_identity(&txn, identity, person, email.as_deref()).await?;
            Outcome::SignIn(confirm_if_verified(&txn, user, person, email.as_deref()).await?)
        }
        (None, Some(target)) => {
            let user = find_user(&txn, target).await?;
            linked = true;
            Outcome::SignIn(link(&txn, user, provider, person, email.as_deref()).await?)
        }
        (None, None) => match email.as_deref() {
            Some(address) => match users::find_by_email(&txn, address).await? {
                Some(_) if !person.email_verified => {
                    return Err(AuthError::unprocessable(
                        "email_exists",
                        format!(
                            "An account with this email already exists, and {label} has not \
                             verified the address. Sign in with your password, then link \
                             {label} from your account page."
                        ),
                    ));
                }
                Some(user) => {
                    linked = true;
                    let user = link(&txn, user, provider, person, email.as_deref()).await?;
                    Outcome::SignIn(
                        confirm_if_verified(&txn, user, person, email.as_deref()).await?,
                    )
                }
                None => sign_up(state, &txn, provider, label, person, email, declared).await?,
            },
            None => sign_up(state, &txn, provider, label, person, None, declared).await?,
        },
    };
    // An existing account without a date on file takes what was declared
    // (a date on file stays: only an admin changes it).
    if let Outcome::SignIn(user) = &outcome {
        super::community::record_signup_facts(&txn, user.id, &declared.facts).await?;
    }
    txn.commit().await?;
    Ok((outcome, linked))
}

async fn find_user(db: &impl ConnectionTrait, id: Uuid) -> AuthResult<user_rows::Model> {
    users::find(db, id)
        .await?
        .ok_or_else(AuthError::user_not_found)
}

fn identity_already_exists() -> AuthError {
    AuthError::unprocessable(
        "identity_already_exists",
        "Identity is already linked to another user",
    )
}

/// A unique key that another request filled first: the address, or the
/// identity itself (the same person, twice at once).
fn raced(err: AuthError) -> AuthError {
    if err.code == "email_exists" || err.code == "identity_already_exists" {
        return AuthError::unprocessable("identity_race", "identity created concurrently");
    }
    err
}

async fn sign_up(
    state: &AppState,
    db: &impl ConnectionTrait,
    provider: &str,
    label: &str,
    person: &ProviderUser,
    email: Option<String>,
    declared: &Declared,
) -> AuthResult<Outcome> {
    if state.config.auth.disable_signup {
        return Err(AuthError::unprocessable(
            "signup_disabled",
            "Signups not allowed for this instance",
        ));
    }
    if declared.require_date_of_birth && declared.facts.date_of_birth.is_none() {
        return Err(AuthError::unprocessable(
            "age_required",
            format!(
                "To create your PrettyScore account with {label}, please tell us your date of \
                 birth and accept our terms first."
            ),
        ));
    }
    let confirmed = person.email_verified || state.config.auth.autoconfirm();
    let mut metadata = person.identity_data.clone();
    if let Value::Object(map) = &mut metadata {
        map.retain(|_, value| !value.is_null());
    }
    let user = users::create(
        db,
        NewUser {
            email: email.clone(),
            user_metadata: Some(metadata),
            email_confirmed: email.is_some() && confirmed,
            provider_identity: Some(ProviderIdentity {
                provider: provider.to_owned(),
                subject: person.subject.clone(),
                data: person.identity_data.clone(),
            }),
            facts: declared.facts.clone(),
            ..NewUser::default()
        },
    )
    .await
    .map_err(raced)?;
    Ok(if email.is_some() && !confirmed {
        Outcome::AwaitsConfirmation(user)
    } else {
        Outcome::SignIn(user)
    })
}

/// Adds the provider's identity to `user` and names the provider in its
/// app metadata.
async fn link(
    db: &impl ConnectionTrait,
    user: user_rows::Model,
    provider: &str,
    person: &ProviderUser,
    email: Option<&str>,
) -> AuthResult<user_rows::Model> {
    let now = Utc::now();
    let inserted = identities::Entity::insert(identities::ActiveModel {
        id: Set(Uuid::new_v4()),
        provider_id: Set(person.subject.clone()),
        user_id: Set(user.id),
        provider: Set(provider.to_owned()),
        identity_data: Set(person.identity_data.clone()),
        email: Set(email.map(str::to_owned)),
        last_sign_in_at: Set(Some(now)),
        created_at: Set(now),
        updated_at: Set(now),
    })
    .on_conflict(
        sea_orm::sea_query::OnConflict::new()
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    if inserted == 0 {
        // Linked meanwhile: to this user by a twin request, or to another.
        let owner = identities::Entity::find()
            .filter(identities::Column::Provider.eq(provider))
            .filter(identities::Column::ProviderId.eq(&person.subject))
            .one(db)
            .await?;
        if owner.is_none_or(|identity| identity.user_id != user.id) {
            return Err(identity_already_exists());
        }
    }
    add_provider(db, user, provider).await
}

pub async fn add_provider(
    db: &impl ConnectionTrait,
    user: user_rows::Model,
    provider: &str,
) -> AuthResult<user_rows::Model> {
    let mut meta = user.raw_app_meta_data.clone();
    let mut providers: Vec<Value> = meta
        .get("providers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if providers.iter().any(|p| p == provider) {
        return Ok(user);
    }
    providers.push(json!(provider));
    meta["providers"] = Value::Array(providers);
    if meta.get("provider").is_none_or(Value::is_null) {
        meta["provider"] = json!(provider);
    }
    let mut active: user_rows::ActiveModel = user.into();
    active.raw_app_meta_data = Set(meta);
    active.updated_at = Set(Utc::now());
    Ok(active.update(db).await?)
}

/// The provider's newest word on the person.
async fn refresh_identity(
    db: &impl ConnectionTrait,
    identity: identities::Model,
    person: &ProviderUser,
    email: Option<&str>,
) -> AuthResult<()> {
    let now = Utc::now();
    identities::Entity::update_many()
        .col_expr(
            identities::Column::IdentityData,
            Expr::value(person.identity_data.clone()),
        )
        .col_expr(
            identities::Column::Email,
            Expr::value(email.map(str::to_owned)),
        )
        .col_expr(identities::Column::LastSignInAt, Expr::value(Some(now)))
        .col_expr(identities::Column::UpdatedAt, Expr::value(now))
        .filter(identities::Column::Id.eq(identity.id))
        .exec(db)
        .await?;
    Ok(())
}

/// A provider that verified the account's own address confirms it.
async fn confirm_if_verified(
    db: &impl ConnectionTrait,
    user: user_rows::Model,
    person: &ProviderUser,
    email: Option<&str>,
) -> AuthResult<user_rows::Model> {
    if user.email_confirmed_at.is_none()
        && person.email_verified
        && email.is_some()
        && user.email.as_deref() == email
    {
        let mut active: user_rows::ActiveModel = user.into();
        active.email_confirmed_at = Set(Some(Utc::now()));
        active.updated_at = Set(Utc::now());
        return Ok(active.update(db).await?);
    }
    Ok(user)
}

/// Unlinks identity `id` of `user`, keeping at least one way in, even when
/// two tabs unlink the last two identities at once.
/// Returns the provider it was of.
pub async fn unlink(state: &AppState, user_id: Uuid, id: Uuid) -> AuthResult<String> {
    let not_found = || AuthError::not_found("identity_not_found", "Identity doesn't exist");
    let txn = state.db.begin().await?;
    // A second unlink waits for this one and then sees one identity less.
    users::lock(&txn, user_id).await?;
    let all = identities::Entity::find()
        .filter(identities::Column::UserId.eq(user_id))
        .all(&txn)
        .await?;
    let identity = all.iter().find(|i| i.id == id).ok_or_else(not_found)?;
    if all.len() <= 1 {
        return Err(AuthError::unprocessable(
            "single_identity_not_deletable",
            "User must have at least 1 identity after unlinking",
        ));
    }
    identities::Entity::delete_by_id(identity.id)
        .exec(&txn)
        .await?;
    let user = find_user(&txn, user_id).await?;
    let mut remaining: Vec<String> = Vec::new();
    for other in all.iter().filter(|i| i.id != identity.id) {
        if !remaining.contains(&other.provider) {
            remaining.push(other.provider.clone());
        }
    }
    let mut meta = user.raw_app_meta_data.clone();
    meta["providers"] = json!(remaining);
    if meta.get("provider").and_then(Value::as_str) == Some(identity.provider.as_str()) {
        meta["provider"] = json!(remaining.first());
    }
    let mut active: user_rows::ActiveModel = user.into();
    active.raw_app_meta_data = Set(meta);
    active.update(&txn).await?;
    txn.commit().await?;
    Ok(identity.provider.clone())
}
