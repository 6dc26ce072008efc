//! Administration: the admin role (`roles`, granted and revoked from the
//! command line), the admins' audit page (`audit_page`) and the admin pages'
//! endpoints, each behind the `AdminUser` extractor.

pub mod audit_page;
pub mod roles;

use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, SignedInErrors};
use crate::http::extract::{AdminUser, AuthUser, Json, is_admin};

/// `/admin/…`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(admin_access))
        .routes(routes!(admin_role))
        .routes(routes!(audit_page::admin_audit))
}

/// Whether the caller may open the admin pages: 204 for an administrator.
/// The server decides; the web app's admin route guard only mirrors this
/// answer.
#[utoipa::path(get, path = "/admin/access", tag = "admin",
    responses(
        (status = 204, description = "The caller is an administrator"),
        SignedInErrors,
        (status = 403, description = "`admin_only`: signed in, but not an administrator", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn admin_access(_admin: AdminUser) -> StatusCode {
    StatusCode::NO_CONTENT
}

/// Whether the signed-in caller is an administrator, as a yes or no.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminRole {
    pub admin: bool,
}

/// The same decision as `/admin/access`, answered 200 for every signed-in
/// user, so the web app can show or hide its Admin menu on every page
/// without a refused request for each non-admin (the admin pages and every
/// admin endpoint still check on their own).
#[utoipa::path(get, path = "/admin/role", tag = "admin",
    responses(
        (status = 200, description = "Whether the caller is an administrator", body = AdminRole),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
async fn admin_role(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<AdminRole>, ApiError> {
    let admin = is_admin(&state.db, user.user_id).await?;
    Ok(Json(AdminRole { admin }))
}
