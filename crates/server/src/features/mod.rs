//! Feature gates: `ai_editor`, `personality_test`, `feet_scoring` and
//! `hands_scoring` are Premium features, with one free trial each per user.
//!
//! - `POST /functions/v1/check-feature-access {featureName}` says whether
//!   the caller may use a feature now: `{hasAccess, reason, trialRemaining}`.
//! - `POST /functions/v1/record-feature-usage {featureName}` activates the one
//!   trial: a single INSERT against the unique key
//!   `feature_trials_user_id_feature_name_key`, so parallel calls activate it
//!   once.
//!
//! How a trial is used up (the gated endpoints check access themselves,
//! through [`require_access`] and [`use_once`], one conditional UPDATE, so
//! of two uses racing on one trial one is refused), as the activation
//! message says ([`Feature::trial_message`]):
//! - `feet_scoring`, `hands_scoring`: one analysis.
//! - `personality_test`: one completed quiz (the saved basic result).
//! - `ai_editor`: one saved editor session: edits until the first edit saved
//!   onto one of the user's photos (each AI edit still counts against the
//!   free edit quota).
//!
//! Reasons: `granted` (Premium), `trial_available` (an activated trial that
//! is usable now: access), `requires_premium` (no access; the trial can
//! still be activated, `trialRemaining` 1), `trial_exceeded` (no access; the
//! trial is used up).

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::billing::has_premium_editing;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, Json};
use crate::http::user_data::UserData;

pub mod entity {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "feature_trials")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub user_id: Uuid,
        pub feature_name: String,
        pub used_at: DateTimeUtc,
        pub consumed_at: Option<DateTimeUtc>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A gated feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    AiEditor,
    PersonalityTest,
    FeetScoring,
    HandsScoring,
}

impl Feature {
    pub const ALL: [Feature; 4] = [
        Self::AiEditor,
        Self::PersonalityTest,
        Self::FeetScoring,
        Self::HandsScoring,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::AiEditor => "ai_editor",
            Self::PersonalityTest => "personality_test",
            Self::FeetScoring => "feet_scoring",
            Self::HandsScoring => "hands_scoring",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|feature| feature.as_str() == name)
    }

    /// What the activated trial gives, in the words the activation answers.
    pub fn trial_message(self) -> &'static str {
        match self {
            Self::AiEditor => {
                "Trial activated! You can use the AI editor until you save one edited photo."
            }
            Self::PersonalityTest => "Trial activated! You can complete the personality test once.",
            Self::FeetScoring => "Trial activated! You can score one photo of your feet.",
            Self::HandsScoring => "Trial activated! You can score one photo of your hands.",
        }
    }
}

/// Why the caller has access or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccessReason {
    /// Premium.
    Granted,
    /// The activated free trial, usable now.
    TrialAvailable,
    /// The free trial is used up.
    TrialExceeded,
    /// Not Premium; the free trial can still be activated.
    RequiresPremium,
}

/// The answer of `check-feature-access`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeatureAccess {
    pub has_access: bool,
    pub reason: AccessReason,
    /// Free trials not yet activated: 1 or 0.
    pub trial_remaining: u32,
}

/// The body of both functions.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeatureRequest {
    /// `ai_editor`, `personality_test`, `feet_scoring` or `hands_scoring`.
    pub feature_name: String,
}

/// The answer of `record-feature-usage`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrialActivated {
    /// What the trial gives, e.g. 'Trial activated! You can score one photo
    /// of your feet.'
    pub message: String,
    pub access: FeatureAccess,
}

/// `/functions/v1/check-feature-access` and `/functions/v1/record-feature-usage`.
pub fn function_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(check_feature_access))
        .routes(routes!(record_feature_usage))
}

fn parse_feature(name: &str) -> Result<Feature, ApiError> {
    Feature::parse(name).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::UnknownFeature,
            format!(
                "Unknown feature '{}'. Features: ai_editor, personality_test, feet_scoring, hands_scoring.",
                name.chars().take(64).collect::<String>()
            ),
        )
    })
}

/// A trial is usable until its one use.
fn usable(trial: &entity::Model) -> bool {
    trial.consumed_at.is_none()
}

async fn trial_of(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    feature: Feature,
) -> Result<Option<entity::Model>, DbErr> {
    entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .filter(entity::Column::FeatureName.eq(feature.as_str()))
        .one(db)
        .await
}

/// Whether `user_id` may use `feature` now, and why.
pub async fn access(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    feature: Feature,
) -> Result<FeatureAccess, DbErr> {
    let trial = trial_of(db, user_id, feature).await?;
    let trial_remaining = u32::from(trial.is_none());
    let (has_access, reason) = if has_premium_editing(db, user_id).await? {
        (true, AccessReason::Granted)
    } else {
        match &trial {
            None => (false, AccessReason::RequiresPremium),
            Some(trial) if usable(trial) => (true, AccessReason::TrialAvailable),
            Some(_) => (false, AccessReason::TrialExceeded),
        }
    };
    Ok(FeatureAccess {
        has_access,
        reason,
        trial_remaining,
    })
}

/// How a gated endpoint was let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Premium,
    /// The free trial: a single-use feature must [`consume_trial`] after the
    /// work succeeds.
    Trial,
}

/// For a gated endpoint: the caller's access to `feature`, or 403
/// `feature_locked`.
pub async fn require_access(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    feature: Feature,
) -> Result<Access, ApiError> {
    let access = access(db, user_id, feature).await?;
    match access.reason {
        AccessReason::Granted => Ok(Access::Premium),
        AccessReason::TrialAvailable => Ok(Access::Trial),
        AccessReason::RequiresPremium => Err(locked(
            "This is a Premium feature. Start your free trial or upgrade to Premium to use it.",
        )),
        AccessReason::TrialExceeded => Err(locked(
            "You've used your free trial of this feature. Upgrade to Premium to keep using it.",
        )),
    }
}

