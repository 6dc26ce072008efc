//! Opportunity applications (docs/spec-rules.md, `/claim-opportunities`): a
//! signed-in user applies once for modelling and brand work; the team promises
//! contact within 48 hours, so admins get the list (newest first, as CSV too)
//! and mark each application contacted.

pub mod entity;
pub mod export;
pub mod rules;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{
    AdminErrors, ApiError, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{AdminAction, AdminUser, AuthUser, Json, Path};
use crate::http::user_data::UserData;
use crate::mail::Mail;
use rules::{Application, ApplicationForm, Email};

/// The promise the form and the confirmation mail make.
pub const CONTACT_WITHIN_HOURS: u32 = 48;

pub const ALREADY_APPLIED: &str = "You've already submitted an application";

const CONSTRAINTS: &[ConstraintError] = &[ConstraintError::conflict(
    "opportunity_claims_user_id_key",
    ErrorCode::AlreadyApplied,
    ALREADY_APPLIED,
)];

/// The most applications the admin page lists (the CSV has them all).
const ADMIN_PAGE: u64 = 500;

/// `/opportunities…` and `/admin/opportunities…`, nested under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(apply))
        .routes(routes!(my_application))
        .routes(routes!(admin_list))
        .routes(routes!(admin_csv))
        .routes(routes!(mark_contacted))
}

/// An application as its author and the admins see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplicationView {
    pub id: Uuid,
    pub full_name: String,
    pub email: String,
    pub phone: Option<String>,
    /// Without the leading @.
    pub instagram: Option<String>,
    pub location: String,
    pub bio: Option<String>,
    pub interests: Vec<String>,
    pub created_at: DateTime<Utc>,
    /// When the team marked it answered.
    pub contacted_at: Option<DateTime<Utc>>,
}

impl From<entity::Model> for ApplicationView {
    fn from(row: entity::Model) -> Self {
        let interests = serde_json::from_value(row.interests).unwrap_or_default();
        Self {
            id: row.id,
            full_name: row.full_name,
            email: row.email,
            phone: row.phone,
            instagram: row.instagram,
            location: row.location,
            bio: row.bio,
            interests,
            created_at: row.created_at,
            contacted_at: row.contacted_at,
        }
    }
}

fn confirmation(application: &Application) -> Mail {
    let name = application.full_name.as_str();
    let interests = if application.interests.is_empty() {
        "any opportunity that suits you".to_owned()
    } else {
        application.interests.join(", ")
    };
    Mail {
        to: application.email.as_str().to_owned(),
        subject: "We received your PrettyScore application".to_owned(),
        body_text: format!(
            "Hi {name},\n\nThank you for applying for opportunities with PrettyScore \
             ({interests}). Our team will contact you within {CONTACT_WITHIN_HOURS} hours \
             at this address.\n\nThe PrettyScore team\n"
        ),
        body_html: None,
        kind: "opportunity_application",
        link: None,
    }
}

pub const NOT_A_FORM: &str = "The application must be sent as one form (a JSON object with fullName, location and the other fields), not as a list or a single value";
pub const NO_VERIFIED_EMAIL: &str =
    "Please confirm your email address first: the team answers applications there";

