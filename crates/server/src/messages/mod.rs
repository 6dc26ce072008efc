//! Private messages between the two parties of an approved contact request
//! (docs/spec-rules.md, `/messages/{requestId}`), delivered without loss.
//!
//! A message is stored first; its `seq` orders the conversation and is the
//! stream's event id. The stream (`…/messages/stream`, server-sent events)
//! replays everything after `Last-Event-ID` from the database, then waits
//! for a wake-up ([`crate::db::notify`]: PostgreSQL NOTIFY with ids only,
//! or this instance's broadcast on SQLite) or the periodic catch-up read,
//! whichever comes first, and reads again; it also sends the other party's
//! read mark when it moves ('Seen'). Sending is idempotent on the
//! client's message id. Senders are serialised by their parties' row
//! locks, so `seq` order is commit order within a conversation (and within
//! a user's conversations) and a stream never moves past a message that is
//! still to commit ([`lock_parties`]). A
//! conversation closed by a block takes no more
//! messages and no streams; its history stays readable.

pub mod entity;
pub mod events;
pub mod reports;

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use chrono::{DateTime, Utc};
use futures::Stream;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbBackend, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect, Set, Statement, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::contact::{self, Status};
use crate::db::entities::sessions;
use crate::db::notify::{StreamSlot, Wake};
use crate::http::AppState;
use crate::http::error::{ApiError, CommunityErrors, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{CommunityMember, Json, Path, Query};
use entity::read;

pub const MAX_MESSAGE_CHARS: usize = 5000;
/// Messages per page and per replayed batch.
pub(crate) const PAGE: u64 = 200;
/// A stream reads the database at least this often, whatever wakes it.
pub(crate) const CATCH_UP: Duration = Duration::from_secs(5);
/// A comment line this often keeps proxies from closing a quiet stream.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// `/contact-requests/{id}/messages…` and `/contact-requests/unread`, under `/api/v1`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_messages, send_message))
        .routes(routes!(message_stream))
        .routes(routes!(mark_read))
        .routes(routes!(unread_summary))
        .routes(routes!(events::user_events))
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    /// The conversation's order and the stream's event id.
    pub seq: i64,
    pub id: Uuid,
    pub sender_id: Uuid,
    /// Sent by the caller.
    pub mine: bool,
    /// Empty once the message was removed.
    pub content: String,
    /// Removed after a report: the app shows "This message was removed".
    pub removed: bool,
    pub created_at: DateTime<Utc>,
}

