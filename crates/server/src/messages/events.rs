//! The signed-in user's own event stream (`GET /api/v1/events/stream`):
//! one server-sent event stream per tab, so that the side menu's badge and
//! the contact-request lists change when something happens instead of on a
//! 30 s poll.
//!
//! - `event: message`, `id: <seq>`: a new message in one of the user's
//!   conversations (sent or received; ids only, the conversation's own
//!   stream carries the text). Resumable like the conversation stream:
//!   after a reconnect with `Last-Event-ID`, exactly the messages after it,
//!   in order. Gap-free for the same reason: a message's sender takes both
//!   parties' row locks before its `seq` is drawn
//!   ([`super::lock_parties`]), so one user's messages commit in `seq`
//!   order.
//! - `event: unread`: the badge's counts ([`UnreadSummary`]), once at the
//!   start and whenever they change.
//! - `event: request`: one of the user's contact requests arrived for them
//!   (paid), was approved, denied or closed ([`RequestEvent`]). These two
//!   carry state, not history: a reconnect gets the counts as they are, and
//!   a client refreshes its lists when it (re)connects.
//!
//! The stream reads on each wake-up ([`crate::db::notify`]: a message or a
//! read mark in one of the user's conversations, a payment on one of their
//! requests) and on the periodic catch-up read, on whichever instance the
//! change happened. It ends when its session ends.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use chrono::{DateTime, Utc};
use futures::Stream;
use sea_orm::sea_query::Condition;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect,
};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{After, CATCH_UP, KEEP_ALIVE, PAGE, UnreadSummary, entity, resume_from, unread_of};
use crate::billing::entity::payment;
use crate::contact::{self, Status};
use crate::db::notify::{Notifier, StreamSlot, Wake};
use crate::http::AppState;
use crate::http::error::{ApiError, CommunityErrors, SignedInErrors};
use crate::http::extract::{CommunityMember, Query};
use crate::http::hooks::Hooks;

/// A new message in one of the caller's conversations.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageEvent {
    /// The message's `seq`, also the event's id.
    pub seq: i64,
    pub id: Uuid,
    /// The conversation: the contact request's id.
    pub contact_request_id: Uuid,
    pub sender_id: Uuid,
    /// Sent by the caller (from another tab or device).
    pub mine: bool,
    pub created_at: DateTime<Utc>,
}

/// One of the caller's contact requests as it stands now, sent when it
/// arrived for them (paid) or changed (approved, denied, closed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestEvent {
    pub id: Uuid,
    /// `requester` or `contestant`: which party the caller is.
    pub role: String,
    /// `pending`, `approved` or `denied`.
    pub status: String,
    /// The hold is confirmed.
    pub paid: bool,
    /// The conversation was closed by a block.
    pub closed: bool,
}

enum Item {
    Message(MessageEvent),
    Unread(UnreadSummary),
    Request(RequestEvent),
    /// The instance is stopping: reconnect after this long (the last item).
    Reconnect(std::time::Duration),
}

struct UserCursor {
    state: AppState,
    user: Uuid,
    session: Uuid,
    /// The last message `seq` sent.
    last: i64,
    unread: Option<UnreadSummary>,
    /// The requests as last sent, by id; `None` before the first read.
    requests: Option<HashMap<Uuid, RequestEvent>>,
    /// Its place among the user's open streams (at most 10 per user).
    slot: StreamSlot,
    ready: VecDeque<Item>,
    wakes: tokio::sync::broadcast::Receiver<Wake>,
}

/// The newest message `seq` of `user`'s conversations (0 without any).
async fn newest_seq(db: &DatabaseConnection, user: Uuid) -> Result<i64, DbErr> {
    Ok(entity::Entity::find()
        .filter(of_user(user))
        .order_by_desc(entity::Column::Seq)
        .one(db)
        .await?
        .map_or(0, |row| row.seq))
}

fn of_user(user: Uuid) -> Condition {
    Condition::any()
        .add(entity::Column::SenderId.eq(user))
        .add(entity::Column::ReceiverId.eq(user))
}

/// The requests `user` can see: those they sent, and those to them once
/// paid or answered (as [`contact::party_of`] decides).
async fn requests_of(
    db: &DatabaseConnection,
    user: Uuid,
) -> Result<HashMap<Uuid, RequestEvent>, DbErr> {
    use contact::entity::Column;
    let rows = contact::entity::Entity::find()
        .filter(
            Condition::any().add(Column::RequesterId.eq(user)).add(
                Condition::all().add(Column::ContestantId.eq(user)).add(
                    Condition::any()
                        .add(Column::Paid.eq(true))
                        .add(Column::Status.ne(Status::Pending)),
                ),
            ),
        )
        .order_by_desc(Column::UpdatedAt)
        .limit(500)
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            (
                row.id,
                RequestEvent {
                    id: row.id,
                    role: if row.contestant_id == user {
                        "contestant"
                    } else {
                        "requester"
                    }
                    .to_owned(),
                    status: row.status,
                    paid: row.paid,
                    closed: row.closed_at.is_some(),
                },
            )
        })
        .collect())
}

