//! Every route of the app, assembled from the domains' `routes()`. A new
//! domain adds one line here.

use axum::Router;
use axum::extract::Request;
use axum::http::{Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

use crate::http::error::{ApiError, ErrorCode};
use crate::http::{self, AppState};
use crate::{
    admin, analyses, auth, billing, contact, dashboard, edits, features, leaderboard, media,
    messages, opportunities, partners, personality, photos, reports, site, verification,
};

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
        (name = "leaderboard", description = "The public leaderboard, reports and the monthly ranking contest"),
        (name = "opportunities", description = "Applications for modelling and brand opportunities"),
        (name = "personality", description = "The personality test and its detailed analysis"),
        (name = "dashboard", description = "The user dashboard's stats"),
        (name = "verification", description = "Verification badge requests"),
        (name = "contact", description = "Paid contact requests: the hold, the contestant's answer, blocks"),
        (name = "messages", description = "Private messages of approved contact requests, with a resumable stream"),
        (name = "reports", description = "Reports of anything public or shared, the decisions about them and their appeals"),
        (name = "partners", description = "The partner programme: applying, the portal, referral clicks and the partner leaderboard"),
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
        .merge(admin::routes())
        .merge(leaderboard::routes())
        .merge(opportunities::routes())
        .merge(personality::routes())
        .merge(dashboard::routes())
        .merge(verification::routes())
        .merge(partners::routes())
        .merge(contact::routes())
        .merge(messages::routes())
        .merge(reports::routes());
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(http::health::routes())
        .nest("/api/v1", api_v1)
        .nest(
            "/functions/v1",
            edits::function_routes()
                .merge(billing::function_routes())
                .merge(features::function_routes())
                .merge(personality::function_routes())
                .merge(partners::function_routes()),
        )
}

/// The OpenAPI document, as served at `/api/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    super::openapi::complete(api_routes().split_for_parts().1)
}

/// The whole app: the documented API, the auth API, media, share pages and
/// the API docs, behind the HTTP edge (`http::serve`).
pub fn router(state: AppState) -> Router {
    let (api, openapi) = api_routes().split_for_parts();
    let openapi = super::openapi::complete(openapi);
    let routes = Router::new()
        .merge(api.layer(axum::middleware::from_fn(http::no_store_by_default)))
        .merge(media::routes())
        .merge(photos::share::routes())
        .merge(SwaggerUi::new("/api/docs").url("/api/openapi.json", openapi))
        // After these routes (it applies to the routes there are), before the
        // auth API, which has its own inside its CORS layer: a fallback set
        // from out here would bypass that layer and refuse CORS preflights.
        .method_not_allowed_fallback(method_not_allowed)
        .nest("/auth/v1", auth::routes(&state))
        .layer(axum::middleware::from_fn(refuse_repeated_query_keys))
        .layer(axum::middleware::from_fn(http::text::refuse_in_uri))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::extract::forget_recent_reads_after_writes,
        ));
    http::serve(routes, state)
}

/// An error in the shape of the API the path belongs to: GoTrue's under
/// `/auth/v1` (where every unreadable query is `validation_failed`, as
/// GoTrue answers), `{code, message}` everywhere else.
fn refuse(path: &str, status: StatusCode, code: ErrorCode, message: String) -> Response {
    if path == "/auth/v1" || path.starts_with("/auth/v1/") {
        auth::error::AuthError::new(status, "validation_failed", message).into_response()
    } else {
        ApiError::new(status, code, message).into_response()
    }
}

/// A known path with a method it does not take: 405 in the error shape
/// (axum still adds the `Allow` header).
async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::MethodNotAllowed,
        format!("{path} does not take {method} requests."),
    )
    .into_response()
}

/// A query key given twice (`?sort=latest&sort=rating`) is ambiguous: each
/// reader would pick a different one. Refused with 400 on the APIs.
async fn refuse_repeated_query_keys(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let api = ["/api/", "/auth/v1", "/functions/", "/media/"]
        .iter()
        .any(|prefix| path.starts_with(prefix));
    if let (true, Some(query)) = (api, request.uri().query())
        && let Some(key) = repeated_key(query)
    {
        return refuse(
            path,
            StatusCode::BAD_REQUEST,
            ErrorCode::InvalidQuery,
            format!("The query parameter {key} is given more than once."),
        );
    }
    next.run(request).await
}

/// The first key that appears twice in `query`, decoded.
fn repeated_key(query: &str) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    url::form_urlencoded::parse(query.as_bytes())
        .map(|(key, _)| key.into_owned())
        .find(|key| !seen.insert(key.clone()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_repeated_query_key_is_found_also_when_encoded_differently() {
        assert_eq!(super::repeated_key("sort=latest&page=2"), None);
        assert_eq!(super::repeated_key(""), None);
        assert_eq!(
            super::repeated_key("sort=latest&so%72t=rating").as_deref(),
            Some("sort")
        );
    }
}
