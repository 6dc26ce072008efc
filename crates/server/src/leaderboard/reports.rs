//! What the reports domain needs of photos (issue 41): a photo, its share
//! page (`share`, by slug) and its contest entry are one thing to report
//! and to decide (canonical kind `photo`); removing it takes the row, and
//! with it the share page and card, the listing and the contest standing, at
//! once, and deletes its stored images. A banned user's listings and share
//! links are withdrawn.
//!
//! (The `leaderboard_reports` table of the first leaderboard is no longer
//! written: its open reports were copied into the one queue by
//! `m20261208_8401_reports`.)

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};
use uuid::Uuid;

use super::listing::listed;
use crate::http::AppState;
use crate::http::hooks::{Hooks, Removed, Reported};
use crate::media;
use crate::photos::entity as photos;
use crate::photos::{self as photo_rules, share};

/// The photos' reports listener, registered in `app::hooks`.
pub struct PhotoReports;

async fn find(state: &AppState, kind: &str, id: &str) -> Result<Option<photos::Model>, DbErr> {
    let id = id.trim();
    if kind == "share" {
        return photos::Entity::find()
            .filter(photos::Column::ShareSlug.eq(id))
            .one(&state.db)
            .await;
    }
    let Ok(id) = id.parse::<Uuid>() else {
        return Ok(None);
    };
    let row = photos::Entity::find_by_id(id).one(&state.db).await?;
    Ok(row.filter(|row| kind != "contest_entry" || row.contest_month.is_some()))
}

/// Whether anyone may see the photo now: listed, or behind a live share link.
async fn is_public(state: &AppState, row: &photos::Model) -> Result<bool, DbErr> {
    if share::is_live(row, Utc::now()) && !row.screening_held {
        return Ok(true);
    }
    Ok(photos::Entity::find_by_id(row.id)
        .filter(listed())
        .one(&state.db)
        .await?
        .is_some())
}

#[async_trait::async_trait]
impl Hooks<AppState> for PhotoReports {
    async fn reported(
        &self,
        state: &AppState,
        kind: &str,
        id: &str,
    ) -> Result<Option<Option<Reported>>, DbErr> {
        if !matches!(kind, "photo" | "share" | "contest_entry") {
            return Ok(None);
        }
        let Some(row) = find(state, kind, id).await? else {
            return Ok(Some(None));
        };
        let public = is_public(state, &row).await?;
        let name = row
            .display_name
            .clone()
            .unwrap_or_else(|| "an unnamed photo".to_owned());
        let label = if row.contest_month.is_some() {
            "a photo in the contest"
        } else if row.public_listing && row.is_verified {
            "a photo on the leaderboard"
        } else {
            "a shared photo"
        };
        Ok(Some(Some(Reported {
            kind: "photo",
            id: row.id.to_string(),
            owner: Some(row.user_id),
            label: label.to_owned(),
            excerpt: format!("{name} ({:.1}/10)", row.score),
            image_url: Some(media::signed_url(state, &row.original_image_url)),
            public,
            parties: Vec::new(),
        })))
    }

    async fn remove_reported(
        &self,
        state: &AppState,
        kind: &str,
        id: &str,
        evidence: Option<&str>,
    ) -> Result<Option<Removed>, DbErr> {
        if kind != "photo" {
            return Ok(None);
        }
        let Some(row) = find(state, kind, id).await? else {
            return Ok(Some(Removed::default()));
        };
        let evidence_keys = photo_rules::remove_reported(state, &row, evidence).await?;
        Ok(Some(Removed {
            evidence_keys,
            evidence_text: None,
        }))
    }

    async fn user_banned(&self, state: &AppState, user: Uuid) -> Result<(), DbErr> {
        photos::Entity::update_many()
            .col_expr(photos::Column::PublicListing, Expr::value(false))
            .col_expr(photos::Column::IsVerified, Expr::value(false))
            .col_expr(photos::Column::Featured, Expr::value(false))
            .col_expr(photos::Column::ShareSlug, Expr::value(None::<String>))
            .col_expr(
                photos::Column::ShareExpiresAt,
                Expr::value(None::<chrono::DateTime<Utc>>),
            )
            .col_expr(
                photos::Column::ListingStatus,
                Expr::cust("CASE WHEN listing_status IS NULL THEN NULL ELSE 'unlisted' END"),
            )
            .col_expr(photos::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(photos::Column::UserId.eq(user))
            .exec(&state.db)
            .await?;
        Ok(())
    }
}
