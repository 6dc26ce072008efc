//! Who may enter the community (issue 41): the one gate, decided at the
//! edge like the admin role. A handler that takes a [`CommunityMember`] is
//! never reached by a caller without
//!
//! 1. an adult date of birth on file (`birth_dates`): 403 `age_required`;
//! 2. the terms in force accepted (`terms_acceptances`, version
//!    `community.terms_version`): 403 `terms_required`;
//! 3. a confirmed email or phone: 403 `confirmation_required`.
//!
//! The web app answers each code by taking the user to the question (and
//! back). The community is: a public listing, a contest entry, sending or
//! receiving a contact request, chat, the partner programme and payouts.
//! Scoring, edits and the personality test stay open to any signed-in user.
//!
//! To gate an endpoint, take `CommunityMember` instead of `AuthUser` (its
//! `.0` is the `AuthUser`) and list [`crate::http::error::CommunityErrors`]
//! among its OpenAPI responses. Where the rule concerns someone other than
//! the caller (the recipient of a contact request), call [`standing`] and
//! [`Standing::refusal`].

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};
use uuid::Uuid;

use super::AuthUser;
use crate::config::CommunityConfig;
use crate::db::entities::{birth_dates, terms_acceptances, users};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorCode};
use crate::values::birth;

/// A signed-in user who may use the community features.
#[derive(Debug, Clone)]
pub struct CommunityMember(pub AuthUser);

impl CommunityMember {
    pub fn user_id(&self) -> Uuid {
        self.0.user_id
    }
}

/// Where a user stands with the three conditions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Standing {
    /// A date of birth is on file (its value is never shown here).
    pub date_of_birth_on_file: bool,
    /// The date on file is of an adult today.
    pub adult: bool,
    /// The email or the phone is confirmed.
    pub confirmed: bool,
    /// The version of the terms in force.
    pub terms_version: String,
    /// The user accepted that version.
    pub terms_accepted: bool,
    /// All three hold: the community features are open to the user.
    pub member: bool,
}

impl Standing {
    /// The first condition not met, as the 403 the gate answers.
    pub fn refusal(&self) -> Option<ApiError> {
        if !self.adult {
            return Some(age_required(self.date_of_birth_on_file));
        }
        if !self.terms_accepted {
            return Some(terms_required());
        }
        if !self.confirmed {
            return Some(confirmation_required());
        }
        None
    }

    pub fn is_member(&self) -> bool {
        self.refusal().is_none()
    }
}

pub fn age_required(on_file: bool) -> ApiError {
    let message = if on_file {
        "This part of PrettyScore is for adults only."
    } else {
        "Please tell us your date of birth first: this part of PrettyScore is for adults only."
    };
    ApiError::new(StatusCode::FORBIDDEN, ErrorCode::AgeRequired, message)
}

pub fn terms_required() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::TermsRequired,
        "Please read and accept our current terms and community guidelines first.",
    )
}

pub fn confirmation_required() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::ConfirmationRequired,
        "Please confirm your email address or phone number first: we sent you a link.",
    )
}

/// Where `user_id` stands today, read from the database.
pub async fn standing(
    db: &impl ConnectionTrait,
    community: &CommunityConfig,
    user_id: Uuid,
) -> Result<Standing, DbErr> {
    let born = birth_dates::Entity::find()
        .filter(birth_dates::Column::UserId.eq(user_id))
        .select_only()
        .column(birth_dates::Column::DateOfBirth)
        .into_tuple::<chrono::NaiveDate>()
        .one(db)
        .await?;
    let today = chrono::Utc::now().date_naive();
    let confirmed = users::Entity::find_by_id(user_id)
        .select_only()
        .column(users::Column::EmailConfirmedAt)
        .column(users::Column::PhoneConfirmedAt)
        .into_tuple::<(
            Option<chrono::DateTime<chrono::Utc>>,
            Option<chrono::DateTime<chrono::Utc>>,
        )>()
        .one(db)
        .await?
        .is_some_and(|(email, phone)| email.is_some() || phone.is_some());
    let terms_accepted = terms_acceptances::Entity::find()
        .filter(terms_acceptances::Column::UserId.eq(user_id))
        .filter(terms_acceptances::Column::Version.eq(community.terms_version.as_str()))
        .select_only()
        .column(terms_acceptances::Column::Id)
        .into_tuple::<Uuid>()
        .one(db)
        .await?
        .is_some();
    let adult = born.is_some_and(|born| birth::is_adult(born, today));
    Ok(Standing {
        date_of_birth_on_file: born.is_some(),
        adult,
        confirmed,
        terms_version: community.terms_version.clone(),
        terms_accepted,
        member: adult && confirmed && terms_accepted,
    })
}

/// The gate for an action that is a community one only sometimes (a save
/// that lists the photo publicly): the same refusals as the extractor.
pub async fn require_member(state: &AppState, user: &AuthUser) -> Result<(), ApiError> {
    let standing = standing(&state.db, &state.config.community, user.user_id).await?;
    standing.refusal().map_or(Ok(()), Err)
}

impl FromRequestParts<AppState> for CommunityMember {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        let standing = standing(&state.db, &state.config.community, user.user_id).await?;
        match standing.refusal() {
            Some(refusal) => Err(refusal),
            None => Ok(Self(user)),
        }
    }
}
