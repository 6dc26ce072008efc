//! Liveness, readiness and Prometheus metrics.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header;
use axum::response::IntoResponse;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ErrorBody, ErrorCode};
use super::extract::Json;
use crate::db;
use crate::http::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
        .routes(routes!(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` when the process serves requests.
    pub status: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    pub status: &'static str,
    /// `ok` when the database answered.
    pub database: &'static str,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "Alive", body = Health)))]
async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// The process can serve traffic: it is not shutting down and the database
/// answers.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Readiness),
        (status = 503, description = "`shutting_down` (the instance drains before it stops) or `database_unavailable`", body = ErrorBody),
    ))]
async fn readyz(State(state): State<AppState>) -> Result<Json<Readiness>, ApiError> {
    if state.draining.is_draining() {
        return Err(ApiError::unavailable(
            ErrorCode::ShuttingDown,
            "This instance is shutting down.",
        ));
    }
    db::ping(&state.db).await.map_err(|err| {
        ApiError::unavailable(
            ErrorCode::DatabaseUnavailable,
            "The database is not reachable.",
        )
        .with_cause(err)
    })?;
    Ok(Json(Readiness {
        status: "ok",
        database: "ok",
    }))
}

/// Prometheus metrics in the text exposition format, for the configured
/// scraper only: a request carrying `http.metrics_token`, or without one a
/// request from loopback that came through no proxy. Anyone else gets 404.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses(
        (status = 200, description = "Prometheus text", content_type = "text/plain", body = String),
        (status = 404, description = "Not the configured scraper", body = ErrorBody),
    ))]
async fn metrics(
    State(state): State<AppState>,
    request: Request,
) -> Result<impl IntoResponse, ApiError> {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| address.ip());
    if !super::metrics::may_read(&state.config.http, peer, request.headers()) {
        return Err(ApiError::not_found("There is no endpoint at /metrics."));
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    ))
}
