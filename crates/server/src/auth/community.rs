//! What the community gate (`http::extract::CommunityMember`) reads about an
//! account, and how it gets there (issue 41):
//!
//! - the date of birth: at sign-up as `data.date_of_birth` (taken out of the
//!   user metadata before anything is stored: under 18 is 422 `underage` and
//!   nothing is kept, not even the address), or later with
//!   `POST /api/v1/account/date-of-birth`; once on file only an admin
//!   corrects it (`PUT /api/v1/admin/users/{id}/date-of-birth`, audited). It
//!   lives in `birth_dates`, out of `PUT /auth/v1/user`'s reach, and is shown
//!   to nobody but its owner (their export);
//! - the terms: at sign-up as `data.terms_version`, or with
//!   `POST /api/v1/account/terms`; `GET /api/v1/terms` names the version in
//!   force. Every acceptance is kept (`terms_acceptances`) and exported;
//! - display names that would pose as the service are refused in the user
//!   metadata (`values::names`, `community.reserved_name_words`).
//!
//! A sign-up through the API without a date or terms still makes the
//! account, as GoTrue clients expect; the gate then answers `age_required` or
//! `terms_required` until the user gives them.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{NaiveDate, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
    TransactionTrait,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use crate::config::CommunityConfig;
use crate::db::entities::{birth_dates, terms_acceptances, users};
use crate::http::AppState;
use crate::http::error::{
    AdminErrors, ApiError, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{AdminAction, AuthUser, Json, Path, Standing, standing};
use crate::values::Invalid;
use crate::values::birth::{self, DateOfBirth};

/// The sign-up `data` key of the date of birth (`YYYY-MM-DD`).
pub const DATE_OF_BIRTH_KEY: &str = "date_of_birth";
/// The sign-up `data` key of the version of the terms accepted.
pub const TERMS_VERSION_KEY: &str = "terms_version";

/// What a sign-up declares beside its metadata.
#[derive(Debug, Clone, Default)]
pub struct SignupFacts {
    pub date_of_birth: Option<NaiveDate>,
    pub terms_version: Option<String>,
}

fn underage_message() -> &'static str {
    "Sorry, you need to be 18 or older to use PrettyScore's community. Nothing you entered has been kept."
}

/// Takes `date_of_birth` and `terms_version` out of the sign-up `data` (so
/// they never reach `user_metadata`) and checks them, before anything about
/// the sign-up is stored or counted: 422 `underage` for someone under 18,
/// 422 `validation_failed` for a date that is not one, 422
/// `terms_version_mismatch` for terms that are not the ones in force.
pub fn take_signup_facts(
    community: &CommunityConfig,
    data: &mut Option<Value>,
) -> AuthResult<SignupFacts> {
    let Some(Value::Object(map)) = data else {
        return Ok(SignupFacts::default());
    };
    let born = map.remove(DATE_OF_BIRTH_KEY);
    let terms = map.remove(TERMS_VERSION_KEY);
    let today = Utc::now().date_naive();
    let date_of_birth = match born {
        None | Some(Value::Null) => None,
        Some(Value::String(raw)) if raw.trim().is_empty() => None,
        Some(Value::String(raw)) => {
            let date = DateOfBirth::parse(&raw, today)
                .map_err(|err| {
                    AuthError::unprocessable("validation_failed", err.message().to_owned())
                })?
                .date();
            if !birth::is_adult(date, today) {
                return Err(AuthError::unprocessable("underage", underage_message()));
            }
            Some(date)
        }
        Some(_) => {
            return Err(AuthError::unprocessable(
                "validation_failed",
                "Please enter your date of birth as YYYY-MM-DD",
            ));
        }
    };
    let terms_version = match terms {
        None | Some(Value::Null) => None,
        Some(Value::String(version)) if version == community.terms_version => Some(version),
        Some(_) => {
            return Err(AuthError::unprocessable(
                "terms_version_mismatch",
                "Our terms have changed since this page was loaded. Please reload it and accept the current terms.",
            ));
        }
    };
    Ok(SignupFacts {
        date_of_birth,
        terms_version,
    })
}

