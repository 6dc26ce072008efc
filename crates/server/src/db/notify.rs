//! Wake-ups across server instances, for realtime streams. The database is
//! the source of truth; a wake-up only says "topic T has something new at
//! sequence S" so that listeners read it from the database.
//!
//! - On PostgreSQL the writer calls [`Notifier::notify_in`] inside its
//!   transaction: `pg_notify` carries the ids only (NOTIFY payloads are
//!   capped at 8000 bytes, and a payload would bypass authorization), and
//!   PostgreSQL delivers it at commit to every instance's listening
//!   connection ([`Notifier::spawn_listener`]), which wakes that instance's
//!   streams. A notification lost while the listening connection reconnects
//!   is covered by the streams' periodic catch-up read.
//! - On SQLite (one instance) [`Notifier::committed`] wakes this instance's
//!   streams directly after the commit.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, DbErr, Statement};
use tokio::sync::broadcast;
use uuid::Uuid;

/// The PostgreSQL channel of message wake-ups.
pub const MESSAGES_CHANNEL: &str = "prettyscore_messages";

/// Something new in `topic` (a conversation) at `seq`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wake {
    pub topic: Uuid,
    pub seq: i64,
}

impl Wake {
    fn payload(&self) -> String {
        format!("{}:{}", self.topic, self.seq)
    }

    fn parse(payload: &str) -> Option<Self> {
        let (topic, seq) = payload.split_once(':')?;
        Some(Self {
            topic: topic.parse().ok()?,
            seq: seq.parse().ok()?,
        })
    }
}

/// How many streams one user may hold open on an instance: opening one
/// more closes their oldest (a browser reconnects a stream it still wants).
/// One user opening thousands held every connection slot (issue 25).
pub const MAX_STREAMS_PER_USER: usize = 10;

/// Each user's open streams, oldest first, by their ids.
type OpenStreams = HashMap<Uuid, VecDeque<(u64, Arc<SlotState>)>>;

/// The open streams of each user on this instance.
#[derive(Default)]
struct StreamSlots {
    next: AtomicU64,
    open: Mutex<OpenStreams>,
    /// The instance is stopping: every stream is closed, new ones at once.
    stopping: AtomicBool,
}

#[derive(Default)]
struct SlotState {
    closed: AtomicBool,
    /// Closed because the instance is stopping (not by a newer stream).
    stopping: AtomicBool,
    wake: tokio::sync::Notify,
}

impl SlotState {
    fn close(&self, stopping: bool) {
        self.stopping.store(stopping, Ordering::SeqCst);
        self.closed.store(true, Ordering::SeqCst);
        self.wake.notify_one();
    }
}

/// How long a client should wait before it reconnects a stream that ended
/// because its instance is stopping: long enough for the load balancer to
/// have moved it elsewhere.
pub const RECONNECT_AFTER_STOP: std::time::Duration = std::time::Duration::from_secs(1);

/// One open stream's place among its user's; dropping it frees the place.
pub struct StreamSlot {
    user: Uuid,
    id: u64,
    state: Arc<SlotState>,
    slots: Arc<StreamSlots>,
    /// Whether the stream has said goodbye (see [`Self::goodbye`]).
    said_goodbye: bool,
}

impl StreamSlot {
    /// Once, when the stream was closed because the instance is stopping:
    /// the delay to tell the client to reconnect after (an SSE `retry:`),
    /// before the stream ends.
    pub fn goodbye(&mut self) -> Option<std::time::Duration> {
        if self.said_goodbye || !self.state.stopping.load(Ordering::SeqCst) {
            return None;
        }
        self.said_goodbye = true;
        Some(RECONNECT_AFTER_STOP)
    }

    /// Whether a newer stream of the same user took this one's place.
    pub fn is_closed(&self) -> bool {
        self.state.closed.load(Ordering::SeqCst)
    }

    /// Resolves when this stream has been closed (at once if it was).
    pub async fn closed(&self) {
        while !self.is_closed() {
            self.state.wake.notified().await;
        }
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock().expect("stream slots lock");
        if let Some(streams) = open.get_mut(&self.user) {
            streams.retain(|(id, _)| *id != self.id);
            if streams.is_empty() {
                open.remove(&self.user);
            }
        }
    }
}

/// This instance's wake-ups. Cheap to clone.
#[derive(Clone)]
pub struct Notifier {
    local: broadcast::Sender<Wake>,
    postgres: bool,
    slots: Arc<StreamSlots>,
    /// SQLite: wake-ups queued inside a transaction whose writer cannot
    /// call [`Self::committed`] (a hook), sent when a write request ends.
    deferred: Arc<Mutex<Vec<Wake>>>,
}

impl Notifier {
    pub fn new(db: &DatabaseConnection) -> Self {
        let (local, _) = broadcast::channel(1024);
        Self {
            local,
            postgres: db.get_database_backend() == DbBackend::Postgres,
            deferred: Arc::default(),
            slots: Arc::default(),
        }
    }

    /// A place for a new stream of `user`; beyond [`MAX_STREAMS_PER_USER`]
    /// their oldest streams are told to close.
    pub fn open_stream(&self, user: Uuid) -> StreamSlot {
        let id = self.slots.next.fetch_add(1, Ordering::SeqCst);
        let state = Arc::new(SlotState::default());
        let mut open = self.slots.open.lock().expect("stream slots lock");
        let streams = open.entry(user).or_default();
        streams.push_back((id, state.clone()));
        while streams.len() > MAX_STREAMS_PER_USER {
            if let Some((_, oldest)) = streams.pop_front() {
                oldest.close(false);
            }
        }
        if self.slots.stopping.load(Ordering::SeqCst) {
            state.close(true);
        }
        drop(open);
        StreamSlot {
            user,
            id,
            state,
            slots: self.slots.clone(),
            said_goodbye: false,
        }
    }

