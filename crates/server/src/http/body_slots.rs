//! The connections that may be receiving a request body at once: fewer than
//! all of them, so that requests without a body (health checks, reads) always
//! find a connection while slow uploads hold every place they may (issue 43:
//! slow bodies from 18 addresses held all 4,096 and `/healthz` timed out).
//!
//! When every body place is taken, a new body takes the place of the slowest
//! one that has had a fair start ([`MIN_AGE_TO_SHED`]), measured in bytes a
//! second; that one ends with 408. With none to shed, the new one is refused
//! with 503 at once, so it does not hold its connection.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Context;
use std::time::Duration;

use futures::task::AtomicWaker;
use tokio::time::Instant;

/// A body younger than this is never shed: it has not shown its pace yet.
pub const MIN_AGE_TO_SHED: Duration = Duration::from_secs(1);

#[derive(Debug)]
pub struct BodySlots {
    cap: usize,
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    next_id: u64,
    bodies: HashMap<u64, Arc<Progress>>,
}

#[derive(Debug)]
struct Progress {
    admitted: Instant,
    received: AtomicU64,
    shed: AtomicBool,
    waker: AtomicWaker,
}

impl Progress {
    /// Bytes a second since it was admitted.
    fn rate(&self, now: Instant) -> f64 {
        let age = now.duration_since(self.admitted).as_secs_f64().max(0.001);
        self.received.load(Ordering::Relaxed) as f64 / age
    }
}

impl BodySlots {
    pub fn new(cap: usize) -> Arc<Self> {
        Arc::new(Self {
            cap: cap.max(1),
            table: Mutex::default(),
        })
    }

    /// A place for a new body: a free one, or the slowest body's (which is
    /// told to end); `None` when all are taken by bodies too young to judge.
    pub fn admit(self: &Arc<Self>) -> Option<BodySlot> {
        self.admit_at(Instant::now())
    }

    fn admit_at(self: &Arc<Self>, now: Instant) -> Option<BodySlot> {
        let mut table = self.table.lock().unwrap_or_else(|p| p.into_inner());
        if table.bodies.len() >= self.cap {
            let slowest = table
                .bodies
                .iter()
                .filter(|(_, body)| now.duration_since(body.admitted) >= MIN_AGE_TO_SHED)
                .min_by(|(_, a), (_, b)| a.rate(now).total_cmp(&b.rate(now)))
                .map(|(id, _)| *id)?;
            let shed = table.bodies.remove(&slowest).expect("just found");
            shed.shed.store(true, Ordering::SeqCst);
            shed.waker.wake();
        }
        let id = table.next_id;
        table.next_id += 1;
        let progress = Arc::new(Progress {
            admitted: now,
            received: AtomicU64::new(0),
            shed: AtomicBool::new(false),
            waker: AtomicWaker::new(),
        });
        table.bodies.insert(id, progress.clone());
        Some(BodySlot {
            id,
            progress,
            slots: self.clone(),
        })
    }

    #[cfg(test)]
    fn held(&self) -> usize {
        self.table.lock().unwrap().bodies.len()
    }
}

/// One body's place; dropping it (the body ended, or was dropped) frees it.
#[derive(Debug)]
pub struct BodySlot {
    id: u64,
    progress: Arc<Progress>,
    slots: Arc<BodySlots>,
}

impl BodySlot {
    /// Records the bytes received so far.
    pub fn received(&self, bytes: u64) {
        self.progress.received.store(bytes, Ordering::Relaxed);
    }

    /// Whether the body was shed; otherwise `cx` is woken when it is.
    pub fn is_shed(&self, cx: &Context<'_>) -> bool {
        self.progress.waker.register(cx.waker());
        self.progress.shed.load(Ordering::SeqCst)
    }
}

impl Drop for BodySlot {
    fn drop(&mut self) {
        let mut table = self.slots.table.lock().unwrap_or_else(|p| p.into_inner());
        table.bodies.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shed(slot: &BodySlot) -> bool {
        slot.progress.shed.load(Ordering::SeqCst)
    }

    #[test]
    fn a_full_house_sheds_its_slowest_body_that_had_a_fair_start() {
        let slots = BodySlots::new(3);
        let start = Instant::now();
        let trickle = slots.admit_at(start).unwrap();
        let steady = slots.admit_at(start).unwrap();
        let fast = slots.admit_at(start).unwrap();
        // All young: a fourth body is refused, nobody is shed.
        let young = start + Duration::from_millis(500);
        assert!(slots.admit_at(young).is_none());
        assert!(!shed(&trickle) && !shed(&steady) && !shed(&fast));

        let later = start + Duration::from_secs(5);
        trickle.received(1);
        steady.received(50_000);
        fast.received(3_000_000);
        let newcomer = slots.admit_at(later).expect("the trickle's place");
        assert!(shed(&trickle), "the slowest body is shed");
        assert!(!shed(&steady) && !shed(&fast));
        assert_eq!(slots.held(), 3);
        // The shed body's own drop later frees nothing twice.
        drop(trickle);
        assert_eq!(slots.held(), 3);
        drop(newcomer);
        assert_eq!(slots.held(), 2);
        assert!(slots.admit_at(later).is_some(), "a free place");
    }
}
