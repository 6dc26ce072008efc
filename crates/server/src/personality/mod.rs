//! The personality test (docs/spec-rules.md): 20 questions (`quiz`), a
//! deterministic model (`model`), a free basic result and a paid detailed
//! analysis ($4.99 through `create-checkout` type `personality_detailed`).
//!
//! - `GET /api/v1/personality/quiz`: the questions, for the web app.
//! - `POST /functions/v1/personality-analysis {answers, quizType}`: `basic`
//!   needs the `personality_test` gate (Premium or the trial) and saves a
//!   result with paid false; `detailed` needs a fulfilled payment that no
//!   detailed result has used yet, and saves a new result with paid true
//!   and that payment's id (unique: one payment, one detailed analysis).
//!   Sending the same answers as the latest result of that type again (a
//!   double submit, a reload after checkout) answers that result.
//! - `GET /api/v1/personality/results`: the caller's results, newest first.

pub mod entity;
pub mod model;
pub mod quiz;

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr,
    EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::billing::entity::payment;
use crate::billing::rules::Purchase;
use crate::db::constraints::violated_constraint;
use crate::features::{self, Feature};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, Json};
use crate::http::hooks::Hooks;
use crate::http::user_data::UserData;
use model::{Answers, TraitScore};

pub const BASIC: &str = "basic";
pub const DETAILED: &str = "detailed";

/// `/personality/quiz` and `/personality/results`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(questions))
        .routes(routes!(results))
}

/// `/personality-analysis`, nested under `/functions/v1`.
pub fn function_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(personality_analysis))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum QuizType {
    Basic,
    Detailed,
}

impl QuizType {
    fn as_str(self) -> &'static str {
        match self {
            Self::Basic => BASIC,
            Self::Detailed => DETAILED,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonalityAnalysisRequest {
    /// Question index ("0" to "19") to the chosen option's value.
    pub answers: BTreeMap<String, String>,
    pub quiz_type: QuizType,
}

/// A saved result.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonalityResult {
    pub id: Uuid,
    pub quiz_type: QuizType,
    /// 60 to 100: how clearly the type shows.
    pub score: i32,
    pub personality_type: String,
    pub analysis: String,
    /// 0 to 100 each: the five traits of a detailed (paid) result; the
    /// leading trait alone for a basic one (the other four are part of what
    /// the detailed analysis sells).
    pub traits: Vec<TraitScore>,
    pub paid: bool,
    pub answers: BTreeMap<String, String>,
    pub created_at: DateTime<Utc>,
}

impl From<entity::Model> for PersonalityResult {
    fn from(row: entity::Model) -> Self {
        let answers: BTreeMap<String, String> =
            serde_json::from_value(row.answers).unwrap_or_default();
        // The traits are not stored: the model gives them again from the answers.
        let traits = Answers::parse(&answers)
            .map(|a| model::profile(&a))
            .map(|profile| match row.paid {
                true => profile.traits,
                false => vec![profile.leading_trait()],
            })
            .unwrap_or_default();
        Self {
            id: row.id,
            quiz_type: if row.quiz_type == DETAILED {
                QuizType::Detailed
            } else {
                QuizType::Basic
            },
            score: row.score,
            personality_type: row.personality_type,
            analysis: row.analysis,
            traits,
            paid: row.paid,
            answers,
            created_at: row.created_at,
        }
    }
}

/// The 20 questions in order, with their options.
#[utoipa::path(get, path = "/personality/quiz", tag = "personality",
    responses((status = 200, description = "The quiz", body = Vec<quiz::QuizQuestion>)))]
pub async fn questions() -> Json<Vec<quiz::QuizQuestion>> {
    Json(quiz::public_questions())
}