/// What [`record_signup_facts`] added: a date (none was on file) and an
/// acceptance (not accepted before).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Added {
    pub date_of_birth: bool,
    pub terms: bool,
}

/// Stores what a user declared (in the transaction that creates them, or
/// later), keeping what is on file: a date already there stays (only an
/// admin changes it), an acceptance of the same version is not repeated.
/// Many requests at once store each at most once (`ON CONFLICT DO NOTHING`
/// on the unique keys).
pub async fn record_signup_facts(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    facts: &SignupFacts,
) -> Result<Added, sea_orm::DbErr> {
    let now = Utc::now();
    let mut added = Added {
        date_of_birth: false,
        terms: false,
    };
    if let Some(date) = facts.date_of_birth {
        let rows = birth_dates::Entity::insert(birth_dates::ActiveModel {
            id: Set(Uuid::now_v7()),
            user_id: Set(user_id),
            date_of_birth: Set(date),
            source: Set("self".into()),
            created_at: Set(now),
            updated_at: Set(now),
        })
        .on_conflict(OnConflict::new().do_nothing().to_owned())
        .exec_without_returning(db)
        .await?;
        added.date_of_birth = rows > 0;
    }
    if let Some(version) = &facts.terms_version {
        let rows = terms_acceptances::Entity::insert(terms_acceptances::ActiveModel {
            id: Set(Uuid::now_v7()),
            user_id: Set(user_id),
            version: Set(version.clone()),
            accepted_at: Set(now),
        })
        .on_conflict(OnConflict::new().do_nothing().to_owned())
        .exec_without_returning(db)
        .await?;
        added.terms = rows > 0;
    }
    Ok(added)
}

/// The metadata keys that are names others see (`contact::rules` shows the
/// first of them a person set).
const NAME_KEYS: &[&str] = &["display_name", "full_name", "name"];

/// 422 `validation_failed` when a name in `data` poses as the service.
pub fn check_names(community: &CommunityConfig, data: &Value) -> AuthResult<()> {
    for key in NAME_KEYS {
        if let Some(Value::String(name)) = data.get(*key) {
            crate::values::names::check_not_reserved(name, &community.reserved_name_words)
                .map_err(|err| {
                    AuthError::unprocessable("validation_failed", err.message().to_owned())
                })?;
        }
    }
    Ok(())
}

/// The user's own share of these facts for the account export: the date on
/// file and every acceptance of the terms.
pub async fn export_section(
    db: &impl ConnectionTrait,
    user_id: Uuid,
) -> Result<Value, sea_orm::DbErr> {
    let born = birth_dates::Entity::find()
        .filter(birth_dates::Column::UserId.eq(user_id))
        .one(db)
        .await?;
    let acceptances = terms_acceptances::Entity::find()
        .filter(terms_acceptances::Column::UserId.eq(user_id))
        .order_by_asc(terms_acceptances::Column::AcceptedAt)
        .all(db)
        .await?;
    Ok(json!({
        "date_of_birth": born.map(|b| json!({
            "date_of_birth": b.date_of_birth.format("%Y-%m-%d").to_string(),
            "source": b.source,
            "recorded_at": b.created_at,
            "updated_at": b.updated_at,
        })),
        "terms_acceptances": acceptances.iter().map(|a| json!({
            "version": a.version,
            "accepted_at": a.accepted_at,
        })).collect::<Vec<_>>(),
    }))
}

/// The terms in force (`GET /api/v1/terms`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Terms {
    /// The version a user accepts (`POST /api/v1/account/terms`).
    pub version: String,
    /// When it took effect, `YYYY-MM-DD`.
    pub date: String,
    /// The pages it covers.
    pub terms_url: String,
    pub guidelines_url: String,
    pub privacy_url: String,
}

/// The version of the terms of service and community guidelines in force.
/// Anyone may ask.
#[utoipa::path(get, path = "/terms", tag = "account",
    responses((status = 200, description = "The terms in force", body = Terms)))]
pub async fn current_terms(State(state): State<AppState>) -> Json<Terms> {
    let community = &state.config.community;
    Json(Terms {
        version: community.terms_version.clone(),
        date: community.terms_date.clone(),
        terms_url: "/terms".into(),
        guidelines_url: "/guidelines".into(),
        privacy_url: "/privacy".into(),
    })
}

