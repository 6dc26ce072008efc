//! A request body that gives up when the client stops sending: hyper has no
//! body read timeout, so a client that sends a POST's headers and never its
//! body held a connection for as long as it liked (issue 25: about 4,200 of
//! them held every slot and `/healthz` timed out).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use hyper::body::{Body, Frame, Incoming, SizeHint};
use tokio::time::{Instant, Sleep};

/// A body that sent nothing for the timeout while a handler was waiting for
/// it. Handlers find it in their read error's sources ([`is_stalled`]).
#[derive(Debug)]
pub struct BodyStalled(Duration);

impl std::fmt::Display for BodyStalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body sent nothing for {} s",
            self.0.as_secs()
        )
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

/// `Incoming` with an idle timeout: the clock runs only while the body is
/// read and restarts with every chunk, so a slow but steady upload from a
/// phone goes through and a silent one ends.
pub struct IdleTimeoutBody {
    inner: Incoming,
    timeout: Duration,
    /// Set while a read waits for data.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl IdleTimeoutBody {
    pub fn new(inner: Incoming, timeout: Duration) -> Self {
        Self {
            inner,
            timeout,
            waiting: None,
        }
    }
}

impl Body for IdleTimeoutBody {
    type Data = bytes::Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            this.waiting = None;
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        let timeout = this.timeout;
        let sleep = this
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(Instant::now() + timeout)));
        ready!(sleep.as_mut().poll(cx));
        this.waiting = None;
        Poll::Ready(Some(Err(Box::new(BodyStalled(timeout)))))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
