//! Session states read recently, so that a signed-in request needs no
//! session query of its own: the session check was half the database work of
//! a signed-in list, and on SQLite every query is a round trip to a worker
//! thread.
//!
//! An entry is trusted only while both hold:
//! - it is younger than [`SESSION_CACHE_TTL`] (one second): a sign-out or a
//!   new second factor on another instance takes effect there within it;
//! - no request that could change a session, a factor or a user has finished
//!   on this instance since it was read: every POST, PUT, PATCH or DELETE
//!   bumps the epoch ([`forget_sessions_after_writes`]), so on the instance
//!   that signed out, the sign-out takes effect at once.
//!
//! A read that started before a bump is never stored as current: each entry
//! carries the epoch seen before its query.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use uuid::Uuid;

use crate::http::AppState;

/// How long another instance's change can go unseen here.
pub const SESSION_CACHE_TTL: Duration = Duration::from_secs(1);
const MAX_ENTRIES: usize = 10_000;

/// What a request needs to know about its session.
#[derive(Debug, Clone, sea_orm::FromQueryResult)]
pub struct SessionState {
    pub aal: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub has_verified_factor: bool,
}

struct Entry {
    user_id: Uuid,
    state: SessionState,
    epoch: u64,
    read_at: Instant,
}

#[derive(Default)]
pub struct SessionCache {
    epoch: AtomicU64,
    entries: Mutex<HashMap<Uuid, Entry>>,
}

impl SessionCache {
    /// The epoch to pass to [`Self::put`]: read it before querying.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }

    pub fn get(&self, session_id: Uuid, user_id: Uuid) -> Option<SessionState> {
        let epoch = self.epoch();
        let entries = self.entries.lock().expect("session cache lock");
        let entry = entries.get(&session_id)?;
        (entry.user_id == user_id
            && entry.epoch == epoch
            && entry.read_at.elapsed() < SESSION_CACHE_TTL)
            .then(|| entry.state.clone())
    }

    pub fn put(&self, session_id: Uuid, user_id: Uuid, epoch: u64, state: SessionState) {
        if epoch != self.epoch() {
            return;
        }
        let mut entries = self.entries.lock().expect("session cache lock");
        if entries.len() >= MAX_ENTRIES {
            entries.retain(|_, entry| entry.read_at.elapsed() < SESSION_CACHE_TTL);
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
        }
        entries.insert(
            session_id,
            Entry {
                user_id,
                state,
                epoch,
                read_at: Instant::now(),
            },
        );
    }

    /// Distrusts every entry: something may have changed a session.
    pub fn forget_all(&self) {
        self.epoch.fetch_add(1, Ordering::AcqRel);
        self.entries.lock().expect("session cache lock").clear();
    }
}

/// After any request that may write (sign-out, a factor verified or
/// removed, an account deleted, ...), forgets the sessions read before it, so
/// the change holds for the next request. Before the response leaves, so a
/// client that has its answer can rely on it.
pub async fn forget_sessions_after_writes(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let writes = !request.method().is_safe();
    let response = next.run(request).await;
    if writes {
        state.sessions.forget_all();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> SessionState {
        SessionState {
            aal: "aal1".into(),
            created_at: chrono::Utc::now(),
            has_verified_factor: false,
        }
    }

    #[test]
    fn an_entry_serves_its_own_user_until_a_write_or_the_ttl() {
        let cache = SessionCache::default();
        let (id, user) = (Uuid::new_v4(), Uuid::new_v4());
        cache.put(id, user, cache.epoch(), session());
        assert!(cache.get(id, user).is_some());
        assert!(cache.get(id, Uuid::new_v4()).is_none());
        cache.forget_all();
        assert!(cache.get(id, user).is_none());

        cache.put(id, user, cache.epoch(), session());
        cache.entries.lock().unwrap().get_mut(&id).unwrap().read_at -= SESSION_CACHE_TTL;
        assert!(cache.get(id, user).is_none());
    }

    #[test]
    fn a_read_that_began_before_a_write_is_not_kept() {
        let cache = SessionCache::default();
        let (id, user) = (Uuid::new_v4(), Uuid::new_v4());
        let before = cache.epoch();
        cache.forget_all();
        cache.put(id, user, before, session());
        assert!(cache.get(id, user).is_none());
    }
}
