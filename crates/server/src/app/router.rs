//! Every route of the app, assembled from the domains' `routes()`. A new
//! domain adds one line here.

use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

use crate::http::{self, AppState};
use crate::{admin, analyses, auth, billing, edits, features, media, photos, site};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "PrettyScore API",
        description = "Photo scores for fun: analyses, photos, leaderboard, contact requests, messages, premium and partners."
    ),
    components(schemas(http::error::ErrorBody)),
    tags(
        (name = "operations", description = "Health, readiness and metrics"),
        (name = "site", description = "Public settings of this deployment"),
        (name = "analyses", description = "Scores for face, pet, feet and hands photos; nothing is stored"),
        (name = "photos", description = "The signed-in user's saved photos"),
        (name = "edits", description = "AI photo edits and the free-edit quota"),
        (name = "billing", description = "Checkout, the payment providers' events, the Premium subscription and the user's payments"),
        (name = "features", description = "Premium feature gates and their one free trial"),
        (name = "admin", description = "The admin pages; administrators only"),
    )
)]
struct ApiDoc;

/// Every documented route. The OpenAPI document comes from the same value,
/// so it cannot drift from the routes.
fn api_routes() -> OpenApiRouter<AppState> {
    let api_v1 = OpenApiRouter::new()
        .merge(site::routes())
        .merge(auth::api_routes())
        .merge(http::outbox::routes())
        .merge(analyses::routes())
        .merge(photos::routes())
        .merge(edits::api_routes())
        .merge(billing::routes())
        .merge(admin::routes());
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(http::health::routes())
        .nest("/api/v1", api_v1)
        .nest(
            "/functions/v1",
            edits::function_routes()
                .merge(billing::function_routes())
                .merge(features::function_routes()),
        )
}

/// The OpenAPI document, as served at `/api/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api_routes().split_for_parts().1
}

/// The whole app: the documented API, the auth API, media, share pages and
/// the API docs, behind the HTTP edge (`http::serve`).
pub fn router(state: AppState) -> Router {
    let (api, openapi) = api_routes().split_for_parts();
    let routes = Router::new()
        .merge(api.layer(axum::middleware::from_fn(http::no_store_by_default)))
        .nest("/auth/v1", auth::routes(&state))
        .merge(media::routes())
        .merge(photos::share::routes())
        .merge(SwaggerUi::new("/api/docs").url("/api/openapi.json", openapi))
        .layer(axum::middleware::from_fn(http::text::refuse_in_uri));
    http::serve(routes, state)
}
