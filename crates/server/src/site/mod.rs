//! Public facts about this deployment that the web app shows (the privacy
//! page's contact address, the site's name).

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;
use crate::http::extract::Json;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(app_config))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AppConfig {
    /// Where users write about privacy and their data.
    pub contact_email: String,
    pub site_name: String,
    /// Days a contestant has, after approving a contact request, to write
    /// to the requester before the fee is refunded in full.
    pub reply_window_days: u32,
}

/// Public settings the web app needs at run time.
#[utoipa::path(
    get,
    path = "/app-config",
    tag = "site",
    responses((status = 200, description = "Public settings", body = AppConfig))
)]
async fn app_config(State(state): State<AppState>) -> Json<AppConfig> {
    Json(AppConfig {
        contact_email: state.config.contact_email.clone(),
        site_name: "PrettyScore".to_owned(),
        reply_window_days: state.config.payments.reply_window_days,
    })
}
