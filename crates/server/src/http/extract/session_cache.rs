//! Session states read recently, so that a signed-in request needs no
//! session query of its own: the session check was half the database work of
//! a signed-in list. A [`RecentReads`] cache: an entry holds for a second, or
//! until a write request finishes on this instance, so on the instance that
//! signed out, the sign-out takes effect at once.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use uuid::Uuid;

use crate::http::AppState;
use crate::http::recent_reads::RecentReads;

/// How long another instance's change can go unseen here.
pub use crate::http::recent_reads::TTL as SESSION_CACHE_TTL;

/// What a request needs to know about its session.
#[derive(Debug, Clone, sea_orm::FromQueryResult)]
pub struct SessionState {
    pub aal: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub has_verified_factor: bool,
}

/// Session id to its user and state.
pub struct SessionCache(RecentReads<Uuid, (Uuid, SessionState)>);

impl Default for SessionCache {
    fn default() -> Self {
        Self(RecentReads::standard())
    }
}

impl SessionCache {
    /// The epoch to pass to [`Self::put`]: read it before querying.
    pub fn epoch(&self) -> u64 {
        self.0.epoch()
    }

    /// The session's state, if it was read recently for this same user.
    pub fn get(&self, session_id: Uuid, user_id: Uuid) -> Option<SessionState> {
        self.0
            .get(&session_id)
            .filter(|(owner, _)| *owner == user_id)
            .map(|(_, state)| state)
    }

    pub fn put(&self, session_id: Uuid, user_id: Uuid, epoch: u64, state: SessionState) {
        self.0.put(session_id, epoch, (user_id, state));
    }

    pub fn forget_all(&self) {
        self.0.forget_all();
    }
}

/// After any request that may write (sign-out, a factor verified or
/// removed, a photo saved or deleted, an account deleted, ...), forgets what
/// was read before it, so the change holds for the next request. Before the
/// response leaves, so a client that has its answer can rely on it.
pub async fn forget_recent_reads_after_writes(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let writes = !request.method().is_safe();
    let response = next.run(request).await;
    if writes {
        state.sessions.forget_all();
        state.user_lists.forget_all();
        state.public_answers.forget_all();
        // Its transactions are over: the wake-ups they queued may go.
        state.notifier.flush_deferred();
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
    fn an_entry_serves_only_its_own_user() {
        let cache = SessionCache::default();
        let (id, user) = (Uuid::new_v4(), Uuid::new_v4());
        cache.put(id, user, cache.epoch(), session());
        assert!(cache.get(id, user).is_some());
        assert!(cache.get(id, Uuid::new_v4()).is_none());
        cache.forget_all();
        assert!(cache.get(id, user).is_none());
    }
}
