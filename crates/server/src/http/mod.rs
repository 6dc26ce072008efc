//! The HTTP edge, below every domain: the application state, the one error
//! shape, the extractors (who is calling, roles), the upload reader, request
//! ids, logs, metrics, health, the development outbox and the web app. The
//! routes themselves are assembled in `app`.

pub mod body_slots;
pub mod budget;
pub mod busy;
pub mod cookies;
pub mod error;
pub mod extract;
pub mod health;
pub mod hooks;
pub mod idle_body;
pub mod metrics;
pub mod outbox;
pub mod rate_limit;
pub mod recent_reads;
pub mod security;
pub mod server;
pub mod shared_answer;
pub mod spa;
mod state;
pub mod text;
pub mod upload;
pub mod user_data;

pub use state::{AppHooks, AppState};

use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderName, Method, Uri};
use axum::response::Response;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::classify::ServerErrorsFailureClass;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::sensitive_headers::SetSensitiveRequestHeadersLayer;
use tower_http::trace::TraceLayer;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Uploads are at most 10 MB; the margin covers multipart framing.
pub const BODY_LIMIT: usize = 11 * 1024 * 1024;

/// The HTTP edge every route shares: request ids, logs, metrics,
/// compression, panics answered as 500s, security headers, the body limit
/// and the cap on bodies in flight, and the web app for every path no route
/// takes. `routes` are the app's routes (see `app`).
pub fn serve(routes: Router<AppState>, state: AppState) -> Router {
    let security = security::SecurityHeaders::for_public_url(state.config.public_url.as_deref());
    let budget = budget::BodyBudget::new(
        state.config.http.max_body_bytes_in_flight,
        state.config.http.max_body_bytes_in_flight_per_address,
        BODY_LIMIT as u64,
        state.config.auth.trust_x_forwarded_for,
    );
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
                    // Debug formatting (`?`) escapes what a client chose.
                    tracing::info_span!(
                        "request",
                        method = ?request.method(),
                        path = ?request.uri().path(),
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
                )
                // A 503 is an expected state that its error already logged
                // (at warn); other server errors (a panic's 500) say so here.
                .on_failure(
                    |class: ServerErrorsFailureClass, latency: Duration, _span: &tracing::Span| {
                        if matches!(class, ServerErrorsFailureClass::StatusCode(status)
                            if status == axum::http::StatusCode::SERVICE_UNAVAILABLE)
                        {
                            return;
                        }
                        tracing::error!(
                            classification = %class,
                            latency_ms = latency.as_millis() as u64,
                            "response failed"
                        );
                    },
                ),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(CatchPanicLayer::new())
        .layer(CompressionLayer::new())
        .layer(axum::middleware::from_fn_with_state(
            budget,
            budget::reserve,
        ));

    routes
        .fallback(web_app)
        // Extractors refuse larger bodies with 413, which the upload code turns
        // into the spec's message.
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .route_layer(axum::middleware::from_fn(metrics::track))
        .with_state(state)
        .layer(middleware)
        // Outermost: also on panics' 500s and the edge's own refusals.
        .layer(axum::middleware::from_fn_with_state(
            security,
            security::add_headers,
        ))
        .layer(axum::middleware::from_fn(error::retry_after_on_every_503))
}

/// Marks an answer `Cache-Control: no-store` unless it says otherwise: the
/// API's answers are one user's data and carry short-lived signed media
/// URLs, which no shared or browser cache should keep.
pub async fn no_store_by_default(request: Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .entry(axum::http::header::CACHE_CONTROL)
        .or_insert(axum::http::HeaderValue::from_static("no-store"));
    response
}

async fn web_app(State(state): State<AppState>, method: Method, uri: Uri) -> Response {
    state.web.serve(&method, &uri).await
}
