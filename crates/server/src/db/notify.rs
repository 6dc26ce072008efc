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

/// This instance's wake-ups. Cheap to clone.
#[derive(Clone)]
pub struct Notifier {
    local: broadcast::Sender<Wake>,
    postgres: bool,
}

impl Notifier {
    pub fn new(db: &DatabaseConnection) -> Self {
        let (local, _) = broadcast::channel(1024);
        Self {
            local,
            postgres: db.get_database_backend() == DbBackend::Postgres,
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
