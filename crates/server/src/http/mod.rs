//! HTTP plumbing: the router, the error shape, extractors, request ids,
//! logs, metrics and the web app.

pub mod error;
pub mod extract;
pub mod health;
pub mod metrics;
pub mod outbox;
pub mod spa;
mod state;
pub mod upload;

pub use state::AppState;

use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderName, Method, Uri};
use axum::response::Response;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::sensitive_headers::SetSensitiveRequestHeadersLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Uploads are at most 10 MB; the margin covers multipart framing.
const BODY_LIMIT: usize = 11 * 1024 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "PrettyScore API",
        description = "Photo scores for fun: analyses, photos, leaderboard, contact requests, messages, premium and partners."
    ),
    components(schemas(error::ErrorBody)),
    tags(
        (name = "operations", description = "Health, readiness and metrics"),
        (name = "site", description = "Public settings of this deployment"),
        (name = "analyses", description = "Scores for face, pet, feet and hands photos; nothing is stored"),
        (name = "photos", description = "The signed-in user's saved photos"),
        (name = "edits", description = "AI photo edits and the free-edit quota"),
    )
)]
struct ApiDoc;

/// Every documented route. The OpenAPI document comes from the same value,
/// so it cannot drift from the routes.
fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::routes())
        .nest(
            "/api/v1",
            crate::site::routes()
                .merge(crate::auth::api_routes())
                .merge(outbox::routes())
                .merge(crate::analyses::routes())
                .merge(crate::photos::routes())
                .merge(crate::edits::api_routes()),
        )
        .nest("/functions/v1", crate::edits::function_routes())
}

/// The OpenAPI document, as served at `/api/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api_routes().split_for_parts().1
}

pub fn router(state: AppState) -> Router {
    let (api, openapi) = api_routes().split_for_parts();
    let middleware = ServiceBuilder::new()
        .layer(SetSensitiveRequestHeadersLayer::new([
            axum::http::header::AUTHORIZATION,
            axum::http::header::COOKIE,
        ]))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request| {
                    let request_id = request
                        .headers()
                        .get(&REQUEST_ID)
                        .and_then(|value| value.to_str().ok())
                        .unwrap_or_default();
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path(),
                        request_id,
                    )
                })
                .on_response(
                    |response: &axum::http::Response<_>,
                     latency: Duration,
                     _span: &tracing::Span| {
                        tracing::info!(
                            status = response.status().as_u16(),
                            latency_ms = latency.as_millis() as u64,
                            "response"
                        );
                    },
                ),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(CatchPanicLayer::new())
        .layer(CompressionLayer::new());

    Router::new()
        .merge(api)
        .nest("/auth/v1", crate::auth::routes())
        .merge(crate::media::routes())
        .route(
            "/s/{slug}",
            axum::routing::get(crate::photos::share::share_page),
        )
        .route(
            "/s/{slug}/card.png",
            axum::routing::get(crate::photos::share::share_card),
        )
        .merge(SwaggerUi::new("/api/docs").url("/api/openapi.json", openapi))
        .fallback(web_app)
        // Extractors refuse larger bodies with 413, which the upload code turns
        // into the spec's message.
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .route_layer(axum::middleware::from_fn(metrics::track))
        .with_state(state)
        .layer(middleware)
}

async fn web_app(State(state): State<AppState>, method: Method, uri: Uri) -> Response {
    state.web.serve(&method, &uri).await
}