impl UserCursor {
    /// The next event, or `None` to end the stream (the session ended, or
    /// the database failed: the client reconnects with `Last-Event-ID`).
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                if let Item::Message(message) = &item {
                    self.last = message.seq;
                }
                return Some(item);
            }
            if self.slot.is_closed() {
                return self.slot.goodbye().map(Item::Reconnect);
            }
            if !super::session_live(&self.state.db, self.session, self.user)
                .await
                .ok()?
            {
                return None;
            }
            let db = &self.state.db;
            let found = entity::Entity::find()
                .filter(of_user(self.user))
                .filter(entity::Column::Seq.gt(self.last))
                .order_by_asc(entity::Column::Seq)
                .limit(PAGE)
                .all(db)
                .await
                .ok()?;
            self.ready.extend(found.into_iter().map(|row| {
                Item::Message(MessageEvent {
                    seq: row.seq,
                    id: row.id,
                    contact_request_id: row.contact_request_id,
                    sender_id: row.sender_id,
                    mine: row.sender_id == self.user,
                    created_at: row.created_at,
                })
            }));
            let requests = requests_of(db, self.user).await.ok()?;
            if let Some(before) = &self.requests {
                let mut changed: Vec<&RequestEvent> = requests
                    .values()
                    .filter(|now| before.get(&now.id) != Some(*now))
                    .collect();
                changed.sort_by_key(|request| request.id);
                self.ready
                    .extend(changed.into_iter().cloned().map(Item::Request));
            }
            self.requests = Some(requests);
            let unread = unread_of(db, self.user).await.ok()?;
            if self.unread.as_ref() != Some(&unread) {
                self.unread = Some(unread.clone());
                self.ready.push_back(Item::Unread(unread));
            }
            if self.ready.is_empty() {
                self.wait().await;
            }
        }
    }

    /// Whether `wake` concerns this user: their own topic, or one of their
    /// conversations.
    fn concerns(&self, wake: &Wake) -> bool {
        wake.topic == self.user
            || self
                .requests
                .as_ref()
                .is_some_and(|requests| requests.contains_key(&wake.topic))
    }

    async fn wait(&mut self) {
        let deadline = tokio::time::sleep(CATCH_UP);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                () = &mut deadline => return,
                () = self.slot.closed() => return,
                wake = self.wakes.recv() => match wake {
                    Ok(wake) if self.concerns(&wake) => return,
                    Ok(_) => {}
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

/// The caller's own events as server-sent events: `event: unread` (the
/// badge's counts) first and whenever they change, `event: message` with
/// `id: <seq>` for each new message in their conversations, and `event:
/// request` when one of their contact requests arrives, is answered or
/// closed. With `Last-Event-ID` (or `?after=`), the messages after it
/// first; without it, from now on. It ends when the session ends.
#[utoipa::path(get, path = "/events/stream", tag = "messages",
    params(
        ("Last-Event-ID" = Option<String>, Header, description = "The last message `seq` received"),
        After,
    ),
    responses(
        CommunityErrors,
        (status = 200, description = "`text/event-stream`: `unread` (UnreadSummary), `message` (MessageEvent) and `request` (RequestEvent) events", content_type = "text/event-stream", body = MessageEvent),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn user_events(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    headers: HeaderMap,
    Query(query): Query<After>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let resumed = headers.contains_key("last-event-id") || query.after.is_some();
    let last = if resumed {
        resume_from(&headers, &query)
    } else {
        newest_seq(&state.db, user.user_id).await?
    };
    let cursor = UserCursor {
        wakes: state.notifier.subscribe(),
        slot: state.notifier.open_stream(user.user_id),
        state,
        user: user.user_id,
        session: user.session_id,
        last,
        unread: None,
        requests: None,
        ready: VecDeque::new(),
    };
    let events = futures::stream::unfold(cursor, |mut cursor| async move {
        let event = match cursor.next().await? {
            Item::Message(message) => Event::default()
                .event("message")
                .id(message.seq.to_string())
                .json_data(&message),
            Item::Unread(unread) => Event::default().event("unread").json_data(&unread),
            Item::Request(request) => Event::default().event("request").json_data(&request),
            Item::Reconnect(after) => Ok(super::stopping_event(after)),
        }
        .unwrap_or_else(|_| Event::default().comment("unserialisable event"));
        Some((Ok(event), cursor))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive")))
}

/// Wakes both parties' event streams when a payment of a contact request
/// changes: the hold confirmed (the request arrives for the contestant),
/// captured (approved) or released (denied, expired). Registered in
/// `app::hooks`.
pub struct RequestPaymentWakes {
    pub notifier: Notifier,
}

#[async_trait::async_trait]
impl Hooks<AppState> for RequestPaymentWakes {
    async fn payment_changed(
        &self,
        txn: &DatabaseTransaction,
        payment_id: Uuid,
    ) -> Result<(), DbErr> {
        let Some(request_id) = payment::Entity::find_by_id(payment_id)
            .one(txn)
            .await?
            .and_then(|payment| payment.contact_request_id)
        else {
            return Ok(());
        };
        let Some(request) = contact::entity::Entity::find_by_id(request_id)
            .one(txn)
            .await?
        else {
            return Ok(());
        };
        for party in [request.requester_id, request.contestant_id] {
            self.notifier
                .notify_deferred(
                    txn,
                    Wake {
                        topic: party,
                        seq: 0,
                    },
                )
                .await?;
        }
        Ok(())
    }
}

/// Wakes `users`' event streams after a change that is not a message
/// (which wakes them through its conversation): for writers outside a
/// transaction, after their commit.
pub async fn wake_users(
    notifier: &Notifier,
    db: &impl ConnectionTrait,
    users: &[Uuid],
) -> Result<(), DbErr> {
    for user in users {
        let wake = Wake {
            topic: *user,
            seq: 0,
        };
        notifier.notify_in(db, wake).await?;
        notifier.committed(wake);
    }
    Ok(())
}