    /// Closes every open stream, and every one opened from now on, with a
    /// goodbye ([`StreamSlot::goodbye`]): the instance is stopping.
    pub fn close_streams(&self) {
        let open = self.slots.open.lock().expect("stream slots lock");
        self.slots.stopping.store(true, Ordering::SeqCst);
        for (_, state) in open.values().flatten() {
            state.close(true);
        }
    }

    /// How many streams `user` holds open on this instance.
    pub fn open_streams(&self, user: Uuid) -> usize {
        self.slots
            .open
            .lock()
            .expect("stream slots lock")
            .get(&user)
            .map_or(0, VecDeque::len)
    }

    /// For a writer that only has its transaction (a hook): on PostgreSQL
    /// the same as [`Self::notify_in`]; on SQLite the wake-up waits for
    /// [`Self::flush_deferred`], which runs when a write request has
    /// answered (its transaction is over). A wake-up of a background job
    /// waits for the next write request or the streams' catch-up read.
    pub async fn notify_deferred(
        &self,
        txn: &impl ConnectionTrait,
        wake: Wake,
    ) -> Result<(), DbErr> {
        if self.postgres {
            return self.notify_in(txn, wake).await;
        }
        self.deferred
            .lock()
            .expect("deferred wake-ups lock")
            .push(wake);
        Ok(())
    }

    /// Sends the wake-ups [`Self::notify_deferred`] queued (SQLite).
    pub fn flush_deferred(&self) {
        let wakes = std::mem::take(&mut *self.deferred.lock().expect("deferred wake-ups lock"));
        for wake in wakes {
            let _ = self.local.send(wake);
        }
    }

    /// Wake-ups from now on. A receiver that falls behind gets `Lagged` and
    /// should simply read from the database.
    pub fn subscribe(&self) -> broadcast::Receiver<Wake> {
        self.local.subscribe()
    }

    /// On PostgreSQL, queues the wake-up in the writer's transaction (sent
    /// at commit, not at all on rollback). Nothing on SQLite.
    pub async fn notify_in(&self, txn: &impl ConnectionTrait, wake: Wake) -> Result<(), DbErr> {
        if self.postgres {
            txn.execute_raw(Statement::from_sql_and_values(
                DbBackend::Postgres,
                "SELECT pg_notify($1, $2)",
                [MESSAGES_CHANNEL.into(), wake.payload().into()],
            ))
            .await?;
        }
        Ok(())
    }

    /// After the commit: on SQLite, wakes this instance's listeners (on
    /// PostgreSQL the listening connection does, on every instance).
    pub fn committed(&self, wake: Wake) {
        if !self.postgres {
            let _ = self.local.send(wake);
        }
    }

    /// On PostgreSQL, listens on [`MESSAGES_CHANNEL`] for as long as the
    /// server runs, reconnecting after a lost connection.
    pub fn spawn_listener(&self, db: DatabaseConnection) {
        if !self.postgres {
            return;
        }
        let local = self.local.clone();
        tokio::spawn(async move {
            loop {
                if let Err(err) = listen(&db, &local).await {
                    tracing::warn!(error = %err, "the realtime listener lost its connection; reconnecting");
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}

async fn listen(
    db: &DatabaseConnection,
    local: &broadcast::Sender<Wake>,
) -> Result<(), sea_orm::sqlx::Error> {
    let pool = db.get_postgres_connection_pool();
    let mut listener = sea_orm::sqlx::postgres::PgListener::connect_with(pool).await?;
    listener.listen(MESSAGES_CHANNEL).await?;
    loop {
        match listener.try_recv().await? {
            Some(notification) => {
                if let Some(wake) = Wake::parse(notification.payload()) {
                    let _ = local.send(wake);
                }
            }
            // The connection dropped; the next try_recv reconnects, and the
            // streams' catch-up read covers what was missed.
            None => continue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_users_eleventh_stream_closes_their_oldest_and_a_dropped_one_frees_its_place() {
        let db = sea_orm::Database::connect("sqlite::memory:").await.unwrap();
        let notifier = Notifier::new(&db);
        let (user, other) = (Uuid::new_v4(), Uuid::new_v4());
        let mut streams: Vec<StreamSlot> = (0..MAX_STREAMS_PER_USER)
            .map(|_| notifier.open_stream(user))
            .collect();
        let others = notifier.open_stream(other);
        assert!(streams.iter().all(|slot| !slot.is_closed()));
        streams.push(notifier.open_stream(user));
        assert!(streams[0].is_closed(), "the oldest made room");
        streams[0].closed().await;
        assert!(streams[1..].iter().all(|slot| !slot.is_closed()));
        assert!(!others.is_closed(), "another user's stream is theirs");
        assert_eq!(notifier.open_streams(user), MAX_STREAMS_PER_USER);
        streams.truncate(5);
        assert_eq!(
            notifier.open_streams(user),
            4,
            "closed ones left with their drop"
        );
        drop(streams);
        assert_eq!(notifier.open_streams(user), 0);
    }

    #[test]
    fn a_wake_up_carries_ids_only_and_reads_back() {
        let wake = Wake {
            topic: Uuid::nil(),
            seq: 42,
        };
        assert_eq!(wake.payload(), "00000000-0000-0000-0000-000000000000:42");
        assert_eq!(Wake::parse(&wake.payload()), Some(wake));
        assert_eq!(Wake::parse("nonsense"), None);
    }
}