/// Where the signed-in user stands with the community: what is still to do
/// before the community features open (the date itself is never answered).
#[utoipa::path(get, path = "/account/standing", tag = "account",
    responses(
        (status = 200, description = "Where the user stands", body = Standing),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn account_standing(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<Standing>, ApiError> {
    Ok(Json(
        standing(&state.db, &state.config.community, user.user_id).await?,
    ))
}

/// `POST /api/v1/account/date-of-birth`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DateOfBirthBody {
    /// `YYYY-MM-DD`.
    pub date_of_birth: String,
}

/// The gate's view after a change.
#[derive(Debug, Serialize, ToSchema)]
pub struct Recorded {
    pub standing: Standing,
}

const BIRTH_DATE_ERRORS: &[ConstraintError] = &[ConstraintError::conflict(
    "birth_dates_user_id_key",
    ErrorCode::DateOfBirthOnFile,
    "Your date of birth is already on file. If it is wrong, please contact support.",
)];

fn date_on_file() -> ApiError {
    ApiError::conflict(
        ErrorCode::DateOfBirthOnFile,
        "Your date of birth is already on file. If it is wrong, please contact support.",
    )
}

fn parse_date(raw: &str) -> Result<NaiveDate, ApiError> {
    let today = Utc::now().date_naive();
    Ok(DateOfBirth::parse(raw, today)?.date())
}

/// Declares the signed-in user's date of birth, once, for an account that
/// has none on file (accounts made before the rule, or through a sign-in
/// that could not ask). Under 18: 422 `underage`, nothing stored. Once on
/// file: 409 `date_of_birth_on_file` (only an admin corrects it).
#[utoipa::path(post, path = "/account/date-of-birth", tag = "account",
    request_body = DateOfBirthBody,
    responses(
        (status = 201, description = "Recorded", body = Recorded),
        SignedInErrors,
        (status = 409, description = "`date_of_birth_on_file`", body = ErrorBody),
        (status = 422, description = "`underage`: under 18, nothing stored; `validation_failed`: not a date", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn declare_date_of_birth(
    State(state): State<AppState>,
    user: AuthUser,
    Json(body): Json<DateOfBirthBody>,
) -> Result<(StatusCode, Json<Recorded>), ApiError> {
    let date = parse_date(&body.date_of_birth)?;
    if !birth::is_adult(date, Utc::now().date_naive()) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Underage,
            "Sorry, you need to be 18 or older to use PrettyScore's community. Nothing you entered has been kept.",
        ));
    }
    let added = record_signup_facts(
        &state.db,
        user.user_id,
        &SignupFacts {
            date_of_birth: Some(date),
            terms_version: None,
        },
    )
    .await?;
    if !added.date_of_birth {
        return Err(date_on_file());
    }
    let standing = standing(&state.db, &state.config.community, user.user_id).await?;
    Ok((StatusCode::CREATED, Json(Recorded { standing })))
}

/// `POST /api/v1/account/terms`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AcceptTermsBody {
    /// The version accepted: the one `GET /api/v1/terms` answers.
    pub version: String,
}

