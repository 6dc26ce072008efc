//! Answers read from the database a moment ago, given again without a query.
//!
//! On SQLite every query is a round trip to a worker thread, and a signed-in
//! request made two (its session, then its answer): most of its time went to
//! handing work between threads, not to the database. An entry is trusted
//! only while both hold:
//! - it is younger than the cache's time to live (one second here): a change
//!   made by another instance (or process) takes effect within it;
//! - no request that could write has finished on this instance since it was
//!   read: every POST, PUT, PATCH or DELETE empties the caches
//!   ([`super::extract::forget_recent_reads_after_writes`]) before its answer
//!   leaves, so the instance that made a change shows it at once.
//!
//! A read that started before such a write is never stored as current: each
//! entry carries the epoch seen before its query ([`RecentReads::epoch`]).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a change made elsewhere can go unseen.
pub const TTL: Duration = Duration::from_secs(1);
const MAX_ENTRIES: usize = 10_000;

struct Entry<V> {
    value: V,
    epoch: u64,
    read_at: Instant,
}

pub struct RecentReads<K, V> {
    /// `None` keeps nothing (a cache turned off).
    ttl: Option<Duration>,
    max_entries: usize,
    epoch: AtomicU64,
    entries: Mutex<HashMap<K, Entry<V>>>,
}

impl<K: Hash + Eq, V: Clone> RecentReads<K, V> {
    pub fn new(ttl: Duration, max_entries: usize) -> Self {
        Self {
            ttl: Some(ttl),
            max_entries,
            epoch: AtomicU64::new(0),
            entries: Mutex::default(),
        }
    }

    /// [`TTL`], for at most 10,000 keys.
    pub fn standard() -> Self {
        Self::new(TTL, MAX_ENTRIES)
    }

    /// A cache that keeps nothing: every read goes to the database.
    pub fn off() -> Self {
        Self {
            ttl: None,
            max_entries: 0,
            epoch: AtomicU64::new(0),
            entries: Mutex::default(),
        }
    }

    /// The epoch to pass to [`Self::put`]: read it before querying.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }

    pub fn get(&self, key: &K) -> Option<V> {
        let ttl = self.ttl?;
        let epoch = self.epoch();
        let entries = self.entries.lock().expect("recent reads lock");
        let entry = entries.get(key)?;
        (entry.epoch == epoch && entry.read_at.elapsed() < ttl).then(|| entry.value.clone())
    }

    /// Keeps what a read found, unless a write finished since `epoch`.
    pub fn put(&self, key: K, epoch: u64, value: V) {
        let Some(ttl) = self.ttl else { return };
        if epoch != self.epoch() {
            return;
        }
        let mut entries = self.entries.lock().expect("recent reads lock");
        if entries.len() >= self.max_entries {
            entries.retain(|_, entry| entry.read_at.elapsed() < ttl);
            if entries.len() >= self.max_entries {
                entries.clear();
            }
        }
        entries.insert(
            key,
            Entry {
                value,
                epoch,
                read_at: Instant::now(),
            },
        );
    }

    /// Distrusts every entry: something may have changed.
    pub fn forget_all(&self) {
        self.epoch.fetch_add(1, Ordering::AcqRel);
        if self.ttl.is_some() {
            self.entries.lock().expect("recent reads lock").clear();
        }
    }

    #[cfg(test)]
    fn age_all(&self, by: Duration) {
        for entry in self.entries.lock().unwrap().values_mut() {
            entry.read_at -= by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_serves_until_a_write_or_its_time_to_live() {
        let cache = RecentReads::new(TTL, 10);
        cache.put("a", cache.epoch(), 1);
        assert_eq!(cache.get(&"a"), Some(1));
        assert_eq!(cache.get(&"b"), None);
        cache.forget_all();
        assert_eq!(cache.get(&"a"), None);

        cache.put("a", cache.epoch(), 2);
        cache.age_all(TTL);
        assert_eq!(cache.get(&"a"), None);
    }

    #[test]
    fn a_read_that_began_before_a_write_is_not_kept() {
        let cache = RecentReads::new(TTL, 10);
        let before = cache.epoch();
        cache.forget_all();
        cache.put("a", before, 1);
        assert_eq!(cache.get(&"a"), None);
    }

    #[test]
    fn a_full_cache_makes_room_and_a_cache_turned_off_keeps_nothing() {
        let cache = RecentReads::new(TTL, 2);
        for key in 0..5 {
            cache.put(key, cache.epoch(), key);
            assert_eq!(cache.get(&key), Some(key));
        }
        assert!(cache.entries.lock().unwrap().len() <= 2);

        let off = RecentReads::off();
        off.put("a", off.epoch(), 1);
        assert_eq!(off.get(&"a"), None);
    }
}
