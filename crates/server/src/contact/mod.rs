//! Paid contact requests (`docs/spec-rules.md` §2 and §9, the leaderboard's Contact dialog
//! and `/contestant-requests`).
//!
//! A requester writes to a listed entry; the fee comes from the entry's rank
//! now, as the server computes it. The request starts `pending_payment`;
//! checkout (billing, type `contact_request`) places a hold, and only when a
//! provider event confirms it (`paid`) does the contestant see the request.
//! Approving captures the hold (75 % is the contestant's), denying releases
//! it, and a hold left unanswered for 7 days is released by [`expiry`].
//! Every decision is one conditional UPDATE on a pending request, so it
//! happens once however often it is asked for, on any number of instances.
//! Either party can block the other (issue 41): open requests between them
//! either way are denied and released, their conversations close, and
//! neither can send the other a new request. Either party can leave a
//! conversation: a pending request is withdrawn (its hold released, nothing
//! charged), an approved one closes (the captured fee stays captured: the
//! contestant accepted and the chat was delivered).

pub mod entity;
pub mod expiry;
pub mod hooks;
pub mod mail;
pub mod reports;
pub mod rules;
pub mod with_entries;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, QueryFilter,
    QueryOrder, Set,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::billing::rules::{contact_fee_cents, contact_fee_split};
use crate::billing::{holds, provider_error};
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::error::{
    ApiError, CommunityErrors, ConstraintError, DbResultExt, ErrorBody, ErrorCode, SignedInErrors,
};
use crate::http::extract::{AuthUser, CommunityMember, Json, Path, standing};
use crate::http::rate_limit;
use crate::http::user_data::UserData;
use crate::leaderboard::listing::rank_of;
use crate::mail::Mail;
use crate::photos::entity as photos;
use crate::providers::payments::PaymentError;
use entity::block;

pub use entity::Status;

/// Two requests to the same contestant sent at once: the second is refused.
const OPEN_PAIR: &[ConstraintError] = &[ConstraintError::conflict(
    "contact_requests_open_pair_key",
    ErrorCode::RequestOpen,
    "You already have an open request with this contestant",
)];

/// `/contact-requests…`, under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_contact_request))
        .routes(routes!(received_requests))
        .routes(routes!(sent_requests))
        .routes(routes!(contact_request))
        .routes(routes!(with_entries::request_with_entry))
        .routes(routes!(with_entries::requests_with_entries))
        .routes(routes!(approve_contact_request))
        .routes(routes!(deny_contact_request))
        .routes(routes!(block_requester))
        .routes(routes!(leave_conversation))
        .routes(routes!(reports::report_requester))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactRequestForm {
    /// The listed leaderboard entry (a photo).
    pub photo_id: Uuid,
    /// 10-1000 characters.
    pub message: String,
}

/// A contact request as either party sees it. The requester's address is
/// never shown to the contestant: only the name they chose.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactRequest {
    pub id: Uuid,
    #[schema(required = true)]
    pub photo_id: Option<Uuid>,
    /// The entry's display name.
    pub contestant_name: String,
    pub requester_name: String,
    /// `requester` or `contestant`: which party the caller is.
    pub role: String,
    pub rank_at_request: i32,
    pub fee_cents: i64,
    /// 75 % of the fee, the contestant's once approved.
    pub contestant_share_cents: i64,
    pub platform_share_cents: i64,
    pub message_preview: String,
    /// The hold is confirmed.
    pub paid: bool,
    /// `pending_payment`, `paid`, `failed` or `refunded`.
    pub payment_status: String,
    /// `pending`, `approved` or `denied`.
    pub status: String,
    /// When an unanswered paid request is released (7 days after the hold).
    #[schema(required = true)]
    pub expires_at: Option<DateTime<Utc>>,
    /// The conversation was closed by a block, by one party leaving, or
    /// by a moderator.
    pub closed: bool,
    /// The other party's user id (to report them as a user).
    pub other_user_id: Uuid,
    pub created_at: DateTime<Utc>,
}

fn not_found() -> ApiError {
    ApiError::not_found("Contact request not found")
}

/// When the request's hold was placed: the held payment's time.
async fn held_at(
    db: &impl ConnectionTrait,
    request_id: Uuid,
) -> Result<Option<DateTime<Utc>>, DbErr> {
    holds::placed_at(db, request_id).await
}

