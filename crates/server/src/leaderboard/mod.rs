//! The public leaderboard and the monthly ranking contest: listing, ranks and
//! contact fees (`listing`), moderation and reports (`moderation`), the contest
//! (`contest`), and demo data for a fresh database (`demo`).
//!
//! Other domains use [`rank_of`]: the contact fee (billing's
//! `contact_fee_dollars`) is decided from the rank at that moment.

pub mod contest;
pub mod demo;
pub mod listing;
pub mod moderation;
pub mod reports;
pub mod rules;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;

pub use listing::{listed_after, rank_of};

/// `/leaderboard…`, `/contest…` and `/admin/leaderboard…`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(listing::leaderboard))
        .routes(routes!(listing::entry_image))
        .routes(routes!(moderation::report))
        .routes(routes!(contest::submit))
        .routes(routes!(contest::standings))
        .routes(routes!(moderation::admin_entries))
        .routes(routes!(moderation::approve))
        .routes(routes!(moderation::reject))
        .routes(routes!(moderation::release))
        .routes(routes!(moderation::unlist))
        .routes(routes!(moderation::feature))
}
