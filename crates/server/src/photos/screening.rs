//! The nudity check before a photo becomes public. Before a share page or card,
//! a contest entry or a leaderboard listing shows an image, that image is
//! screened (the analysis crate's `screen_image`, nsfwjs's classifier, in the
//! blocking pool) and the result kept on the photo. An image whose unsafe share
//! (Porn + Hentai + Sexy) reaches `screening.hold_at` holds the photo: its owner
//! is told it is held for review, nothing of it is public, and it waits in the
//! admin queue (the leaderboard's moderation queue) until an admin releases or
//! approves it. Each later change of the public image is screened again.

use prettyscore_analysis::{ScreeningScores, screen_image};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::entity;
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::media;

/// What the owner reads when a photo is held.
pub const HELD_MESSAGE: &str =
    "Your photo is held for review. An admin will look at it before anyone else can see it.";

/// The check's result as the API shows it (to admins beside the image).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Screening {
    /// The classifier's five class probabilities.
    pub scores: ScreeningScores,
    /// Porn + Hentai + Sexy.
    pub unsafe_share: f32,
    /// At or above the configured threshold.
    pub flagged: bool,
    /// Held and not yet released by an admin.
    pub held: bool,
}

/// The stored result: the media path of the image screened and its scores.
fn stored(row: &entity::Model) -> Option<(String, ScreeningScores)> {
    let value = row.screening.as_ref()?;
    let score = |k: &str| value.get(k).and_then(|v| v.as_f64()).map(|v| v as f32);
    Some((
        value.get("image")?.as_str()?.to_owned(),
        ScreeningScores {
            drawing: score("drawing")?,
            hentai: score("hentai")?,
            neutral: score("neutral")?,
            porn: score("porn")?,
            sexy: score("sexy")?,
        },
    ))
}

/// The check's result for admins, if the photo was screened.
pub fn view(state: &AppState, row: &entity::Model) -> Option<Screening> {
    let (_, scores) = stored(row)?;
    Some(Screening {
        scores,
        unsafe_share: scores.unsafe_share(),
        flagged: scores.unsafe_share() >= state.config.screening.hold_at,
        held: row.screening_held,
    })
}

/// Whether `image` (a media path) of this photo may be shown publicly: it was
/// screened, and the photo is not held.
pub fn may_show(row: &entity::Model, image: &str) -> bool {
    !row.screening_held && stored(row).is_some_and(|(screened, _)| screened == image)
}

/// The image a share page and its card show: the latest edit, or the original.
pub fn shared_image(row: &entity::Model) -> &str {
    row.edited_image_url
        .as_deref()
        .unwrap_or(&row.original_image_url)
}

/// Screens `image` (a media path of this photo) unless it is the image screened
/// last, and keeps the result; the photo as it now is. A flagged image holds the
/// photo; a photo already held stays held until an admin releases it.
pub async fn screen(
    state: &AppState,
    row: entity::Model,
    image: &str,
) -> Result<entity::Model, ApiError> {
    if stored(&row).is_some_and(|(screened, _)| screened == image) {
        return Ok(row);
    }
    let key = media::key_of(image)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("not a media path: {image}")))?;
    let bytes = state
        .storage
        .get(key)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found("Photo not found"))?;
    let scores = state
        .blocking
        .run(move || screen_image(&bytes))
        .await?
        .map_err(|err| ApiError::internal(anyhow::anyhow!("screening a stored image: {err}")))?;
    let flagged = scores.unsafe_share() >= state.config.screening.hold_at;
    let result = json!({
        "image": image,
        "drawing": scores.drawing,
        "hentai": scores.hentai,
        "neutral": scores.neutral,
        "porn": scores.porn,
        "sexy": scores.sexy,
    });
    // One UPDATE that only ever sets the hold (never clears one an admin has not
    // released), so two requests screening at once agree.
    let mut update = entity::Entity::update_many()
        .col_expr(entity::Column::Screening, Expr::value(result))
        .filter(entity::Column::Id.eq(row.id));
    if flagged {
        update = update.col_expr(entity::Column::ScreeningHeld, Expr::value(true));
    }
    update.exec(&state.db).await?;
    entity::Entity::find_by_id(row.id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Photo not found"))
}