/// The request as `viewer` sees it.
async fn present(
    db: &impl ConnectionTrait,
    row: entity::Model,
    viewer: Uuid,
) -> Result<ContactRequest, DbErr> {
    let photo = match row.photo_id {
        Some(id) => photos::Entity::find_by_id(id).one(db).await?,
        None => None,
    };
    let requester = users::Entity::find_by_id(row.requester_id).one(db).await?;
    let expires_at = if row.status == Status::Pending && row.paid {
        held_at(db, row.id).await?.map(rules::hold_expires_at)
    } else {
        None
    };
    Ok(ContactRequest {
        id: row.id,
        photo_id: row.photo_id,
        contestant_name: photo
            .and_then(|photo| photo.display_name)
            .unwrap_or_else(|| "Contestant".to_owned()),
        requester_name: requester
            .map(|user| rules::requester_name(&user.raw_user_meta_data))
            .unwrap_or_else(|| rules::ANONYMOUS_NAME.to_owned()),
        role: if viewer == row.contestant_id {
            "contestant"
        } else {
            "requester"
        }
        .to_owned(),
        rank_at_request: row.rank_at_request,
        fee_cents: row.fee_amount_cents,
        contestant_share_cents: row.contestant_share_cents,
        platform_share_cents: row.platform_share_cents,
        message_preview: row.message_preview,
        paid: row.paid,
        payment_status: row.payment_status,
        status: row.status,
        expires_at,
        closed: row.closed_at.is_some(),
        other_user_id: if viewer == row.contestant_id {
            row.requester_id
        } else {
            row.contestant_id
        },
        created_at: row.created_at,
    })
}

async fn present_all(
    db: &impl ConnectionTrait,
    rows: Vec<entity::Model>,
    viewer: Uuid,
) -> Result<Vec<ContactRequest>, DbErr> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(present(db, row, viewer).await?);
    }
    Ok(out)
}

/// The request if `user` is one of its parties (the contestant only sees it
/// once its hold is confirmed); 404 otherwise, so ids say nothing to others.
pub async fn party_of(
    db: &impl ConnectionTrait,
    id: Uuid,
    user: Uuid,
) -> Result<Option<entity::Model>, DbErr> {
    Ok(entity::Entity::find_by_id(id).one(db).await?.filter(|row| {
        row.requester_id == user || (row.contestant_id == user && visible_to_contestant(row))
    }))
}

fn visible_to_contestant(row: &entity::Model) -> bool {
    row.paid || row.status != Status::Pending
}

/// Whether either of the two blocked the other. (`contact_blocks` keeps
/// the one who blocked in `contestant_id` and the one blocked in
/// `requester_id`: the columns are named after the first version, where
/// only contestants blocked.)
async fn is_blocked(db: &impl ConnectionTrait, one: Uuid, other: Uuid) -> Result<bool, DbErr> {
    Ok(block::Entity::find()
        .filter(
            Condition::any()
                .add(
                    Condition::all()
                        .add(block::Column::ContestantId.eq(one))
                        .add(block::Column::RequesterId.eq(other)),
                )
                .add(
                    Condition::all()
                        .add(block::Column::ContestantId.eq(other))
                        .add(block::Column::RequesterId.eq(one)),
                ),
        )
        .one(db)
        .await?
        .is_some())
}