/// Accepts the terms in force for the signed-in user; accepting the same
/// version again changes nothing. Another version: 409
/// `terms_version_mismatch`.
#[utoipa::path(post, path = "/account/terms", tag = "account",
    request_body = AcceptTermsBody,
    responses(
        (status = 200, description = "Accepted", body = Recorded),
        SignedInErrors,
        (status = 409, description = "`terms_version_mismatch`: not the version in force", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn accept_terms(
    State(state): State<AppState>,
    user: AuthUser,
    Json(body): Json<AcceptTermsBody>,
) -> Result<Json<Recorded>, ApiError> {
    let community = &state.config.community;
    if body.version != community.terms_version {
        return Err(ApiError::conflict(
            ErrorCode::TermsVersionMismatch,
            "Our terms have changed since this page was loaded. Please reload it and accept the current terms.",
        ));
    }
    // Accepted already (two tabs): the acceptance on file stands.
    record_signup_facts(
        &state.db,
        user.user_id,
        &SignupFacts {
            date_of_birth: None,
            terms_version: Some(body.version.clone()),
        },
    )
    .await?;
    let standing = standing(&state.db, community, user.user_id).await?;
    Ok(Json(Recorded { standing }))
}

/// `PUT /api/v1/admin/users/{id}/date-of-birth`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CorrectDateOfBirth {
    /// `YYYY-MM-DD`.
    pub date_of_birth: String,
    /// Why (kept in the audit log), 1 to 500 characters.
    pub reason: String,
}

/// An admin corrects a user's date of birth (say, after the user proved a
/// typo). The correction and its reason go into the audit log, with the
/// dates before and after. A date under 18 is allowed here: it closes the
/// community to that user.
#[utoipa::path(put, path = "/admin/users/{id}/date-of-birth", tag = "admin",
    params(("id" = Uuid, Path, description = "The user")),
    request_body = CorrectDateOfBirth,
    responses(
        (status = 200, description = "Corrected; the user's standing", body = Recorded),
        AdminErrors,
        (status = 404, description = "No such user", body = ErrorBody),
        (status = 422, description = "`validation_failed`: not a date, or no reason", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn correct_date_of_birth(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(user_id): Path<Uuid>,
    Json(body): Json<CorrectDateOfBirth>,
) -> Result<Json<Recorded>, ApiError> {
    let date = parse_date(&body.date_of_birth)?;
    let reason = body.reason.trim();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(Invalid::new("Please give a reason of 1 to 500 characters").into());
    }
    let txn = state.db.begin().await?;
    users::Entity::find_by_id(user_id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::not_found("User not found"))?;
    let existing = birth_dates::Entity::find()
        .filter(birth_dates::Column::UserId.eq(user_id))
        .one(&txn)
        .await?;
    let now = Utc::now();
    let before = existing
        .as_ref()
        .map(|row| row.date_of_birth.format("%Y-%m-%d").to_string());
    match existing {
        Some(row) => {
            let mut change: birth_dates::ActiveModel = row.into();
            change.date_of_birth = Set(date);
            change.source = Set("admin".into());
            change.updated_at = Set(now);
            change.update(&txn).await?;
        }
        None => {
            birth_dates::ActiveModel {
                id: Set(Uuid::now_v7()),
                user_id: Set(user_id),
                date_of_birth: Set(date),
                source: Set("admin".into()),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(&txn)
            .await
            .on_constraints(BIRTH_DATE_ERRORS)?;
        }
    }
    admin
        .record(
            &txn,
            "date_of_birth_corrected",
            json!({
                "user_id": user_id,
                "before": before,
                "after": date.format("%Y-%m-%d").to_string(),
                "reason": reason,
            }),
        )
        .await;
    txn.commit().await?;
    let standing = standing(&state.db, &state.config.community, user_id).await?;
    Ok(Json(Recorded { standing }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_date_and_terms_leave_the_metadata_and_a_minor_is_refused() {
        let community = CommunityConfig::default();
        let mut data = Some(json!({
            "display_name": "Ada",
            "date_of_birth": "1990-05-17",
            "terms_version": community.terms_version,
        }));
        let facts = take_signup_facts(&community, &mut data).unwrap();
        assert_eq!(data, Some(json!({"display_name": "Ada"})));
        assert_eq!(facts.date_of_birth, NaiveDate::from_ymd_opt(1990, 5, 17));
        assert_eq!(
            facts.terms_version.as_deref(),
            Some(community.terms_version.as_str())
        );

        let minor = (Utc::now().date_naive() - chrono::Duration::days(17 * 365))
            .format("%Y-%m-%d")
            .to_string();
        let err =
            take_signup_facts(&community, &mut Some(json!({"date_of_birth": minor}))).unwrap_err();
        assert_eq!(err.code, "underage");
        let err =
            take_signup_facts(&community, &mut Some(json!({"terms_version": "0.1"}))).unwrap_err();
        assert_eq!(err.code, "terms_version_mismatch");
        let none = take_signup_facts(&community, &mut None).unwrap();
        assert!(none.date_of_birth.is_none() && none.terms_version.is_none());
    }
}