/// The caller's results, newest first.
#[utoipa::path(get, path = "/personality/results", tag = "personality",
    responses(
        (status = 200, description = "The caller's results", body = Vec<PersonalityResult>),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn results(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<Vec<PersonalityResult>>, ApiError> {
    let rows = entity::Entity::find()
        .filter(entity::Column::UserId.eq(user.user_id))
        .order_by_desc(entity::Column::CreatedAt)
        .order_by_desc(entity::Column::Id)
        .limit(100)
        .all(&state.db)
        .await?;
    Ok(Json(rows.into_iter().map(Into::into).collect()))
}

/// Scores the answers and saves the result. `basic` needs Premium or the
/// personality test's trial; `detailed` needs a paid, unused
/// `personality_detailed` payment.
#[utoipa::path(post, path = "/personality-analysis", tag = "personality",
    request_body = PersonalityAnalysisRequest,
    responses(
        (status = 200, description = "The result, saved", body = PersonalityResult),
        SignedInErrors,
        (status = 402, description = "`payment_required`: the detailed analysis was not paid for", body = ErrorBody),
        (status = 403, description = "`feature_locked`: no Premium and no active trial", body = ErrorBody),
        (status = 422, description = "`validation_failed`: not 20 known answers", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn personality_analysis(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<PersonalityAnalysisRequest>,
) -> Result<Json<PersonalityResult>, ApiError> {
    let answers =
        Answers::parse(&request.answers).map_err(|err| ApiError::invalid(err.to_string()))?;
    let map = serde_json::to_value(answers.to_map()).expect("a map of strings");
    if let Some(latest) = latest_with(&state.db, user.user_id, request.quiz_type, &map).await? {
        return Ok(Json(latest.into()));
    }
    let payment_id = match request.quiz_type {
        QuizType::Basic => {
            // The trial is one completed quiz: used up by this result.
            let access =
                features::require_access(&state.db, user.user_id, Feature::PersonalityTest).await?;
            features::use_once(&state.db, user.user_id, Feature::PersonalityTest, access).await?;
            None
        }
        QuizType::Detailed => match unused_payment(&state.db, user.user_id).await? {
            Some(payment) => Some(payment),
            // A request for the same answers may have used the payment since
            // the check above: then its result is this one's.
            None => {
                return latest_with(&state.db, user.user_id, request.quiz_type, &map)
                    .await?
                    .map(|row| Json(row.into()))
                    .ok_or_else(not_paid);
            }
        },
    };
    let profile = model::profile(&answers);
    let analysis = match request.quiz_type {
        QuizType::Basic => profile.basic_analysis(),
        QuizType::Detailed => profile.detailed_analysis(),
    };
    let saved = entity::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user.user_id),
        quiz_type: Set(request.quiz_type.as_str().to_owned()),
        answers: Set(map.clone()),
        score: Set(i32::from(profile.score)),
        personality_type: Set(profile.personality_type.to_owned()),
        analysis: Set(analysis),
        paid: Set(request.quiz_type == QuizType::Detailed),
        created_at: Set(Utc::now()),
        payment_id: Set(payment_id),
    }
    .insert(&state.db)
    .await;
    match saved {
        Ok(row) => Ok(Json(row.into())),
        // Two requests claimed the same payment at once: the other one saved
        // it; answer with that result if it is for these answers.
        Err(err)
            if violated_constraint(&err)
                .is_some_and(|v| v.is("personality_results_payment_id_key")) =>
        {
            latest_with(&state.db, user.user_id, request.quiz_type, &map)
                .await?
                .map(|row| Json(row.into()))
                .ok_or_else(not_paid)
        }
        Err(err) => Err(err.into()),
    }
}

fn not_paid() -> ApiError {
    ApiError::new(
        StatusCode::PAYMENT_REQUIRED,
        ErrorCode::PaymentRequired,
        "Buy the detailed analysis ($4.99) to see it.",
    )
}

/// The caller's latest result of this type, if it was for these answers. A
/// basic request is answered by a detailed result too (one bought for a
/// basic result is that result, upgraded).
async fn latest_with(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    quiz_type: QuizType,
    answers: &Value,
) -> Result<Option<entity::Model>, ApiError> {
    let mut query = entity::Entity::find().filter(entity::Column::UserId.eq(user_id));
    if quiz_type == QuizType::Detailed {
        query = query.filter(entity::Column::QuizType.eq(quiz_type.as_str()));
    }
    let latest = query
        .order_by_desc(entity::Column::CreatedAt)
        .order_by_desc(entity::Column::Id)
        .one(db)
        .await?;
    Ok(latest.filter(|row| &row.answers == answers))
}

/// The oldest succeeded `personality_detailed` payment of the user that no
/// detailed result has used.
async fn unused_payment(
    db: &impl ConnectionTrait,
    user_id: Uuid,
) -> Result<Option<Uuid>, ApiError> {
    let used: Vec<Uuid> = entity::Entity::find()
        .filter(entity::Column::UserId.eq(user_id))
        .filter(entity::Column::PaymentId.is_not_null())
        .all(db)
        .await?
        .into_iter()
        .filter_map(|row| row.payment_id)
        .collect();
    let paid = payment::Entity::find()
        .filter(payment::Column::UserId.eq(user_id))
        .filter(payment::Column::Purpose.eq(Purchase::PersonalityDetailed.as_str()))
        .filter(payment::Column::Status.is_in(payment::Status::stored(&payment::Status::KEPT)))
        .filter(payment::Column::Id.is_not_in(used))
        .order_by_asc(payment::Column::CreatedAt)
        .one(db)
        .await?;
    Ok(paid.map(|p| p.id))
}

/// The user's results, in their export (deleted with the account by cascade).
pub struct PersonalityResults;

#[async_trait::async_trait]
impl UserData for PersonalityResults {
    fn name(&self) -> &'static str {
        "personality_results"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let rows = entity::Entity::find()
            .filter(entity::Column::UserId.eq(user_id))
            .order_by_asc(entity::Column::CreatedAt)
            .all(&state.db)
            .await?;
        let results: Vec<PersonalityResult> = rows.into_iter().map(Into::into).collect();
        Ok(Some(serde_json::to_value(results)?))
    }
}

/// Personality sells the detailed analysis of one saved result: checkout
/// asks it whose result is bought ([`Hooks::owns_purchase`]), and a paid
/// purchase turns that result into the detailed analysis
/// ([`Hooks::payment_changed`]), in the payment's transaction.
pub struct PersonalityHooks;

#[async_trait::async_trait]
impl Hooks<AppState> for PersonalityHooks {
    async fn owns_purchase(
        &self,
        db: &DatabaseConnection,
        purpose: &str,
        reference: Uuid,
        buyer: Uuid,
    ) -> Result<Option<bool>, DbErr> {
        if purpose != Purchase::PersonalityDetailed.as_str() {
            return Ok(None);
        }
        let found = entity::Entity::find_by_id(reference)
            .filter(entity::Column::UserId.eq(buyer))
            .one(db)
            .await?;
        Ok(Some(found.is_some()))
    }

    async fn payment_changed(
        &self,
        txn: &DatabaseTransaction,
        payment_id: Uuid,
    ) -> Result<(), DbErr> {
        let Some(paid) = payment::Entity::find_by_id(payment_id).one(txn).await? else {
            return Ok(());
        };
        if paid.purpose != Purchase::PersonalityDetailed.as_str() || !paid.state().is_kept() {
            return Ok(());
        }
        let Some(result_id) = paid
            .purchase_ref
            .as_deref()
            .and_then(|r| Uuid::parse_str(r).ok())
        else {
            return Ok(());
        };
        let Some(result) = entity::Entity::find_by_id(result_id).one(txn).await? else {
            return Ok(());
        };
        if result.paid || Some(result.user_id) != paid.user_id {
            return Ok(());
        }
        let answers: BTreeMap<String, String> =
            serde_json::from_value(result.answers.clone()).unwrap_or_default();
        let Ok(parsed) = Answers::parse(&answers) else {
            return Ok(());
        };
        let profile = model::profile(&parsed);
        entity::Entity::update_many()
            .col_expr(entity::Column::Paid, Expr::value(true))
            .col_expr(entity::Column::QuizType, Expr::value(DETAILED))
            .col_expr(
                entity::Column::Analysis,
                Expr::value(profile.detailed_analysis()),
            )
            .col_expr(entity::Column::PaymentId, Expr::value(paid.id))
            .filter(entity::Column::Id.eq(result.id))
            .filter(entity::Column::Paid.eq(false))
            .exec(txn)
            .await?;
        Ok(())
    }
}