fn locked(message: &'static str) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, ErrorCode::FeatureLocked, message)
}

/// Uses up the caller's activated trial of a feature; false if it
/// was used up meanwhile (the caller then refuses: one trial, one use).
pub async fn consume_trial(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    feature: Feature,
) -> Result<bool, DbErr> {
    let result = entity::Entity::update_many()
        .col_expr(entity::Column::ConsumedAt, Expr::value(Utc::now()))
        .filter(entity::Column::UserId.eq(user_id))
        .filter(entity::Column::FeatureName.eq(feature.as_str()))
        .filter(entity::Column::ConsumedAt.is_null())
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

/// For a gated endpoint once its one use is done: consumes the trial if
/// that is how the caller got in, else 403 `feature_locked`.
pub async fn use_once(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    feature: Feature,
    access: Access,
) -> Result<(), ApiError> {
    if access == Access::Trial && !consume_trial(db, user_id, feature).await? {
        return Err(locked(
            "You've used your free trial of this feature. Upgrade to Premium to keep using it.",
        ));
    }
    Ok(())
}

/// How long after a single-use trial's analysis its result may be saved.
pub const TRIAL_SAVE_WINDOW: Duration = Duration::hours(1);

/// Who may save the result of a single-use feature (feet, hands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveRight {
    Premium,
    /// The trial's one analysis was at this instant: its result may be saved
    /// once (the caller counts the saves since), within [`TRIAL_SAVE_WINDOW`].
    TrialResult(DateTime<Utc>),
}

/// For saving a gated result: Premium, or the trial's analysis a moment
/// ago, else 403 `feature_locked`. Saving scores the photo again, so without
/// this a save would be a free analysis.
pub async fn save_right(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    feature: Feature,
) -> Result<SaveRight, ApiError> {
    if has_premium_editing(db, user_id).await? {
        return Ok(SaveRight::Premium);
    }
    match trial_of(db, user_id, feature)
        .await?
        .and_then(|t| t.consumed_at)
    {
        Some(at) if at + TRIAL_SAVE_WINDOW > Utc::now() => Ok(SaveRight::TrialResult(at)),
        _ => Err(locked(
            "Saving this score is a Premium feature. Score and save as often as you like with Premium.",
        )),
    }
}

/// The refusal of a second save of a trial's result.
pub fn trial_result_saved() -> ApiError {
    locked("You've saved the result of your free trial. Upgrade to Premium to save more.")
}

/// Whether the caller may use a feature now. Premium members always may;
/// others once, after activating the free trial.
#[utoipa::path(post, path = "/check-feature-access", tag = "features",
    request_body = FeatureRequest,
    responses(
        (status = 200, description = "The caller's access", body = FeatureAccess),
        (status = 400, description = "`unknown_feature`", body = ErrorBody),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
async fn check_feature_access(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<FeatureRequest>,
) -> Result<Json<FeatureAccess>, ApiError> {
    let feature = parse_feature(&request.feature_name)?;
    Ok(Json(access(&state.db, user.user_id, feature).await?))
}

/// Activates the caller's one free trial of a feature (once per user, across
/// browsers; parallel calls activate it once). Premium members need no
/// trial: their access is answered and nothing is used.
#[utoipa::path(post, path = "/record-feature-usage", tag = "features",
    request_body = FeatureRequest,
    responses(
        (status = 200, description = "The trial is active (or the caller is Premium)", body = TrialActivated),
        (status = 400, description = "`unknown_feature`", body = ErrorBody),
        SignedInErrors,
        (status = 409, description = "`trial_used`: the trial was activated before", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn record_feature_usage(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<FeatureRequest>,
) -> Result<Json<TrialActivated>, ApiError> {
    let feature = parse_feature(&request.feature_name)?;
    if has_premium_editing(&state.db, user.user_id).await? {
        return Ok(Json(TrialActivated {
            message: "You have Premium: no trial needed.".to_owned(),
            access: access(&state.db, user.user_id, feature).await?,
        }));
    }
    let inserted = entity::Entity::insert(entity::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user.user_id),
        feature_name: Set(feature.as_str().to_owned()),
        used_at: Set(Utc::now()),
        consumed_at: Set(None),
    })
    .on_conflict(
        OnConflict::columns([entity::Column::UserId, entity::Column::FeatureName])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&state.db)
    .await?;
    if inserted == 0 {
        return Err(ApiError::conflict(
            ErrorCode::TrialUsed,
            "You've already used your free trial of this feature.",
        ));
    }
    Ok(Json(TrialActivated {
        message: feature.trial_message().to_owned(),
        access: access(&state.db, user.user_id, feature).await?,
    }))
}

/// The user's trials, in their export (deleted with the account by cascade).
pub struct FeatureTrials;

#[async_trait::async_trait]
impl UserData for FeatureTrials {
    fn name(&self) -> &'static str {
        "feature_trials"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let trials: Vec<Value> = entity::Entity::find()
            .filter(entity::Column::UserId.eq(user_id))
            .all(&state.db)
            .await?
            .into_iter()
            .map(|trial| {
                json!({
                    "feature": trial.feature_name,
                    "activated_at": trial.used_at,
                    "used_at": trial.consumed_at,
                })
            })
            .collect();
        Ok(Some(Value::Array(trials)))
    }
}