/// Starts a request to a listed entry at the fee of its rank now (a fee the
/// client sends is not read). An unpaid request to the same contestant is
/// brought up to date and answered again, so a checkout left half-way can be
/// retried; a paid, unanswered one is 409.
#[utoipa::path(post, path = "/contact-requests", tag = "contact",
    request_body = ContactRequestForm,
    responses(
        CommunityErrors,
        (status = 201, description = "Created; pay it with create-checkout type `contact_request`", body = ContactRequest),
        (status = 200, description = "The unpaid request to this contestant, updated to the current fee", body = ContactRequest),
        SignedInErrors,
        (status = 403, description = "`blocked`; `recipient_unavailable`: the contestant may not receive requests (issue 41)", body = ErrorBody),
        (status = 404, description = "`not_found`: the entry is not on the leaderboard", body = ErrorBody),
        (status = 409, description = "`request_open`", body = ErrorBody),
        (status = 422, description = "`cannot_contact_self`, `display_name_required` (the requester has no display name yet), `validation_failed`", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn create_contact_request(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Json(form): Json<ContactRequestForm>,
) -> Result<(StatusCode, Json<ContactRequest>), ApiError> {
    let message = crate::values::message::contact_message(&form.message)?;
    let photo = photos::Entity::find_by_id(form.photo_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("This entry is not on the leaderboard"))?;
    let rank = rank_of(&state.db, photo.id)
        .await?
        .ok_or_else(|| ApiError::not_found("This entry is not on the leaderboard"))?;
    if photo.user_id == user.user_id {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::CannotContactSelf,
            "You can't contact your own entry",
        ));
    }
    if is_blocked(&state.db, photo.user_id, user.user_id).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::Blocked,
            "You cannot send this contestant a request: one of you has blocked the other",
        ));
    }
    // The contestant decides on a name, never an address: a requester
    // without one sets it first (checked before the hourly count is spent).
    let requester = users::Entity::find_by_id(user.user_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("Account not found"))?;
    let Some(name) = rules::chosen_name(&requester.raw_user_meta_data) else {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::DisplayNameRequired,
            rules::NAME_REQUIRED,
        ));
    };
    // A name set before the rule that poses as the service (issue 41) does
    // not reach a contestant's card or mail.
    crate::values::names::check_not_reserved(&name, &state.config.community.reserved_name_words)?;
    // Receiving a request is a community feature too: the contestant must
    // be an adult on file, with the terms and a confirmed address.
    let recipient = standing(&state.db, &state.config.community, photo.user_id).await?;
    if !recipient.is_member() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::RecipientUnavailable,
            "This contestant can't receive requests right now.",
        ));
    }
    let key = format!("contact:{}", user.user_id);
    rate_limit::enforce(
        &state.db,
        &key,
        3600,
        rules::REQUESTS_PER_HOUR,
        "Too many contact requests. Please try again later.",
    )
    .await?;
    let fee = contact_fee_cents(rank);
    let (platform, contestant) = contact_fee_split(fee);
    let now = Utc::now();
    let open = entity::Entity::find()
        .filter(entity::Column::RequesterId.eq(user.user_id))
        .filter(entity::Column::ContestantId.eq(photo.user_id))
        .filter(entity::Column::Status.eq(Status::Pending))
        .one(&state.db)
        .await?;
    if open.is_none()
        && chatting(&state.db, user.user_id, photo.user_id)
            .await?
            .is_some()
    {
        return Err(ApiError::conflict(ErrorCode::RequestOpen, CHATTING_ALREADY));
    }
    let (status, row) = match open {
        Some(row) if row.payment_status == "paid" => {
            return Err(ApiError::conflict(
                ErrorCode::RequestOpen,
                "You already have an open request with this contestant",
            ));
        }
        // Unpaid, or its payment failed: brought up to date, to be paid again.
        Some(row) => {
            let mut active: entity::ActiveModel = row.into();
            active.paid = Set(false);
            active.payment_status = Set(hooks::PENDING_PAYMENT.to_owned());
            active.photo_id = Set(Some(photo.id));
            active.rank_at_request = Set(rank as i32);
            active.fee_amount_cents = Set(fee);
            active.platform_share_cents = Set(platform);
            active.contestant_share_cents = Set(contestant);
            active.message_preview = Set(message);
            active.updated_at = Set(now);
            (StatusCode::OK, active.update(&state.db).await?)
        }
        None => {
            let row = entity::ActiveModel {
                id: Set(Uuid::now_v7()),
                requester_id: Set(user.user_id),
                contestant_id: Set(photo.user_id),
                photo_id: Set(Some(photo.id)),
                rank_at_request: Set(rank as i32),
                fee_amount_cents: Set(fee),
                platform_share_cents: Set(platform),
                contestant_share_cents: Set(contestant),
                message_preview: Set(message),
                paid: Set(false),
                payment_status: Set(hooks::PENDING_PAYMENT.to_owned()),
                status: Set(Status::Pending.into()),
                created_at: Set(now),
                updated_at: Set(now),
                closed_at: Set(None),
                held_mailed_at: Set(None),
                reminded_at: Set(None),
            }
            .insert(&state.db)
            .await
            .on_constraints(OPEN_PAIR)?;
            (StatusCode::CREATED, row)
        }
    };
    Ok((status, Json(present(&state.db, row, user.user_id).await?)))
}

