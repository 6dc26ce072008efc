//! Reports (issue 41, section 3): anything public or shared can be reported,
//! and every report gets an answer.
//!
//! One low domain, as money lives in billing: a domain whose content can be
//! reported tells, through `http::hooks` (`reported`, `remove_reported`,
//! `user_banned`), how to find it, show it to an admin and remove it (bytes
//! included); this domain never names another domain's table. Its own are
//! the notices (`reports`), the decisions with their statements of reasons,
//! the appeals, the mails and the audit entries.
//!
//! - `POST /reports`: a signed-in user reports anything they can see; a
//!   signed-out visitor reports public content (a share page, a leaderboard
//!   or contest entry) with an email address and a good-faith statement (DSA
//!   Art. 16), rate-limited per address and confirmed by mail.
//! - `GET /admin/reports`: the one queue, urgent reasons first (someone
//!   under 18, intimate images shared without consent), each with the time
//!   left of its 48 hours; open appeals beside it.
//! - `POST /admin/reports/{id}/decision`: dismiss, remove, suspend or ban.
//!   One decision covers every open report of the same thing, taken by one
//!   conditional UPDATE, so eight admins deciding at once make one decision
//!   and one mail to each reporter and to the affected user.
//! - Appeals: the affected user appeals once (from the mail's link, which
//!   works signed out, as a suspended user cannot sign in; or from
//!   /account); another admin answers.

pub mod entity;
pub mod export;
pub mod rules;

