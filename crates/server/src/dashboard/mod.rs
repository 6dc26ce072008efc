//! The user dashboard's summary (`/user-dashboard`): one request for the stats
//! cards, answered from the domains that own each number: saved photos and
//! the face scores among them, the free edits left on this device, the latest
//! personality result, Premium, the verification badge, and the contestant's
//! contact earnings.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use sea_orm::{
    ColumnTrait, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{self, MaybePremium};
use crate::edits::device::Device;
use crate::edits::{EditQuota, quota_of};
use crate::http::AppState;
use crate::http::error::{ApiError, SignedInErrors};
use crate::http::extract::{Json, not_signed_in};
use crate::personality::entity as personality;
use crate::photos::entity as photos;
use crate::verification;

/// `/dashboard`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(summary))
}

/// The stats cards.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardSummary {
    /// Every saved photo (face, feet and hands).
    pub photos_saved: u64,
    /// Saved face photos: the best and average scores are theirs.
    pub face_photos: u64,
    /// `null` without face photos.
    #[schema(required = true)]
    pub best_face_score: Option<f64>,
    /// One decimal; `null` without face photos.
    #[schema(required = true)]
    pub average_face_score: Option<f64>,
    pub free_edits: EditQuota,
    /// The newest personality result; `null` before the first.
    #[schema(required = true)]
    pub personality: Option<LatestPersonality>,
    /// An active Premium Editing subscription.
    pub premium: bool,
    /// The verification badge.
    pub verified: bool,
    /// The contestant's share of approved contact requests that were charged
    /// and not refunded, in cents: sent or waiting for the refund window
    /// (`/api/v1/payouts/earnings` has each line).
    pub contact_earnings_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LatestPersonality {
    pub personality_type: String,
    pub score: i32,
    /// The detailed analysis was bought.
    pub paid: bool,
    pub created_at: DateTime<Utc>,
}

struct FaceScores {
    best: Option<f64>,
    average: Option<f64>,
}

/// The signed-in user's stats. Issues the `ps_device` cookie when the browser
/// has none (the free edits are counted per browser).
#[utoipa::path(get, path = "/dashboard", tag = "dashboard",
    responses(
        (status = 200, description = "The stats cards", body = DashboardSummary),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn summary(
    State(state): State<AppState>,
    device: Device,
    caller: MaybePremium,
) -> Response {
    let result = summary_of(&state, &device, &caller).await;
    device.attach(&state, result.into_response())
}

async fn summary_of(
    state: &AppState,
    device: &Device,
    caller: &MaybePremium,
) -> Result<Json<DashboardSummary>, ApiError> {
    let user = caller.user.as_ref().ok_or_else(not_signed_in)?;
    let mine = || photos::Entity::find().filter(photos::Column::UserId.eq(user.user_id));
    let photos_saved = mine().count(&state.db).await?;
    let faces = || mine().filter(photos::Column::PhotoType.eq("face"));
    let face_photos = faces().count(&state.db).await?;
    let scores = faces()
        .select_only()
        .column_as(photos::Column::Score.max(), "best")
        .column_as(photos::Column::Score.sum(), "total")
        .into_model::<FaceTotals>()
        .one(&state.db)
        .await?
        .unwrap_or_default();
    let FaceScores { best, average } = scores.with_count(face_photos);
    let Json(free_edits) = quota_of(state, device, caller, None).await?;
    let personality = personality::Entity::find()
        .filter(personality::Column::UserId.eq(user.user_id))
        .order_by_desc(personality::Column::CreatedAt)
        .order_by_desc(personality::Column::Id)
        .one(&state.db)
        .await?
        .map(|row| LatestPersonality {
            personality_type: row.personality_type,
            score: row.score,
            paid: row.paid,
            created_at: row.created_at,
        });
    let verified = verification::is_verified(&state.db, user.user_id).await?;
    let contact_earnings_cents =
        billing::payouts::ledger::earned_cents(&state.db, user.user_id).await?;
    Ok(Json(DashboardSummary {
        photos_saved,
        face_photos,
        best_face_score: best,
        average_face_score: average,
        free_edits,
        personality,
        premium: caller.premium_editing,
        verified,
        contact_earnings_cents,
    }))
}

/// MAX and SUM of the face scores (the average is taken here, so both
/// databases give the same rounding).
#[derive(Debug, Default, FromQueryResult)]
struct FaceTotals {
    best: Option<f64>,
    total: Option<f64>,
}

impl FaceTotals {
    fn with_count(self, count: u64) -> FaceScores {
        let average = match (self.total, count) {
            (Some(total), 1..) => Some((total / count as f64 * 10.0).round() / 10.0),
            _ => None,
        };
        FaceScores {
            best: self.best,
            average,
        }
    }
}