/// The caller's confirmed address: the application is answered there, so a
/// typed address (possibly somebody else's) never gets our mail.
async fn verified_email(state: &AppState, user: &AuthUser) -> Result<Email, ApiError> {
    let account = users::Entity::find_by_id(user.user_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Account not found"))?;
    match (account.email, account.email_confirmed_at) {
        (Some(address), Some(_)) if !address.is_empty() => Ok(Email::of_account(&address)),
        _ => Err(ApiError::invalid(NO_VERIFIED_EMAIL)),
    }
}

/// The body as the form, with one clear message for anything that is not
/// an object (serde would otherwise read an array field by field, in order).
fn parse_form(body: Value) -> Result<ApplicationForm, ApiError> {
    if !body.is_object() {
        return Err(ApiError::invalid(NOT_A_FORM));
    }
    serde_json::from_value(body).map_err(|err| {
        ApiError::invalid(format!(
            "The request body has a missing or invalid field: {err}"
        ))
    })
}

/// Sends an application. One per user: a second one is a 409
/// `already_applied`. The applicant gets a confirmation mail at the
/// account's verified address, which is also the address the application
/// keeps (an `email` in the body is ignored).
#[utoipa::path(post, path = "/opportunities/applications", tag = "opportunities",
    request_body = ApplicationForm,
    responses(
        (status = 201, description = "Received; team contact within 48 hours", body = ApplicationView),
        SignedInErrors,
        (status = 409, description = "`already_applied`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the first broken rule, in the form's words; a body that is not one JSON object; an account without a confirmed address", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn apply(
    State(state): State<AppState>,
    user: AuthUser,
    Json(body): Json<Value>,
) -> Result<(StatusCode, Json<ApplicationView>), ApiError> {
    let form = parse_form(body)?;
    let application = Application::parse(&form, verified_email(&state, &user).await?)?;
    let row = entity::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(user.user_id),
        full_name: Set(application.full_name.as_str().to_owned()),
        email: Set(application.email.as_str().to_owned()),
        phone: Set(application.phone.as_ref().map(|p| p.as_str().to_owned())),
        instagram: Set(application
            .instagram
            .as_ref()
            .map(|i| i.as_str().to_owned())),
        location: Set(application.location.as_str().to_owned()),
        bio: Set(application.bio.as_ref().map(|b| b.as_str().to_owned())),
        interests: Set(json!(application.interests)),
        created_at: Set(Utc::now()),
        contacted_at: Set(None),
    }
    .insert(&state.db)
    .await
    .on_constraints(CONSTRAINTS)?;
    // The application is kept whatever happens to the mail; the outbox
    // retries delivery, so a failure here is only logged.
    if let Err(err) = state.mailer.send(confirmation(&application)).await {
        tracing::error!(error = %err, application = %row.id, "confirmation mail not queued");
    }
    Ok((StatusCode::CREATED, Json(row.into())))
}

/// The caller's application, so the form can say it was sent.
#[utoipa::path(get, path = "/opportunities/applications/mine", tag = "opportunities",
    responses(
        (status = 200, description = "The caller's application", body = ApplicationView),
        SignedInErrors,
        (status = 404, description = "No application yet", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn my_application(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<ApplicationView>, ApiError> {
    entity::Entity::find()
        .filter(entity::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .map(|row| Json(row.into()))
        .ok_or_else(|| ApiError::not_found("You have not applied yet"))
}

/// Applications, newest first, for the admin page.
#[utoipa::path(get, path = "/admin/opportunities", tag = "admin",
    responses(
        (status = 200, description = "The newest 500 applications", body = Vec<ApplicationView>),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_list(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<Vec<ApplicationView>>, ApiError> {
    let rows = newest_first().limit(ADMIN_PAGE).all(&state.db).await?;
    Ok(Json(rows.into_iter().map(Into::into).collect()))
}

fn newest_first() -> sea_orm::Select<entity::Entity> {
    entity::Entity::find()
        .order_by_desc(entity::Column::CreatedAt)
        .order_by_desc(entity::Column::Id)
}

/// Every application as CSV (newest first), for a spreadsheet.
#[utoipa::path(get, path = "/admin/opportunities.csv", tag = "admin",
    responses(
        (status = 200, description = "All applications", content_type = "text/csv", body = String),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_csv(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<impl IntoResponse, ApiError> {
    let rows = newest_first().all(&state.db).await?;
    let views: Vec<ApplicationView> = rows.into_iter().map(Into::into).collect();
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"opportunity-applications.csv\"",
            ),
        ],
        export::to_csv(&views),
    ))
}

/// Marks an application answered. The first mark counts: marking it again
/// keeps the first time and writes no second audit record.
#[utoipa::path(post, path = "/admin/opportunities/{id}/contacted", tag = "admin",
    params(("id" = Uuid, Path, description = "The application's id")),
    responses(
        (status = 200, description = "The application, contacted", body = ApplicationView),
        AdminErrors,
        (status = 404, description = "No such application", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn mark_contacted(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
) -> Result<Json<ApplicationView>, ApiError> {
    let now = Utc::now();
    let marked = entity::Entity::update_many()
        .col_expr(entity::Column::ContactedAt, Expr::value(now))
        .filter(entity::Column::Id.eq(id))
        .filter(entity::Column::ContactedAt.is_null())
        .exec(&state.db)
        .await?;
    if marked.rows_affected > 0 {
        admin.record(&state.db, "opportunity_application_contacted", json!({ "application_id": id, "before": { "contacted_at": null }, "after": { "contacted_at": now } }))
        .await;
    }
    entity::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .map(|row| Json(row.into()))
        .ok_or_else(|| ApiError::not_found("Application not found"))
}

/// The user's application, in their export (deleted with the account by cascade).
pub struct OpportunityApplications;

#[async_trait::async_trait]
impl UserData for OpportunityApplications {
    fn name(&self) -> &'static str {
        "opportunity_application"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let row = entity::Entity::find()
            .filter(entity::Column::UserId.eq(user_id))
            .one(&state.db)
            .await?;
        Ok(row
            .map(|row| serde_json::to_value(ApplicationView::from(row)))
            .transpose()?)
    }
}