use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use data_encoding::{BASE64URL_NOPAD, HEXLOWER};
use rand::RngCore;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::db::entities::{sessions, users};
use crate::http::AppState;
use crate::http::error::{
    AdminErrors, ApiError, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{
    AdminAction, AdminUser, AuthUser, ClientInfo, Json, MaybeAuthUser, Path, Query,
};
use crate::http::hooks::Reported;
use crate::http::rate_limit;
use crate::mail::Mail;
use crate::values::person::Email;
use crate::values::{Invalid, chars, present, text};
use entity::{appeal, decision, report};
use rules::{Action, Reason};

/// The longest free text of a report, a statement of reasons or an appeal.
const MAX_TEXT: usize = 2000;
/// The most open reports the queue shows at once.
const QUEUE_PAGE: u64 = 500;

const APPEAL_CONSTRAINTS: &[ConstraintError] = &[ConstraintError::conflict(
    "moderation_appeals_decision_key",
    ErrorCode::AlreadyAppealed,
    "You have appealed this decision already. We will answer you by mail.",
)];

/// `/reports`, `/admin/reports…`, `/admin/appeals…`,
/// `/moderation-decisions…` and `/account/moderation-decisions`, under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_report))
        .routes(routes!(admin_queue))
        .routes(routes!(decide_report))
        .routes(routes!(decide_appeal))
        .routes(routes!(my_decisions))
        .routes(routes!(decision_view))
        .routes(routes!(appeal_decision))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TargetForm {
    /// `photo`, `share`, `message`, `conversation`, `contest_entry` or `user`.
    pub kind: String,
    /// The photo's, message's, conversation's (contact request's) or user's
    /// id; for `share`, the slug of `/s/{slug}`.
    pub id: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReportForm {
    pub target: TargetForm,
    /// `spam_or_scam`, `harassment`, `nudity_or_sexual_content`, `under_18`,
    /// `intimate_image_without_consent`, `my_photo_without_consent`,
    /// `other_illegal_content` or `other`.
    pub reason: String,
    /// What is wrong, in the reporter's words (at most 2000 characters).
    pub details: Option<String>,
    /// Signed-out visitors: where the receipt and the decision go.
    pub reporter_email: Option<String>,
    /// Signed-out visitors: "I believe the information in this report is
    /// accurate and complete, and I make it in good faith" (DSA Art. 16).
    pub good_faith: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReportAccepted {
    pub id: Uuid,
    pub message: String,
}

/// A report to file, as a domain's own report endpoint or `POST /reports`
/// hands it over.
pub struct NewReport<'a> {
    pub kind: &'a str,
    pub id: &'a str,
    pub reason: Reason,
    pub details: String,
    pub reporter: Option<&'a AuthUser>,
    /// A signed-out reporter's address.
    pub reporter_email: Option<String>,
    pub good_faith: bool,
    pub ip: &'a str,
}

fn nothing_to_report() -> ApiError {
    ApiError::not_found(
        "We could not find what you are reporting. It may have been removed already.",
    )
}

/// Optional free text, trimmed, at most 2000 characters.
pub fn free_text(raw: Option<&str>, field: &'static str) -> Result<String, Invalid> {
    let Some(value) = present(raw) else {
        return Ok(String::new());
    };
    text::check_text(field, value)?;
    if chars(value) > MAX_TEXT {
        return Err(Invalid::new(format!(
            "{field} must be at most 2000 characters"
        )));
    }
    Ok(value.to_owned())
}

fn required_text(
    raw: Option<&str>,
    field: &'static str,
    missing: &'static str,
) -> Result<String, Invalid> {
    let value = free_text(raw, field)?;
    if value.is_empty() {
        return Err(Invalid::new(missing));
    }
    Ok(value)
}

/// What a report points at: a user account (kept here: `users` is the
/// identity tables' plumbing), or what a domain's hook says.
pub async fn target(state: &AppState, kind: &str, id: &str) -> Result<Option<Reported>, DbErr> {
    if kind == "user" {
        let Ok(user_id) = id.trim().parse::<Uuid>() else {
            return Ok(None);
        };
        let Some(user) = users::Entity::find_by_id(user_id).one(&state.db).await? else {
            return Ok(None);
        };
        let name = user
            .raw_user_meta_data
            .get("display_name")
            .and_then(|value| value.as_str())
            .unwrap_or("a PrettyScore member")
            .to_owned();
        return Ok(Some(Reported {
            kind: "user",
            id: user_id.to_string(),
            owner: Some(user_id),
            label: "a user account".to_owned(),
            excerpt: name,
            image_url: None,
            public: false,
            parties: Vec::new(),
        }));
    }
    state.hooks.reported(state, kind, id).await
}

/// Files a report: checks that the reporter may see what they report (a
/// signed-out visitor: only public content), records it once per signed-in
/// reporter and thing (a repeated report answers the first), and mails the
/// receipt.
pub async fn file(state: &AppState, new: NewReport<'_>) -> Result<Filed, ApiError> {
    let found = target(state, new.kind, new.id)
        .await?
        .ok_or_else(nothing_to_report)?;
    let reporter_id = new.reporter.map(|user| user.user_id);
    match reporter_id {
        None if !found.public => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                ErrorCode::NotSignedIn,
                "Please sign in to report this.",
            ));
        }
        Some(reporter)
            if !found.public && found.kind != "user" && !found.parties.contains(&reporter) =>
        {
            return Err(nothing_to_report());
        }
        _ => {}
    }
    // The affected user: the content's owner, or in a conversation the
    // other party.
    let affected = found.owner.or_else(|| {
        reporter_id.and_then(|reporter| found.parties.iter().copied().find(|p| *p != reporter))
    });
    if reporter_id.is_some() && affected == reporter_id {
        return Err(ApiError::invalid("You cannot report your own content"));
    }
    let now = Utc::now();
    let id = Uuid::now_v7();
    let row = report::ActiveModel {
        id: Set(id),
        target_kind: Set(found.kind.to_owned()),
        target_id: Set(found.id.clone()),
        reported_as: Set(new.kind.to_owned()),
        affected_user_id: Set(affected),
        reporter_id: Set(reporter_id),
        reporter_email: Set(new.reporter_email.clone()),
        reason: Set(new.reason.as_str().to_owned()),
        details: Set(new.details.clone()),
        good_faith: Set(new.good_faith),
        status: Set("open".to_owned()),
        decision_id: Set(None),
        due_at: Set(rules::due_at(now)),
        created_at: Set(now),
    };
    let inserted = report::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([
                report::Column::TargetKind,
                report::Column::TargetId,
                report::Column::ReporterId,
            ])
            .do_nothing()
            .to_owned(),
        )
        .exec_without_returning(&state.db)
        .await?;
    if inserted == 0 {
        // This user reported this thing before: the first report stands.
        let first = report::Entity::find()
            .filter(report::Column::TargetKind.eq(found.kind))
            .filter(report::Column::TargetId.eq(&found.id))
            .filter(report::Column::ReporterId.eq(reporter_id))
            .one(&state.db)
            .await?
            .ok_or_else(nothing_to_report)?;
        return Ok(Filed {
            id: first.id,
            first_time: false,
        });
    }
    crate::db::audit::record(
        &state.db,
        "report_filed",
        reporter_id,
        new.reporter.and_then(|user| user.email.as_deref()).or(new.reporter_email.as_deref()),
        new.ip,
        json!({ "report_id": id, "target_kind": found.kind, "target_id": found.id, "reason": new.reason.as_str() }),
    )
    .await;
    let to = match &new.reporter_email {
        Some(email) => Some(email.clone()),
        None => new.reporter.and_then(|user| user.email.clone()),
    };
    if let Some(to) = to {
        let body = format!(
            "Hi,\n\nThank you for your report. We received it on {when} UTC.\n\n\
             What you reported: {label}\nReason: {reason}\n\n\
             An admin will look at it within 48 hours, and we will write to you at this address \
             with what we decided and why.\n\nIf you did not send this report, you can ignore this mail.\n\n\
             The PrettyScore team\n",
            when = now.format("%Y-%m-%d %H:%M"),
            label = found.label,
            reason = new.reason.label(),
        );
        send(
            state,
            to,
            "We received your report",
            body,
            "report_received",
            None,
        )
        .await;
    }
    Ok(Filed {
        id,
        first_time: true,
    })
}

/// A filed report.
#[derive(Debug, Clone, Copy)]
pub struct Filed {
    pub id: Uuid,
    /// False when the reporter had reported the same thing before (the id
    /// is the first report's).
    pub first_time: bool,
}

async fn send(
    state: &AppState,
    to: String,
    subject: &str,
    body: String,
    kind: &'static str,
    link: Option<String>,
) {
    let mail = Mail {
        to,
        subject: subject.to_owned(),
        body_text: body,
        body_html: None,
        kind,
        link,
    };
    if let Err(err) = state.mailer.send(mail).await {
        tracing::warn!(error = %err, kind, "could not queue a reports mail");
    }
}