/// The contestant's inbox: paid requests waiting for an answer, and
/// approved ones, newest first.
#[utoipa::path(get, path = "/contact-requests/received", tag = "contact",
    responses(
        CommunityErrors,
        (status = 200, description = "The inbox", body = Vec<ContactRequest>),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn received_requests(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
) -> Result<Json<Vec<ContactRequest>>, ApiError> {
    let rows = entity::Entity::find()
        .filter(entity::Column::ContestantId.eq(user.user_id))
        .filter(
            Condition::any()
                .add(
                    Condition::all()
                        .add(entity::Column::Status.eq(Status::Pending))
                        .add(entity::Column::Paid.eq(true)),
                )
                .add(entity::Column::Status.eq(Status::Approved)),
        )
        .order_by_desc(entity::Column::CreatedAt)
        .all(&state.db)
        .await?;
    Ok(Json(present_all(&state.db, rows, user.user_id).await?))
}

/// The requests the caller sent, newest first, with what became of each.
#[utoipa::path(get, path = "/contact-requests/sent", tag = "contact",
    responses(
        CommunityErrors,
        (status = 200, description = "The caller's requests", body = Vec<ContactRequest>),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn sent_requests(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
) -> Result<Json<Vec<ContactRequest>>, ApiError> {
    let rows = entity::Entity::find()
        .filter(entity::Column::RequesterId.eq(user.user_id))
        .order_by_desc(entity::Column::CreatedAt)
        .all(&state.db)
        .await?;
    Ok(Json(present_all(&state.db, rows, user.user_id).await?))
}

/// One request, for either of its parties.
#[utoipa::path(get, path = "/contact-requests/{id}", tag = "contact",
    params(("id" = Uuid, Path, description = "The request's id")),
    responses(
        CommunityErrors,
        (status = 200, description = "The request", body = ContactRequest),
        SignedInErrors,
        (status = 404, description = "`not_found`: no such request of the caller's", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn contact_request(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
) -> Result<Json<ContactRequest>, ApiError> {
    let row = party_of(&state.db, id, user.user_id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(present(&state.db, row, user.user_id).await?))
}

const CHATTING_ALREADY: &str =
    "You are already chatting with this contestant. Your conversation is in Messages.";

/// The requester's approved request to the contestant whose conversation
/// is not closed: while it is, no new request (and no second fee).
async fn chatting(
    db: &impl ConnectionTrait,
    requester: Uuid,
    contestant: Uuid,
) -> Result<Option<entity::Model>, DbErr> {
    entity::Entity::find()
        .filter(entity::Column::RequesterId.eq(requester))
        .filter(entity::Column::ContestantId.eq(contestant))
        .filter(entity::Column::Status.eq(Status::Approved))
        .filter(entity::Column::ClosedAt.is_null())
        .order_by_desc(entity::Column::CreatedAt)
        .one(db)
        .await
}

/// The contestant's paid, pending request `id`, or the reason it is not one.
async fn decidable(
    state: &AppState,
    id: Uuid,
    contestant: Uuid,
) -> Result<entity::Model, ApiError> {
    let row = received(state, id, contestant).await?;
    if row.status != Status::Pending {
        return Err(ApiError::conflict(
            ErrorCode::AlreadyDecided,
            format!("This request was {} already.", row.status),
        ));
    }
    Ok(row)
}

/// Another answer got there first.
fn answered_already() -> ApiError {
    ApiError::conflict(
        ErrorCode::AlreadyDecided,
        "This request was answered already.",
    )
}

/// Moves a pending request to `to`; whether this call did it.
async fn claim(
    db: &impl ConnectionTrait,
    id: Uuid,
    from_paid: bool,
    to: Status,
) -> Result<bool, DbErr> {
    let mut update = entity::Entity::update_many()
        .col_expr(entity::Column::Status, Expr::value(to.as_str()))
        .col_expr(entity::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(entity::Column::Id.eq(id))
        .filter(entity::Column::Status.eq(Status::Pending));
    if from_paid {
        update = update.filter(entity::Column::Paid.eq(true));
    }
    Ok(update.exec(db).await?.rows_affected > 0)
}

/// Approves a paid request: the hold is captured and the contestant's 75 %
/// is theirs; the conversation opens.
#[utoipa::path(post, path = "/contact-requests/{id}/approve", tag = "contact",
    params(("id" = Uuid, Path, description = "The request's id")),
    responses(
        CommunityErrors,
        (status = 200, description = "Approved", body = ContactRequest),
        SignedInErrors,
        (status = 404, description = "`not_found`: not a request to the caller", body = ErrorBody),
        (status = 409, description = "`already_decided`, `not_paid`", body = ErrorBody),
        (status = 502, description = "`payment_provider_failed`: nothing changed", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn approve_contact_request(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
) -> Result<Json<ContactRequest>, ApiError> {
    decidable(&state, id, user.user_id).await?;
    let not_paid = || {
        ApiError::conflict(
            ErrorCode::NotPaid,
            "This request's payment is not confirmed yet.",
        )
    };
    if !holds::is_held(&state.db, id).await? {
        return Err(not_paid());
    }
    if !claim(&state.db, id, true, Status::Approved).await? {
        return Err(answered_already());
    }
    let captured = holds::capture(&state, id).await;
    if !matches!(captured, Ok(true)) {
        // Nothing was taken: the request waits for an answer again.
        entity::Entity::update_many()
            .col_expr(
                entity::Column::Status,
                Expr::value(Status::Pending.as_str()),
            )
            .filter(entity::Column::Id.eq(id))
            .filter(entity::Column::Status.eq(Status::Approved))
            .exec(&state.db)
            .await?;
        return Err(match captured {
            Err(err) => provider_error(err, "Failed to approve request"),
            Ok(_) => not_paid(),
        });
    }
    let row = entity::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    mail::tell_approved(&state, &row).await;
    Ok(Json(present(&state.db, row, user.user_id).await?))
}

/// Releases request `id`'s hold, if it has one; a failure is logged and left
/// to the expiry job, which releases the holds of denied requests too.
pub async fn release_hold(state: &AppState, id: Uuid) -> Result<(), DbErr> {
    match holds::release(state, id).await {
        Ok(_) => Ok(()),
        Err(PaymentError::Database(err)) => Err(err),
        Err(err) => {
            tracing::warn!(request = %id, error = %err, "could not release a contact hold; the expiry job retries");
            Ok(())
        }
    }
}

/// Tells the requester their request was declined (in the app, the request
/// shows as denied).
async fn tell_requester(state: &AppState, row: &entity::Model, why: &str) {
    let Ok(Some(requester)) = users::Entity::find_by_id(row.requester_id)
        .one(&state.db)
        .await
    else {
        return;
    };
    let Some(email) = requester.email else { return };
    let mail = Mail {
        to: email,
        subject: "Your PrettyScore contact request was declined".to_owned(),
        body_text: format!(
            "Hi,\n\nYour contact request was {why}. The hold on your card has been released: \
             you were not charged.\n\nThe PrettyScore team\n"
        ),
        body_html: None,
        kind: "contact_request_denied",
        link: None,
    };
    if let Err(err) = state.mailer.send(mail).await {
        tracing::warn!(error = %err, "could not queue the denied-request mail");
    }
}

/// Denies a request: the hold is released and the requester told.
#[utoipa::path(post, path = "/contact-requests/{id}/deny", tag = "contact",
    params(("id" = Uuid, Path, description = "The request's id")),
    responses(
        CommunityErrors,
        (status = 200, description = "Denied", body = ContactRequest),
        SignedInErrors,
        (status = 404, description = "`not_found`: not a request to the caller", body = ErrorBody),
        (status = 409, description = "`already_decided`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn deny_contact_request(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
) -> Result<Json<ContactRequest>, ApiError> {
    let row = decidable(&state, id, user.user_id).await?;
    if !claim(&state.db, id, false, Status::Denied).await? {
        return Err(answered_already());
    }
    release_hold(&state, id).await?;
    tell_requester(&state, &row, "declined by the contestant").await;
    let row = entity::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(present(&state.db, row, user.user_id).await?))
}

/// Either party blocks the other: no more requests between them, open
/// ones denied and released (nothing is charged), and every conversation
/// between the two closes for both. A captured fee stays captured.
#[utoipa::path(post, path = "/contact-requests/{id}/block", tag = "contact",
    params(("id" = Uuid, Path, description = "A request between the caller and the person to block")),
    responses(
        CommunityErrors,
        (status = 204, description = "Blocked"),
        SignedInErrors,
        (status = 404, description = "`not_found`: not a request of the caller's", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn block_requester(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let row = party_of(&state.db, id, user.user_id)
        .await?
        .ok_or_else(not_found)?;
    let other = if row.contestant_id == user.user_id {
        row.requester_id
    } else {
        row.contestant_id
    };
    block(&state, user.user_id, other).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Either party leaves: a pending request is withdrawn (denied, its hold
/// released: nothing is charged); an approved conversation closes for both
/// (the fee, captured when the contestant accepted, stays captured and the
/// contestant's share is paid as usual). Leaving twice changes nothing.
#[utoipa::path(post, path = "/contact-requests/{id}/leave", tag = "contact",
    params(("id" = Uuid, Path, description = "The request or conversation to leave")),
    responses(
        (status = 204, description = "Left"),
        SignedInErrors,
        (status = 404, description = "`not_found`: not a request of the caller's", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn leave_conversation(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let row = party_of(&state.db, id, user.user_id)
        .await?
        .ok_or_else(not_found)?;
    if row.status == Status::Pending && claim(&state.db, id, false, Status::Denied).await? {
        release_hold(&state, id).await?;
        if row.contestant_id == user.user_id {
            tell_requester(&state, &row, "declined by the contestant").await;
        }
    }
    entity::Entity::update_many()
        .col_expr(entity::Column::ClosedAt, Expr::value(Utc::now()))
        .filter(entity::Column::Id.eq(id))
        .filter(entity::Column::ClosedAt.is_null())
        .exec(&state.db)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Request `id` as its contestant sees it (404 for anyone else).
async fn received(state: &AppState, id: Uuid, contestant: Uuid) -> Result<entity::Model, ApiError> {
    entity::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .filter(|row| row.contestant_id == contestant && visible_to_contestant(row))
        .ok_or_else(not_found)
}

/// `blocker` blocks `blocked`: no more requests either way, open ones
/// denied and released, conversations closed. Doing it twice changes nothing.
async fn block(state: &AppState, blocker: Uuid, blocked: Uuid) -> Result<(), DbErr> {
    block::Entity::insert(block::ActiveModel {
        id: Set(Uuid::now_v7()),
        contestant_id: Set(blocker),
        requester_id: Set(blocked),
        created_at: Set(Utc::now()),
    })
    .on_conflict(
        OnConflict::columns([block::Column::ContestantId, block::Column::RequesterId])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&state.db)
    .await?;
    end_all_between(state, blocker, blocked).await
}

/// Denies (and releases) every open request between the two, either way,
/// and closes every conversation between them.
async fn end_all_between(state: &AppState, one: Uuid, other: Uuid) -> Result<(), DbErr> {
    let between = || {
        Condition::any()
            .add(
                Condition::all()
                    .add(entity::Column::ContestantId.eq(one))
                    .add(entity::Column::RequesterId.eq(other)),
            )
            .add(
                Condition::all()
                    .add(entity::Column::ContestantId.eq(other))
                    .add(entity::Column::RequesterId.eq(one)),
            )
    };
    let open = entity::Entity::find()
        .filter(between())
        .filter(entity::Column::Status.eq(Status::Pending))
        .all(&state.db)
        .await?;
    for request in open {
        if claim(&state.db, request.id, false, Status::Denied).await? {
            release_hold(state, request.id).await?;
        }
    }
    entity::Entity::update_many()
        .col_expr(entity::Column::ClosedAt, Expr::value(Utc::now()))
        .filter(between())
        .filter(entity::Column::ClosedAt.is_null())
        .exec(&state.db)
        .await?;
    Ok(())
}

/// The user's requests, sent and received, in their export (deleted with the
/// account by cascade).
pub struct ContactRequests;

#[async_trait::async_trait]
impl UserData for ContactRequests {
    fn name(&self) -> &'static str {
        "contact_requests"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let rows = entity::Entity::find()
            .filter(
                Condition::any()
                    .add(entity::Column::RequesterId.eq(user_id))
                    .add(entity::Column::ContestantId.eq(user_id)),
            )
            .order_by_asc(entity::Column::CreatedAt)
            .all(&state.db)
            .await?;
        if rows.is_empty() {
            return Ok(None);
        }
        let requests: Vec<Value> = rows
            .into_iter()
            .map(|row| {
                json!({
                    "id": row.id,
                    "role": if row.contestant_id == user_id { "contestant" } else { "requester" },
                    "fee_cents": row.fee_amount_cents,
                    "message": row.message_preview,
                    "status": row.status,
                    "payment_status": row.payment_status,
                    "created_at": row.created_at,
                })
            })
            .collect();
        Ok(Some(Value::Array(requests)))
    }
}