impl ChatMessage {
    fn of(row: entity::Model, viewer: Uuid) -> Self {
        let removed = row.removed_at.is_some();
        Self {
            seq: row.seq,
            id: row.id,
            mine: row.sender_id == viewer,
            sender_id: row.sender_id,
            content: if removed { String::new() } else { row.content },
            removed,
            created_at: row.created_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessagePage {
    pub messages: Vec<ChatMessage>,
    /// The last `seq` the caller has read.
    pub my_last_read_seq: i64,
    /// The last `seq` the other party has read ('Seen').
    pub other_last_read_seq: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SendMessageForm {
    /// Chosen by the client (a UUID); sending the same id again stores
    /// nothing new and answers the stored message.
    pub id: Uuid,
    /// 1-5000 characters.
    pub content: String,
    /// The sender answered "Are you sure?" with yes: a message with words
    /// that may hurt or offend is sent (without it: 409 `confirm_required`).
    #[serde(default)]
    pub confirm: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReadForm {
    /// Everything up to this `seq` has been read.
    pub seq: i64,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct After {
    /// Only messages after this `seq`.
    pub after: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnreadSummary {
    /// Paid requests to the caller waiting for an answer.
    pub awaiting_answer: u64,
    /// Messages to the caller they have not read.
    pub unread_messages: u64,
}

/// The approved request `id` of which `user` is a party, or the spec's
/// answer: 404 'Contact request not found', 403 'This contact request is
/// not approved'.
async fn conversation(
    state: &AppState,
    id: Uuid,
    user: Uuid,
) -> Result<contact::entity::Model, ApiError> {
    let row = contact::party_of(&state.db, id, user)
        .await?
        .ok_or_else(|| ApiError::not_found("Contact request not found"))?;
    if row.status != Status::Approved {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::NotApproved,
            "This contact request is not approved",
        ));
    }
    Ok(row)
}

fn closed() -> ApiError {
    ApiError::conflict(ErrorCode::ConversationClosed, "This conversation is closed")
}

async fn after(
    db: &impl ConnectionTrait,
    id: Uuid,
    after: i64,
) -> Result<Vec<entity::Model>, sea_orm::DbErr> {
    entity::Entity::find()
        .filter(entity::Column::ContactRequestId.eq(id))
        .filter(entity::Column::Seq.gt(after))
        .order_by_asc(entity::Column::Seq)
        .limit(PAGE)
        .all(db)
        .await
}

async fn last_read(db: &impl ConnectionTrait, id: Uuid, user: Uuid) -> Result<i64, sea_orm::DbErr> {
    Ok(read::Entity::find()
        .filter(read::Column::ContactRequestId.eq(id))
        .filter(read::Column::UserId.eq(user))
        .one(db)
        .await?
        .map_or(0, |row| row.last_read_seq))
}

/// The conversation's messages after `after` (all, from the start, in pages
/// of 200), with both parties' read marks.
#[utoipa::path(get, path = "/contact-requests/{id}/messages", tag = "messages",
    params(("id" = Uuid, Path, description = "The contact request's id"), After),
    responses(
        CommunityErrors,
        (status = 200, description = "Messages in order", body = MessagePage),
        SignedInErrors,
        (status = 403, description = "`not_approved`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn list_messages(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
    Query(query): Query<After>,
) -> Result<Json<MessagePage>, ApiError> {
    let row = conversation(&state, id, user.user_id).await?;
    let other = if row.requester_id == user.user_id {
        row.contestant_id
    } else {
        row.requester_id
    };
    let messages = after(&state.db, id, query.after.unwrap_or(0)).await?;
    Ok(Json(MessagePage {
        messages: messages
            .into_iter()
            .map(|message| ChatMessage::of(message, user.user_id))
            .collect(),
        my_last_read_seq: last_read(&state.db, id, user.user_id).await?,
        other_last_read_seq: last_read(&state.db, id, other).await?,
    }))
}

/// Sends a message. Idempotent on the client's `id`: a retried send after a
/// network error answers the stored message (200) instead of posting twice.
#[utoipa::path(post, path = "/contact-requests/{id}/messages", tag = "messages",
    params(("id" = Uuid, Path, description = "The contact request's id")),
    request_body = SendMessageForm,
    responses(
        CommunityErrors,
        (status = 201, description = "Stored and delivered", body = ChatMessage),
        (status = 200, description = "Sent before with this id", body = ChatMessage),
        SignedInErrors,
        (status = 403, description = "`not_approved`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`conversation_closed`; `conflict`: the id is another message's; `confirm_required`: the message has words that may hurt or offend, send it again with `confirm: true` if the sender is sure", body = ErrorBody),
        (status = 422, description = "`validation_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn send_message(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
    Json(form): Json<SendMessageForm>,
) -> Result<(StatusCode, Json<ChatMessage>), ApiError> {
    if form.content.trim().is_empty() {
        return Err(ApiError::invalid("Message cannot be empty"));
    }
    if form.content.chars().count() > MAX_MESSAGE_CHARS {
        return Err(ApiError::invalid(
            "Message must be less than 5000 characters",
        ));
    }
    let row = conversation(&state, id, user.user_id).await?;
    if row.closed_at.is_some() {
        return Err(closed());
    }
    if !form.confirm && needs_confirmation(&state.config.moderation.caution_words, &form.content) {
        return Err(ApiError::conflict(ErrorCode::ConfirmRequired, ARE_YOU_SURE));
    }
    let receiver = if row.requester_id == user.user_id {
        row.contestant_id
    } else {
        row.requester_id
    };
    let txn = state.db.begin().await?;
    lock_parties(&txn, user.user_id, receiver).await?;
    let inserted = entity::Entity::insert(entity::ActiveModel {
        id: Set(form.id),
        contact_request_id: Set(id),
        sender_id: Set(user.user_id),
        receiver_id: Set(receiver),
        content: Set(form.content),
        created_at: Set(Utc::now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(entity::Column::Id)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    let stored = entity::Entity::find()
        .filter(entity::Column::Id.eq(form.id))
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a stored message is gone")))?;
    if stored.contact_request_id != id || stored.sender_id != user.user_id {
        return Err(ApiError::conflict(
            ErrorCode::Conflict,
            "This message id is taken.",
        ));
    }
    let wake = Wake {
        topic: id,
        seq: stored.seq,
    };
    if inserted > 0 {
        state.notifier.notify_in(&txn, wake).await?;
        if user.user_id == row.contestant_id {
            // The contestant wrote: their share of the fee counts as earned
            // (payable once the refund window has passed).
            crate::billing::payouts::ledger::replied(&txn, id, user.user_id).await?;
        }
    }
    txn.commit().await?;
    if inserted == 0 {
        return Ok((StatusCode::OK, Json(ChatMessage::of(stored, user.user_id))));
    }
    state.notifier.committed(wake);
    Ok((
        StatusCode::CREATED,
        Json(ChatMessage::of(stored, user.user_id)),
    ))
}

/// What the sender of a message with hurtful or sexual words is asked.
pub const ARE_YOU_SURE: &str =
    "Are you sure? Your message has words that may hurt or offend. Send it anyway?";

/// Whether `content` has a word of the configured list (whole words, any
/// case): the server asks before sending, so an edited client cannot skip
/// the question; nothing is blocked.
pub fn needs_confirmation(words: &[String], content: &str) -> bool {
    words
        .iter()
        .any(|word| crate::reports::rules::mentions(content, word))
}

/// Takes both parties' row locks for the rest of the sending transaction,
/// before its `seq` is drawn. `seq` is an identity taken at insert, not at
/// commit: without a lock, two senders into one conversation can commit out
/// of order, and a stream that has read the later one moves past the
/// earlier for good (issue 25: 48-55 of 320 messages lost under 8
/// senders). With it, the messages of one user (in all their
/// conversations, so of each conversation too) draw and commit one after
/// the other: whatever `seq` a conversation's stream or the user's own
/// event stream has seen, every smaller one of theirs is committed. The
/// locks are taken in id order, so two senders never wait for each other
/// in a circle; `FOR NO KEY UPDATE` leaves foreign-key checks on the users
/// free. SQLite has one writer at a time, which holds the same order
/// already.
pub(crate) async fn lock_parties(
    txn: &impl ConnectionTrait,
    one: Uuid,
    other: Uuid,
) -> Result<(), sea_orm::DbErr> {
    if txn.get_database_backend() == DbBackend::Postgres {
        let (first, second) = if one < other {
            (one, other)
        } else {
            (other, one)
        };
        txn.execute_raw(Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT id FROM users WHERE id IN ($1, $2) ORDER BY id FOR NO KEY UPDATE",
            [first.into(), second.into()],
        ))
        .await?;
    }
    Ok(())
}

/// Marks everything up to `seq` read (never backwards).
#[utoipa::path(post, path = "/contact-requests/{id}/messages/read", tag = "messages",
    params(("id" = Uuid, Path, description = "The contact request's id")),
    request_body = ReadForm,
    responses(
        CommunityErrors,
        (status = 204, description = "Marked"),
        SignedInErrors,
        (status = 403, description = "`not_approved`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn mark_read(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
    Json(form): Json<ReadForm>,
) -> Result<StatusCode, ApiError> {
    conversation(&state, id, user.user_id).await?;
    let newest = entity::Entity::find()
        .filter(entity::Column::ContactRequestId.eq(id))
        .order_by_desc(entity::Column::Seq)
        .one(&state.db)
        .await?
        .map_or(0, |row| row.seq);
    let seq = form.seq.clamp(0, newest);
    read::Entity::insert(read::ActiveModel {
        id: Set(Uuid::now_v7()),
        contact_request_id: Set(id),
        user_id: Set(user.user_id),
        last_read_seq: Set(seq),
        updated_at: Set(Utc::now()),
    })
    .on_conflict(
        OnConflict::columns([read::Column::ContactRequestId, read::Column::UserId])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&state.db)
    .await?;
    read::Entity::update_many()
        .col_expr(read::Column::LastReadSeq, Expr::value(seq))
        .col_expr(read::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(read::Column::ContactRequestId.eq(id))
        .filter(read::Column::UserId.eq(user.user_id))
        .filter(read::Column::LastReadSeq.lt(seq))
        .exec(&state.db)
        .await?;
    // Wakes the other party's streams, which send the new mark ('Seen').
    let wake = Wake { topic: id, seq };
    state.notifier.notify_in(&state.db, wake).await?;
    state.notifier.committed(wake);
    Ok(StatusCode::NO_CONTENT)
}

/// Whether `session` of `user` still exists: sign-out deletes it. Read from
/// the database, not the one-second session cache, so that a stream stops at
/// its next read after a sign-out on any instance.
pub(crate) async fn session_live(
    db: &impl ConnectionTrait,
    session: Uuid,
    user: Uuid,
) -> Result<bool, sea_orm::DbErr> {
    Ok(sessions::Entity::find_by_id(session)
        .filter(sessions::Column::UserId.eq(user))
        .count(db)
        .await?
        > 0)
}

/// The last event id the browser saw: `Last-Event-ID` (a reconnect), or `?after=`.
pub(crate) fn resume_from(headers: &HeaderMap, query: &After) -> i64 {
    headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse().ok())
        .or(query.after)
        .unwrap_or(0)
        .max(0)
}

/// What the stream sends next.
enum Item {
    Message(ChatMessage),
    /// The other party has read up to this `seq` ('Seen').
    Read(i64),
    /// The instance is stopping: reconnect after this long (the last item).
    Reconnect(std::time::Duration),
}

struct Cursor {
    state: AppState,
    id: Uuid,
    viewer: Uuid,
    /// The viewer's session: the stream ends when it does.
    session: Uuid,
    other: Uuid,
    last: i64,
    /// The other party's read mark last sent; -1 before the first.
    other_read: i64,
    /// Its place among the user's open streams (at most 10 per user).
    slot: StreamSlot,
    ready: VecDeque<ChatMessage>,
    wakes: tokio::sync::broadcast::Receiver<Wake>,
}

impl Cursor {
    /// The next item: the messages after the cursor, replayed from the
    /// database, then the other party's read mark when it moved; otherwise
    /// it waits for a wake-up or the catch-up interval. `None` ends the
    /// stream (closed, or the database failed; the browser reconnects with
    /// `Last-Event-ID`).
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(message) = self.ready.pop_front() {
                self.last = message.seq;
                return Some(Item::Message(message));
            }
            // Checked at each read, so on every wake-up and catch-up: a
            // signed-out session (here or on another instance, a sign-out
            // everywhere after a password change too) stops the stream
            // before it delivers anything new.
            if self.slot.is_closed() {
                return self.slot.goodbye().map(Item::Reconnect);
            }
            if !session_live(&self.state.db, self.session, self.viewer)
                .await
                .ok()?
            {
                return None;
            }
            let found = after(&self.state.db, self.id, self.last).await.ok()?;
            if !found.is_empty() {
                self.ready.extend(
                    found
                        .into_iter()
                        .map(|row| ChatMessage::of(row, self.viewer)),
                );
                continue;
            }
            let read = last_read(&self.state.db, self.id, self.other).await.ok()?;
            if read > self.other_read {
                self.other_read = read;
                return Some(Item::Read(read));
            }
            let open = contact::entity::Entity::find_by_id(self.id)
                .one(&self.state.db)
                .await
                .ok()??;
            if open.closed_at.is_some() {
                return None;
            }
            self.wait().await;
        }
    }

    /// Until this conversation is woken (a message, or a read mark), or the
    /// catch-up interval passes.
    async fn wait(&mut self) {
        let deadline = tokio::time::sleep(CATCH_UP);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                () = &mut deadline => return,
                () = self.slot.closed() => return,
                wake = self.wakes.recv() => match wake {
                    Ok(wake) if wake.topic == self.id => return,
                    Ok(_) => {}
                    // Missed some: read the database to be sure.
                    Err(RecvError::Lagged(_)) => return,
                    Err(RecvError::Closed) => {
                        deadline.as_mut().await;
                        return;
                    }
                },
            }
        }
    }
}

/// The last event of a stream whose instance is stopping: an SSE `retry:`
/// (how long the client waits before it reconnects, to another instance)
/// and a comment saying why.
fn stopping_event(after: std::time::Duration) -> Event {
    Event::default()
        .retry(after)
        .comment("this instance is stopping: reconnect")
}

/// The conversation as server-sent events: `event: message`, `id: <seq>`,
/// `data: <ChatMessage>`. After a reconnect with `Last-Event-ID` (or
/// `?after=`), exactly the messages after it, in order; then each new one as
/// it is stored, on whichever instance. `event: read`, `data: {"seq": n}`
/// (no id) says the other party has read up to `n`: once when the stream
/// opens, then whenever it moves.
#[utoipa::path(get, path = "/contact-requests/{id}/messages/stream", tag = "messages",
    params(
        ("id" = Uuid, Path, description = "The contact request's id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The last `seq` received"),
        After,
    ),
    responses(
        CommunityErrors,
        (status = 200, description = "`text/event-stream` of ChatMessage events", content_type = "text/event-stream", body = ChatMessage),
        SignedInErrors,
        (status = 403, description = "`not_approved`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`conversation_closed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn message_stream(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(id): Path<Uuid>,
    headers: HeaderMap,
    Query(query): Query<After>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let row = conversation(&state, id, user.user_id).await?;
    if row.closed_at.is_some() {
        return Err(closed());
    }
    let other = if row.requester_id == user.user_id {
        row.contestant_id
    } else {
        row.requester_id
    };
    let cursor = Cursor {
        wakes: state.notifier.subscribe(),
        slot: state.notifier.open_stream(user.user_id),
        state,
        id,
        viewer: user.user_id,
        session: user.session_id,
        other,
        other_read: -1,
        last: resume_from(&headers, &query),
        ready: VecDeque::new(),
    };
    let events = futures::stream::unfold(cursor, |mut cursor| async move {
        let event = match cursor.next().await? {
            Item::Message(message) => Event::default()
                .event("message")
                .id(message.seq.to_string())
                .json_data(&message),
            Item::Read(seq) => Event::default()
                .event("read")
                .json_data(serde_json::json!({ "seq": seq })),
            Item::Reconnect(after) => Ok(stopping_event(after)),
        }
        .unwrap_or_else(|_| Event::default().comment("unserialisable event"));
        Some((Ok(event), cursor))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive")))
}

/// The side menu's Contact Requests badge: requests waiting for the
/// caller's answer and messages they have not read.
#[utoipa::path(get, path = "/contact-requests/unread", tag = "messages",
    responses(
        CommunityErrors,
        (status = 200, description = "The counts", body = UnreadSummary),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn unread_summary(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
) -> Result<Json<UnreadSummary>, ApiError> {
    Ok(Json(unread_of(&state.db, user.user_id).await?))
}

/// The badge's counts for `user`.
pub(crate) async fn unread_of(
    db: &DatabaseConnection,
    user: Uuid,
) -> Result<UnreadSummary, sea_orm::DbErr> {
    let awaiting = contact::entity::Entity::find()
        .filter(contact::entity::Column::ContestantId.eq(user))
        .filter(contact::entity::Column::Status.eq(Status::Pending))
        .filter(contact::entity::Column::Paid.eq(true))
        .count(db)
        .await?;
    let backend = db.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            "SELECT COUNT(*) AS n FROM messages m \
             JOIN contact_requests c ON c.id = m.contact_request_id \
             LEFT JOIN message_reads r ON r.contact_request_id = m.contact_request_id AND r.user_id = $1 \
             WHERE m.receiver_id = $1 AND c.closed_at IS NULL AND m.seq > COALESCE(r.last_read_seq, 0)"
        }
        _ => {
            "SELECT COUNT(*) AS n FROM messages m \
             JOIN contact_requests c ON c.id = m.contact_request_id \
             LEFT JOIN message_reads r ON r.contact_request_id = m.contact_request_id AND r.user_id = ?1 \
             WHERE m.receiver_id = ?1 AND c.closed_at IS NULL AND m.seq > COALESCE(r.last_read_seq, 0)"
        }
    };
    let unread: i64 = db
        .query_one_raw(Statement::from_sql_and_values(backend, sql, [user.into()]))
        .await?
        .map(|row| row.try_get("", "n"))
        .transpose()?
        .unwrap_or(0);
    Ok(UnreadSummary {
        awaiting_answer: awaiting,
        unread_messages: unread.max(0) as u64,
    })
}