/// Reports anything: a signed-in user what they can see, a signed-out
/// visitor public content (with an address and a good-faith statement).
#[utoipa::path(post, path = "/reports", tag = "reports",
    request_body = ReportForm,
    responses(
        (status = 202, description = "Received; an admin answers within 48 hours", body = ReportAccepted),
        (status = 401, description = "`not_signed_in`: signed out, and the content is not public", body = ErrorBody),
        (status = 404, description = "`not_found`: nothing of that kind and id the caller can see", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no such kind or reason, no address or good-faith statement, or the caller's own content", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn create_report(
    State(state): State<AppState>,
    MaybeAuthUser(user): MaybeAuthUser,
    client: ClientInfo,
    Json(form): Json<ReportForm>,
) -> Result<(StatusCode, Json<ReportAccepted>), ApiError> {
    let kind = form.target.kind.trim();
    if !rules::TARGET_KINDS.contains(&kind) {
        return Err(ApiError::invalid("Please choose what you are reporting"));
    }
    let reason = Reason::parse(&form.reason)
        .ok_or_else(|| ApiError::invalid("Please choose a reason for your report"))?;
    let details = free_text(form.details.as_deref(), "Details")?;
    text::check_line("Id", form.target.id.trim())?;
    let limit = state.config.moderation.anonymous_reports_per_hour;
    let (reporter_email, good_faith) = match &user {
        Some(user) => {
            rate_limit::enforce(
                &state.db,
                &format!("reports:user:{}", user.user_id),
                3600,
                state.config.moderation.reports_per_user_per_hour,
                "You have sent many reports in a short time. Please try again later.",
            )
            .await?;
            (None, form.good_faith.unwrap_or(false))
        }
        None => {
            let email = Email::parse(form.reporter_email.as_deref()).map_err(|_| {
                ApiError::invalid(
                    "Please enter your email address, so that we can tell you what we decide",
                )
            })?;
            if form.good_faith != Some(true) {
                return Err(ApiError::invalid(
                    "Please confirm that your report is accurate and made in good faith",
                ));
            }
            let address = email.as_str().to_lowercase();
            rate_limit::enforce(
                &state.db,
                &format!("reports:email:{address}"),
                3600,
                limit,
                "Too many reports from this address. Please try again later.",
            )
            .await?;
            rate_limit::enforce(
                &state.db,
                &format!("reports:client:{}", client.rate_key()),
                3600,
                limit.saturating_mul(4),
                "Too many reports from this address. Please try again later.",
            )
            .await?;
            (Some(address), true)
        }
    };
    let filed = file(
        &state,
        NewReport {
            kind,
            id: form.target.id.trim(),
            reason,
            details,
            reporter: user.as_ref(),
            reporter_email,
            good_faith,
            ip: &client.ip,
        },
    )
    .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(ReportAccepted {
            id: filed.id,
            message: "Thank you. We have received your report and will answer within 48 hours."
                .to_owned(),
        }),
    ))
}

/// Open reports per canonical target id of `kind` (the leaderboard's
/// moderation page counts them).
pub async fn open_counts(
    db: &impl ConnectionTrait,
    kind: &str,
    ids: impl IntoIterator<Item = String>,
) -> Result<HashMap<String, u64>, DbErr> {
    let ids: Vec<String> = ids.into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, i64)> = report::Entity::find()
        .select_only()
        .column(report::Column::TargetId)
        .column_as(report::Column::Id.count(), "open")
        .filter(report::Column::TargetKind.eq(kind))
        .filter(report::Column::TargetId.is_in(ids))
        .filter(report::Column::Status.eq("open"))
        .group_by(report::Column::TargetId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, count)| (id, u64::try_from(count).unwrap_or(0)))
        .collect())
}

/// A report as the admins see it in the queue.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedReport {
    pub id: Uuid,
    /// The canonical kind: `photo`, `message`, `conversation` or `user`.
    pub target_kind: String,
    pub target_id: String,
    /// The kind the reporter named (`share`, `contest_entry`, …).
    pub reported_as: String,
    /// What it is, or that it no longer exists.
    pub label: String,
    /// What the admin reads (a message's text, a photo's name).
    pub excerpt: String,
    /// A signed URL of the image, valid for an hour.
    #[schema(required = true)]
    pub image_url: Option<String>,
    #[schema(required = true)]
    pub affected_user_id: Option<Uuid>,
    #[schema(required = true)]
    pub affected_email: Option<String>,
    pub reason: String,
    pub reason_label: String,
    /// Someone under 18, or an intimate image shared without consent.
    pub urgent: bool,
    /// The rule of /guidelines the reason points to (`g1`…).
    pub rule: String,
    pub details: String,
    /// Who reported it: their address (signed out) or their account's.
    #[schema(required = true)]
    pub reporter_email: Option<String>,
    /// Reported by a signed-out visitor.
    pub signed_out: bool,
    pub created_at: DateTime<Utc>,
    /// 48 hours after it was made.
    pub due_at: DateTime<Utc>,
    /// Seconds until `due_at` (negative: overdue).
    pub seconds_left: i64,
    /// Open reports of the same thing (one decision answers them all).
    pub open_reports_of_target: u64,
}

/// An appeal waiting for an admin.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedAppeal {
    pub id: Uuid,
    pub decision: DecisionView,
    /// The user's words.
    pub statement: String,
    pub created_at: DateTime<Utc>,
    /// The caller did not take the decision, so may answer the appeal.
    pub may_decide: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Queue {
    /// Urgent first, then the nearest deadline.
    pub reports: Vec<QueuedReport>,
    /// Oldest first.
    pub appeals: Vec<QueuedAppeal>,
    /// How many admins there are: with one, appeals cannot be answered.
    pub admins: u64,
}

