//! Administration: the admin role (`roles`, granted and revoked from the
//! command line), the admins' audit page (`audit_page`) and the admin pages'
//! endpoints, each behind the `AdminUser` extractor.

pub mod audit_page;
pub mod roles;

use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;
use crate::http::error::ErrorBody;
use crate::http::extract::AdminUser;

/// `/admin/…`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(admin_access))
        .routes(routes!(audit_page::admin_audit))
}

/// Whether the caller may open the admin pages: 204 for an administrator.
/// The server decides; the web app's admin route guard only mirrors this
/// answer.
#[utoipa::path(get, path = "/admin/access", tag = "admin",
    responses(
        (status = 204, description = "The caller is an administrator"),
        (status = 401, description = "`not_signed_in`", body = ErrorBody),
        (status = 403, description = "`admin_only`: signed in, but not an administrator", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn admin_access(_admin: AdminUser) -> StatusCode {
    StatusCode::NO_CONTENT
}
