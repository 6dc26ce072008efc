//! A request body that gives up on a client that sends too slowly: hyper has
//! no body read timeout, so a client that sends a POST's headers and never
//! its body held a connection for as long as it liked (issue 25), and one
//! byte every few seconds did too when the timeout restarted with every
//! byte (issue 43: 18 addresses held every slot that way).
//!
//! Three clocks, all running from the body's first read:
//! - nothing may arrive for the idle timeout;
//! - after a short grace, the bytes received must keep up with a minimum
//!   rate (Kestrel's `MinRequestBodyDataRate`: 240 B/s after 5 s);
//! - the whole body must arrive before a deadline that grows with its
//!   declared size (a floor of a few kB/s: a phone on a poor link passes).
//!
//! And a body can be shed ([`super::body_slots`]): when every connection
//! kept for bodies is taken, the slowest one gives its place up.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Frame, Incoming, SizeHint};
use tokio::time::{Instant, Sleep};

use super::body_slots::BodySlot;

/// Why a body was given up. Handlers find it in their read error's sources
/// ([`is_stalled`]) and answer 408 `body_timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyStalled {
    /// Nothing arrived for this long.
    Idle(Duration),
    /// Fewer bytes than the minimum rate after the grace.
    TooSlow,
    /// Not complete by the deadline for its size.
    PastDeadline,
    /// The slowest body when a faster one needed its place.
    Shed,
}

impl std::fmt::Display for BodyStalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Idle(timeout) => write!(
                f,
                "the request body sent nothing for {} s",
                timeout.as_secs()
            ),
            Self::TooSlow => f.write_str("the request body came slower than the minimum rate"),
            Self::PastDeadline => f.write_str("the request body was not complete by its deadline"),
            Self::Shed => f.write_str("the request body was the slowest when its place was needed"),
        }
    }
}

impl std::error::Error for BodyStalled {}

/// Whether `err`, or any error it came from, is a [`BodyStalled`].
pub fn is_stalled(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(err);
    while let Some(err) = current {
        if err.is::<BodyStalled>() {
            return true;
        }
        current = err.source();
    }
    false
}

/// How slow a body may be.
#[derive(Debug, Clone, Copy)]
pub struct BodyPace {
    /// Longest time without a byte.
    pub idle_timeout: Duration,
    /// Bytes per second a body must average once `grace` has passed.
    pub min_bytes_per_sec: u64,
    pub grace: Duration,
    /// The deadline of a body: `deadline_base` plus its declared size at
    /// `deadline_bytes_per_sec` (the largest body, when the size is unknown).
    pub deadline_base: Duration,
    pub deadline_bytes_per_sec: u64,
}

impl BodyPace {
    /// Time from the first read by which the whole body must be in.
    pub fn deadline(&self, declared: u64) -> Duration {
        self.deadline_base
            + Duration::from_secs_f64(declared as f64 / self.deadline_bytes_per_sec.max(1) as f64)
    }

    /// Time from the first read by which `received` bytes are too few.
    fn rate_due(&self, received: u64) -> Duration {
        self.grace.max(Duration::from_secs_f64(
            received as f64 / self.min_bytes_per_sec.max(1) as f64,
        ))
    }
}

/// `Incoming` under a [`BodyPace`], holding a connection slot for bodies
/// until it ends.
pub struct PacedBody {
    inner: Incoming,
    pace: BodyPace,
    declared: u64,
    slot: Option<BodySlot>,
    /// Set at the first read: from when the clocks run.
    started: Option<Instant>,
    last_data: Instant,
    received: u64,
    /// Set while a read waits for data.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl PacedBody {
    /// `largest_body` stands for the size of a body that declares none.
    pub fn new(inner: Incoming, pace: BodyPace, largest_body: u64, slot: Option<BodySlot>) -> Self {
        let declared = inner.size_hint().exact().unwrap_or(largest_body);
        Self {
            inner,
            pace,
            declared,
            slot,
            started: None,
            last_data: Instant::now(),
            received: 0,
            waiting: None,
        }
    }

    /// The earliest clock to run out while no data comes, and which.
    fn due(&self, started: Instant) -> (Instant, BodyStalled) {
        let idle = self.last_data + self.pace.idle_timeout;
        let slow = started + self.pace.rate_due(self.received);
        let deadline = started + self.pace.deadline(self.declared);
        [
            (idle, BodyStalled::Idle(self.pace.idle_timeout)),
            (slow, BodyStalled::TooSlow),
            (deadline, BodyStalled::PastDeadline),
        ]
        .into_iter()
        .min_by_key(|(at, _)| *at)
        .expect("three clocks")
    }

    fn give_up(&mut self, why: BodyStalled) -> Poll<Option<Result<Frame<bytes::Bytes>, BoxError>>> {
        self.waiting = None;
        self.slot = None;
        Poll::Ready(Some(Err(Box::new(why))))
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl Body for PacedBody {
    type Data = bytes::Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        if this.slot.as_ref().is_some_and(|slot| slot.is_shed(cx)) {
            return this.give_up(BodyStalled::Shed);
        }
        let now = Instant::now();
        let started = match this.started {
            Some(started) => started,
            None => {
                this.started = Some(now);
                this.last_data = now;
                now
            }
        };
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            this.waiting = None;
            match &frame {
                Some(Ok(frame)) => {
                    if let Some(data) = frame.data_ref() {
                        this.received += data.len() as u64;
                        this.last_data = now;
                        if let Some(slot) = &this.slot {
                            slot.received(this.received);
                        }
                    }
                }
                // The whole body is in: its connection is like any other now.
                None => this.slot = None,
                Some(Err(_)) => {}
            }
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        let (due, why) = this.due(started);
        if due <= now {
            return this.give_up(why);
        }
        let sleep = this
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(due)));
        if sleep.deadline() != due {
            sleep.as_mut().reset(due);
        }
        if sleep.as_mut().poll(cx).is_ready() {
            return this.give_up(why);
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACE: BodyPace = BodyPace {
        idle_timeout: Duration::from_secs(20),
        min_bytes_per_sec: 240,
        grace: Duration::from_secs(5),
        deadline_base: Duration::from_secs(30),
        deadline_bytes_per_sec: 32 * 1024,
    };

    #[test]
    fn a_trickle_is_too_slow_once_the_grace_has_passed() {
        // One byte every 5 s (issue 43) is far below 240 B/s: due at the grace.
        assert_eq!(PACE.rate_due(1), Duration::from_secs(5));
        assert_eq!(PACE.rate_due(10), Duration::from_secs(5));
        // 2,400 bytes buy ten seconds, whenever they came.
        assert_eq!(PACE.rate_due(2_400), Duration::from_secs(10));
    }

    #[test]
    fn the_deadline_grows_with_the_declared_size() {
        assert_eq!(PACE.deadline(0), Duration::from_secs(30));
        assert_eq!(PACE.deadline(32 * 1024 * 10), Duration::from_secs(40));
        // A 10 MB photo may take over five minutes (256 kbit/s).
        assert!(PACE.deadline(10_000_000) > Duration::from_secs(300));
    }
}