async fn emails(
    db: &impl ConnectionTrait,
    ids: impl IntoIterator<Item = Uuid>,
) -> Result<HashMap<Uuid, String>, DbErr> {
    let ids: Vec<Uuid> = ids.into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(users::Entity::find()
        .filter(users::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .filter_map(|user| Some((user.id, user.email?)))
        .collect())
}

/// The one queue: every open report, urgent reasons first, then the nearest
/// deadline; and the open appeals.
#[utoipa::path(get, path = "/admin/reports", tag = "admin",
    responses(
        (status = 200, description = "The queue", body = Queue),
        AdminErrors,
    ),
    security(("bearer" = [])))]
pub async fn admin_queue(
    State(state): State<AppState>,
    admin: AdminUser,
) -> Result<Json<Queue>, ApiError> {
    let rows = report::Entity::find()
        .filter(report::Column::Status.eq("open"))
        .order_by_asc(report::Column::DueAt)
        .limit(QUEUE_PAGE)
        .all(&state.db)
        .await?;
    let now = Utc::now();
    let ids: Vec<Uuid> = rows
        .iter()
        .flat_map(|row| [row.reporter_id, row.affected_user_id])
        .flatten()
        .collect();
    let people = emails(&state.db, ids).await?;
    let mut per_target: HashMap<(String, String), u64> = HashMap::new();
    for row in &rows {
        *per_target
            .entry((row.target_kind.clone(), row.target_id.clone()))
            .or_default() += 1;
    }
    let mut targets: HashMap<(String, String), Option<Reported>> = HashMap::new();
    let mut reports = Vec::with_capacity(rows.len());
    for row in rows {
        let key = (row.target_kind.clone(), row.target_id.clone());
        if !targets.contains_key(&key) {
            let found = target(&state, &row.target_kind, &row.target_id).await?;
            targets.insert(key.clone(), found);
        }
        let found = targets.get(&key).cloned().flatten();
        let reason = Reason::parse(&row.reason).unwrap_or(Reason::Other);
        reports.push(QueuedReport {
            id: row.id,
            label: found.as_ref().map_or_else(
                || format!("a {} that no longer exists", row.target_kind),
                |f| f.label.clone(),
            ),
            excerpt: found
                .as_ref()
                .map(|f| f.excerpt.clone())
                .unwrap_or_default(),
            image_url: found.and_then(|f| f.image_url),
            affected_email: row.affected_user_id.and_then(|id| people.get(&id).cloned()),
            affected_user_id: row.affected_user_id,
            reason_label: reason.label().to_owned(),
            urgent: reason.is_urgent(),
            rule: reason.rule().id.to_owned(),
            reason: row.reason,
            details: row.details,
            reporter_email: row
                .reporter_email
                .or_else(|| row.reporter_id.and_then(|id| people.get(&id).cloned())),
            signed_out: row.reporter_id.is_none(),
            created_at: row.created_at,
            due_at: row.due_at,
            seconds_left: (row.due_at - now).num_seconds(),
            open_reports_of_target: per_target.get(&key).copied().unwrap_or(1),
            target_kind: row.target_kind,
            target_id: row.target_id,
            reported_as: row.reported_as,
        });
    }
    reports.sort_by_key(|report| (!report.urgent, report.due_at));
    let open = appeal::Entity::find()
        .filter(appeal::Column::Status.eq("open"))
        .order_by_asc(appeal::Column::CreatedAt)
        .limit(QUEUE_PAGE)
        .all(&state.db)
        .await?;
    let mut appeals = Vec::with_capacity(open.len());
    for row in open {
        let Some(decided) = decision::Entity::find_by_id(row.decision_id)
            .one(&state.db)
            .await?
        else {
            continue;
        };
        appeals.push(QueuedAppeal {
            id: row.id,
            may_decide: decided.decided_by != Some(admin.0.user_id),
            decision: view(&state, decided, Some(&row)),
            statement: row.statement,
            created_at: row.created_at,
        });
    }
    let admins = crate::db::entities::user_roles::Entity::find()
        .filter(crate::db::entities::user_roles::Column::Role.eq(crate::http::extract::ADMIN_ROLE))
        .count(&state.db)
        .await?;
    Ok(Json(Queue {
        reports,
        appeals,
        admins,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DecisionForm {
    /// `dismiss`, `remove`, `suspend` or `ban`.
    pub action: String,
    /// The rule of /guidelines (`g1`…); the reason's rule when absent.
    pub rule: Option<String>,
    /// The statement of reasons the reporter and the affected user read.
    pub statement: Option<String>,
    /// For `suspend`: 1 to 365 days.
    pub suspend_days: Option<i32>,
}

/// A decision as its affected user, the reporter's page and the admins see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DecisionView {
    pub id: Uuid,
    /// `dismiss`, `remove`, `suspend` or `ban`.
    pub action: String,
    /// What was decided, in a sentence.
    pub summary: String,
    pub target_kind: String,
    pub target_label: String,
    pub reason: String,
    pub rule: String,
    pub rule_title: String,
    /// `/guidelines#gN`.
    pub rule_link: String,
    pub statement: String,
    #[schema(required = true)]
    pub suspend_days: Option<i32>,
    pub created_at: DateTime<Utc>,
    /// The affected user may appeal (once; not a dismissal).
    pub appealable: bool,
    /// `open`, `upheld` or `reversed`, once appealed.
    #[schema(required = true)]
    pub appeal_status: Option<String>,
    #[schema(required = true)]
    pub appeal_answer: Option<String>,
}

fn view(state: &AppState, row: decision::Model, appealed: Option<&appeal::Model>) -> DecisionView {
    let action = Action::parse(&row.action).unwrap_or(Action::Dismiss);
    let rule = rules::rule(&row.rule).unwrap_or(&rules::RULES[rules::RULES.len() - 1]);
    let _ = state;
    DecisionView {
        id: row.id,
        summary: action.sentence(&row.target_label, row.suspend_days),
        action: row.action,
        target_kind: row.target_kind,
        target_label: row.target_label,
        reason: row.reason,
        rule: rule.id.to_owned(),
        rule_title: rule.title.to_owned(),
        rule_link: format!("/guidelines#{}", rule.id),
        statement: row.statement,
        suspend_days: row.suspend_days,
        created_at: row.created_at,
        appealable: action != Action::Dismiss && appealed.is_none(),
        appeal_status: appealed.map(|a| a.status.clone()),
        appeal_answer: appealed.and_then(|a| a.answer.clone()),
    }
}

fn token_hash(token: &str) -> String {
    HEXLOWER.encode(&Sha256::digest(token.as_bytes()))
}

/// Bars `user` from signing in until `until` and ends their sessions.
async fn bar(
    db: &impl ConnectionTrait,
    user: Uuid,
    until: Option<DateTime<Utc>>,
) -> Result<(), DbErr> {
    users::Entity::update_many()
        .col_expr(users::Column::BannedUntil, Expr::value(until))
        .col_expr(users::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(users::Column::Id.eq(user))
        .exec(db)
        .await?;
    if until.is_some() {
        sessions::Entity::delete_many()
            .filter(sessions::Column::UserId.eq(user))
            .exec(db)
            .await?;
    }
    Ok(())
}

fn already_decided() -> ApiError {
    ApiError::conflict(
        ErrorCode::AlreadyDecided,
        "This report was decided already.",
    )
}

/// Decides a report, and with it every open report of the same thing:
/// dismiss, remove the content (everywhere at once, stored bytes included,
/// unless the reason requires evidence), suspend its owner for a number of
/// days, or ban them. The reporters and the affected user are mailed a
/// statement of reasons; the decision is audited. Once: a second decision
/// on the same reports is 409.
#[utoipa::path(post, path = "/admin/reports/{id}/decision", tag = "admin",
    params(("id" = Uuid, Path, description = "The report's id")),
    request_body = DecisionForm,
    responses(
        (status = 201, description = "Decided", body = DecisionView),
        AdminErrors,
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`already_decided`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no such action or rule, no statement, days out of range, or no account to suspend", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn decide_report(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(form): Json<DecisionForm>,
) -> Result<(StatusCode, Json<DecisionView>), ApiError> {
    let first = report::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Report not found"))?;
    if first.status != "open" {
        return Err(already_decided());
    }
    let action = Action::parse(form.action.trim()).ok_or_else(|| {
        ApiError::invalid("Please choose a decision: dismiss, remove, suspend or ban")
    })?;
    let statement = required_text(
        form.statement.as_deref(),
        "Statement",
        "Please write the reasons for this decision",
    )?;
    let reason = Reason::parse(&first.reason).unwrap_or(Reason::Other);
    let rule = match present(form.rule.as_deref()) {
        Some(rule) => {
            rules::rule(rule).ok_or_else(|| ApiError::invalid("No such rule of the guidelines"))?
        }
        None => reason.rule(),
    };
    let suspend_days = match action {
        Action::Suspend => match form.suspend_days {
            Some(days) if (1..=rules::MAX_SUSPEND_DAYS).contains(&days) => Some(days),
            _ => return Err(ApiError::invalid("A suspension lasts 1 to 365 days")),
        },
        _ => None,
    };
    let affected = first.affected_user_id;
    if matches!(action, Action::Suspend | Action::Ban) && affected.is_none() {
        return Err(ApiError::invalid(
            "There is no account to suspend or ban for this report",
        ));
    }
    if action == Action::Remove && first.target_kind == "user" {
        return Err(ApiError::invalid(
            "An account cannot be removed as content: suspend or ban it instead",
        ));
    }
    let found = target(&state, &first.target_kind, &first.target_id).await?;
    let label = found.as_ref().map_or_else(
        || format!("a {}", first.target_kind),
        |found| found.label.clone(),
    );
    let decision_id = Uuid::now_v7();
    let mut token_bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut token_bytes);
    let token = BASE64URL_NOPAD.encode(&token_bytes);
    let txn = state.db.begin().await?;
    // The decision row first (the reports point at it), then one statement
    // takes every open report of the thing: of eight admins deciding at
    // once, one takes them, the others find none open and roll back.
    let row = decision::ActiveModel {
        id: Set(decision_id),
        target_kind: Set(first.target_kind.clone()),
        target_id: Set(first.target_id.clone()),
        target_label: Set(label.clone()),
        affected_user_id: Set(affected),
        action: Set(action.as_str().to_owned()),
        reason: Set(reason.as_str().to_owned()),
        rule: Set(rule.id.to_owned()),
        statement: Set(statement.clone()),
        suspend_days: Set(suspend_days),
        decided_by: Set(Some(admin.user_id())),
        evidence_keys: Set(json!([])),
        evidence_text: Set(None),
        evidence_until: Set(None),
        appeal_token_hash: Set(token_hash(&token)),
        created_at: Set(Utc::now()),
    }
    .insert(&txn)
    .await?;
    let claimed = report::Entity::update_many()
        .col_expr(report::Column::Status, Expr::value("decided"))
        .col_expr(report::Column::DecisionId, Expr::value(decision_id))
        .filter(report::Column::TargetKind.eq(&first.target_kind))
        .filter(report::Column::TargetId.eq(&first.target_id))
        .filter(report::Column::Status.eq("open"))
        .exec(&txn)
        .await?
        .rows_affected;
    let covered = report::Entity::find()
        .filter(report::Column::DecisionId.eq(decision_id))
        .all(&txn)
        .await?;
    if claimed == 0 || !covered.iter().any(|report| report.id == id) {
        txn.rollback().await?;
        return Err(already_decided());
    }
    // The decision answers the most urgent reason among the reports.
    let most_urgent = covered
        .iter()
        .filter_map(|report| Reason::parse(&report.reason))
        .min_by_key(|reason| reason.priority())
        .unwrap_or(reason);
    let row = if most_urgent == reason {
        row
    } else {
        let mut active: decision::ActiveModel = row.into();
        active.reason = Set(most_urgent.as_str().to_owned());
        active.update(&txn).await?
    };
    let reason = most_urgent;
    txn.commit().await?;

    let mut evidence = json!(null);
    match action {
        Action::Dismiss => {}
        Action::Remove => {
            let folder = reason
                .keeps_evidence()
                .then(|| format!("evidence/{decision_id}/"));
            let removed = state
                .hooks
                .remove_reported(
                    &state,
                    &first.target_kind,
                    &first.target_id,
                    folder.as_deref(),
                )
                .await?
                .unwrap_or_default();
            if folder.is_some() {
                let until =
                    Utc::now() + Duration::days(i64::from(state.config.moderation.evidence_days));
                decision::Entity::update_many()
                    .col_expr(
                        decision::Column::EvidenceKeys,
                        Expr::value(json!(removed.evidence_keys)),
                    )
                    .col_expr(
                        decision::Column::EvidenceText,
                        Expr::value(removed.evidence_text.clone()),
                    )
                    .col_expr(decision::Column::EvidenceUntil, Expr::value(Some(until)))
                    .filter(decision::Column::Id.eq(decision_id))
                    .exec(&state.db)
                    .await?;
                evidence = json!({ "keys": removed.evidence_keys, "until": until });
            }
        }
        Action::Suspend => {
            let days = i64::from(suspend_days.unwrap_or(1));
            if let Some(user) = affected {
                bar(&state.db, user, Some(Utc::now() + Duration::days(days))).await?;
            }
        }
        Action::Ban => {
            if let Some(user) = affected {
                bar(&state.db, user, Some(rules::ban_until(Utc::now()))).await?;
                state.hooks.user_banned(&state, user).await?;
            }
        }
    }
    admin
        .record(
            &state.db,
            "report_decided",
            json!({
                "decision_id": decision_id,
                "report_ids": covered.iter().map(|row| row.id).collect::<Vec<_>>(),
                "target_kind": first.target_kind,
                "target_id": first.target_id,
                "affected_user_id": affected,
                "rule": rule.id,
                "before": "open",
                "after": action.as_str(),
                "suspend_days": suspend_days,
                "evidence": evidence,
            }),
        )
        .await;
    tell_decision(&state, &row, &covered, &token).await?;
    Ok((StatusCode::CREATED, Json(view(&state, row, None))))
}

/// The statements of reasons: one mail to each report's reporter (when
/// known) and one to the affected user.
async fn tell_decision(
    state: &AppState,
    row: &decision::Model,
    covered: &[report::Model],
    token: &str,
) -> Result<(), DbErr> {
    let base = state.base_url.trim_end_matches('/');
    let action = Action::parse(&row.action).unwrap_or(Action::Dismiss);
    let rule = rules::rule(&row.rule).unwrap_or(&rules::RULES[0]);
    let link = rules::rule_link(base, rule);
    let sentence = action.sentence(&row.target_label, row.suspend_days);
    let ids: Vec<Uuid> = covered
        .iter()
        .filter_map(|report| report.reporter_id)
        .chain(row.affected_user_id)
        .collect();
    let people = emails(&state.db, ids).await?;
    for report in covered {
        let to = report
            .reporter_email
            .clone()
            .or_else(|| report.reporter_id.and_then(|id| people.get(&id).cloned()));
        let Some(to) = to else { continue };
        let reason = Reason::parse(&report.reason).unwrap_or(Reason::Other);
        let body = format!(
            "Hi,\n\nWe have looked at your report of {label} (reason: {reason}), made on {when} UTC.\n\n\
             What we decided: {sentence}\n\
             Why: {statement}\n\
             The rule of our community guidelines: {title} ({link})\n\n\
             An admin decided this; nothing was decided automatically. If you disagree, reply to this \
             mail, or turn to a certified out-of-court dispute settlement body or a court.\n\n\
             The PrettyScore team\n",
            label = row.target_label,
            reason = reason.label(),
            when = report.created_at.format("%Y-%m-%d %H:%M"),
            statement = row.statement,
            title = rule.title,
        );
        send(
            state,
            to,
            "What we decided about your report",
            body,
            "report_decided",
            None,
        )
        .await;
    }
    if let Some(to) = row.affected_user_id.and_then(|id| people.get(&id).cloned()) {
        let appeal_link = format!("{base}/appeal/{}?token={token}", row.id);
        let appeal = if action == Action::Dismiss {
            "Nothing changes for you.".to_owned()
        } else {
            format!(
                "How to appeal: if you think we got this wrong, you can appeal once, within six months, \
                 at {appeal_link} (this link works even when you cannot sign in) or from your account page \
                 ({base}/account). Another admin, not the one who decided, will look at your appeal and \
                 answer you by mail. You may also turn to a certified out-of-court dispute settlement body or a court."
            )
        };
        let body = format!(
            "Hi,\n\nSomeone reported {label} on PrettyScore and an admin has looked at it.\n\n\
             What we decided: {sentence}\n\
             About: {label}\n\
             Why: {statement}\n\
             The rule of our community guidelines: {title} ({link})\n\
             An admin decided this; nothing was decided automatically.\n\n{appeal}\n\n\
             The PrettyScore team\n",
            label = row.target_label,
            statement = row.statement,
            title = rule.title,
        );
        let link = (action != Action::Dismiss).then_some(appeal_link);
        send(
            state,
            to,
            "A decision about your content on PrettyScore",
            body,
            "moderation_decision",
            link,
        )
        .await;
    }
    Ok(())
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TokenQuery {
    /// The token of the decision mail's appeal link (for a user who cannot
    /// sign in).
    pub token: Option<String>,
}

/// The decision `id` if the caller is its affected user (signed in, or
/// with the mail's token); 404 otherwise.
async fn own_decision(
    state: &AppState,
    id: Uuid,
    user: Option<&AuthUser>,
    token: Option<&str>,
) -> Result<decision::Model, ApiError> {
    let not_found = || ApiError::not_found("Decision not found");
    if user.is_none() && token.is_none() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::NotSignedIn,
            "Please sign in, or open the link in the mail we sent you.",
        ));
    }
    let row = decision::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    let by_user = user.is_some_and(|user| row.affected_user_id == Some(user.user_id));
    let by_token = token.is_some_and(|token| token_hash(token) == row.appeal_token_hash);
    if by_user || by_token {
        Ok(row)
    } else {
        Err(not_found())
    }
}

/// The decisions about the caller's content or account, newest first, with
/// their appeals.
#[utoipa::path(get, path = "/account/moderation-decisions", tag = "reports",
    responses(
        (status = 200, description = "The decisions", body = Vec<DecisionView>),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn my_decisions(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<Vec<DecisionView>>, ApiError> {
    let mut decisions = export::decisions_about(&state, user.user_id).await?;
    decisions.truncate(200);
    Ok(Json(decisions))
}

/// One decision, for its affected user (signed in, or with the mail's token).
#[utoipa::path(get, path = "/moderation-decisions/{id}", tag = "reports",
    params(("id" = Uuid, Path, description = "The decision's id"), TokenQuery),
    responses(
        (status = 200, description = "The decision", body = DecisionView),
        (status = 401, description = "`not_signed_in`: no session and no token", body = ErrorBody),
        (status = 404, description = "`not_found`: not a decision about the caller", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn decision_view(
    State(state): State<AppState>,
    MaybeAuthUser(user): MaybeAuthUser,
    Path(id): Path<Uuid>,
    Query(query): Query<TokenQuery>,
) -> Result<Json<DecisionView>, ApiError> {
    let row = own_decision(&state, id, user.as_ref(), query.token.as_deref()).await?;
    let appealed = appeal::Entity::find()
        .filter(appeal::Column::DecisionId.eq(row.id))
        .one(&state.db)
        .await?;
    Ok(Json(view(&state, row, appealed.as_ref())))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AppealForm {
    /// Why the decision is wrong (1 to 2000 characters).
    pub statement: Option<String>,
    /// The mail link's token, when not signed in.
    pub token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AppealReceipt {
    pub id: Uuid,
    pub message: String,
}

/// The affected user appeals a decision, once (DSA Art. 20). Another admin
/// answers.
#[utoipa::path(post, path = "/moderation-decisions/{id}/appeal", tag = "reports",
    params(("id" = Uuid, Path, description = "The decision's id")),
    request_body = AppealForm,
    responses(
        (status = 201, description = "Appealed", body = AppealReceipt),
        (status = 401, description = "`not_signed_in`: no session and no token", body = ErrorBody),
        (status = 404, description = "`not_found`: not a decision about the caller", body = ErrorBody),
        (status = 409, description = "`already_appealed`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no statement, or a dismissal (nothing to appeal)", body = ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn appeal_decision(
    State(state): State<AppState>,
    MaybeAuthUser(user): MaybeAuthUser,
    client: ClientInfo,
    Path(id): Path<Uuid>,
    Json(form): Json<AppealForm>,
) -> Result<(StatusCode, Json<AppealReceipt>), ApiError> {
    let row = own_decision(&state, id, user.as_ref(), form.token.as_deref()).await?;
    if row.action == Action::Dismiss.as_str() {
        return Err(ApiError::invalid(
            "Nothing was taken down, so there is nothing to appeal",
        ));
    }
    let statement = required_text(
        form.statement.as_deref(),
        "Appeal",
        "Please tell us why you think the decision is wrong",
    )?;
    let appeal_id = Uuid::now_v7();
    appeal::ActiveModel {
        id: Set(appeal_id),
        decision_id: Set(row.id),
        user_id: Set(row.affected_user_id),
        statement: Set(statement),
        status: Set("open".to_owned()),
        answer: Set(None),
        decided_by: Set(None),
        decided_at: Set(None),
        created_at: Set(Utc::now()),
    }
    .insert(&state.db)
    .await
    .on_constraints(APPEAL_CONSTRAINTS)?;
    crate::db::audit::record(
        &state.db,
        "decision_appealed",
        row.affected_user_id,
        user.as_ref().and_then(|user| user.email.as_deref()),
        &client.ip,
        json!({ "decision_id": row.id, "appeal_id": appeal_id }),
    )
    .await;
    Ok((
        StatusCode::CREATED,
        Json(AppealReceipt {
            id: appeal_id,
            message: "Thank you. Another admin will look at your appeal and answer you by mail."
                .to_owned(),
        }),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AppealDecisionForm {
    /// `upheld` (the decision stands) or `reversed`.
    pub outcome: String,
    /// The answer the user reads (1 to 2000 characters).
    pub answer: Option<String>,
}

/// Answers an appeal: another admin than the one who decided. A reversed
/// suspension or ban ends at once; removed content cannot come back (its
/// bytes are gone), which the answer says.
#[utoipa::path(post, path = "/admin/appeals/{id}/decision", tag = "admin",
    params(("id" = Uuid, Path, description = "The appeal's id")),
    request_body = AppealDecisionForm,
    responses(
        (status = 200, description = "Answered", body = DecisionView),
        AdminErrors,
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`already_decided`; `second_admin_required`: the caller took the decision", body = ErrorBody),
        (status = 422, description = "`validation_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn decide_appeal(
    State(state): State<AppState>,
    admin: AdminAction,
    Path(id): Path<Uuid>,
    Json(form): Json<AppealDecisionForm>,
) -> Result<Json<DecisionView>, ApiError> {
    let row = appeal::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Appeal not found"))?;
    let decided = decision::Entity::find_by_id(row.decision_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Appeal not found"))?;
    if decided.decided_by == Some(admin.user_id()) {
        return Err(ApiError::conflict(
            ErrorCode::SecondAdminRequired,
            "Another admin must answer this appeal: you took the decision it appeals.",
        ));
    }
    let outcome = match form.outcome.trim() {
        "upheld" => "upheld",
        "reversed" => "reversed",
        _ => {
            return Err(ApiError::invalid(
                "Please choose: the decision is upheld or reversed",
            ));
        }
    };
    let answer = required_text(
        form.answer.as_deref(),
        "Answer",
        "Please write your answer to the appeal",
    )?;
    let changed = appeal::Entity::update_many()
        .col_expr(appeal::Column::Status, Expr::value(outcome))
        .col_expr(appeal::Column::Answer, Expr::value(Some(answer.clone())))
        .col_expr(
            appeal::Column::DecidedBy,
            Expr::value(Some(admin.user_id())),
        )
        .col_expr(appeal::Column::DecidedAt, Expr::value(Some(Utc::now())))
        .filter(appeal::Column::Id.eq(id))
        .filter(appeal::Column::Status.eq("open"))
        .exec(&state.db)
        .await?
        .rows_affected
        > 0;
    if !changed {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyDecided,
            "This appeal was answered already.",
        ));
    }
    let action = Action::parse(&decided.action).unwrap_or(Action::Dismiss);
    if outcome == "reversed"
        && matches!(action, Action::Suspend | Action::Ban)
        && let Some(user) = decided.affected_user_id
    {
        bar(&state.db, user, None).await?;
    }
    admin
        .record(
            &state.db,
            "appeal_decided",
            json!({ "appeal_id": id, "decision_id": decided.id, "before": "open", "after": outcome, "action": decided.action }),
        )
        .await;
    if let Some(to) = decided.affected_user_id.map(|id| emails(&state.db, [id])) {
        let to = to.await?.into_values().next();
        if let Some(to) = to {
            let what = match (outcome, action) {
                ("upheld", _) => "We looked at your appeal again and the decision stands.".to_owned(),
                (_, Action::Remove) => "We reversed the decision. The content itself cannot come back, as its files were deleted; you are welcome to post it again.".to_owned(),
                (_, Action::Suspend | Action::Ban) => "We reversed the decision: you can sign in again.".to_owned(),
                _ => "We reversed the decision.".to_owned(),
            };
            let body = format!(
                "Hi,\n\nYou appealed our decision about {label} (\"{sentence}\").\n\n\
                 A second admin, who did not take the first decision, has looked at it.\n\n\
                 {what}\n\nTheir answer: {answer}\n\n\
                 If you still disagree, you may turn to a certified out-of-court dispute settlement body or a court.\n\n\
                 The PrettyScore team\n",
                label = decided.target_label,
                sentence = action.sentence(&decided.target_label, decided.suspend_days),
            );
            send(
                &state,
                to,
                "The answer to your appeal",
                body,
                "appeal_decided",
                None,
            )
            .await;
        }
    }
    let appealed = appeal::Entity::find_by_id(id).one(&state.db).await?;
    Ok(Json(view(&state, decided, appealed.as_ref())))
}

/// Deletes the evidence kept past its period: the stored bytes, the text.
/// Run by the server's periodic sweep.
pub async fn sweep_evidence(state: &AppState) -> anyhow::Result<usize> {
    let due = decision::Entity::find()
        .filter(decision::Column::EvidenceUntil.lt(Utc::now()))
        .all(&state.db)
        .await?;
    for row in &due {
        state
            .storage
            .delete_prefix(&format!("evidence/{}/", row.id))
            .await?;
        decision::Entity::update_many()
            .col_expr(decision::Column::EvidenceKeys, Expr::value(json!([])))
            .col_expr(decision::Column::EvidenceText, Expr::value(None::<String>))
            .col_expr(
                decision::Column::EvidenceUntil,
                Expr::value(None::<DateTime<Utc>>),
            )
            .filter(decision::Column::Id.eq(row.id))
            .exec(&state.db)
            .await?;
    }
    Ok(due.len())
}
