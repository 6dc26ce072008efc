//! A cap on the request bodies one instance buffers at once. Uploads are read
//! into memory (at most 10 MB each), so a hundred of them in parallel would
//! hold a gigabyte. The room is taken by the bytes that actually arrived, as
//! they arrive, and given back when the request ends: a body that does not
//! fit gets 503 `server_busy` with `Retry-After`, in the one error shape.
//! (Reserving the declared size up front let five addresses trickling 134 MB
//! of declared uploads turn every other upload away, issue 43.)
//!
//! One client address declares at most its share of the room (429 beyond
//! it, before the body is read), so a few uploads from one place cannot
//! take it all either.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::Body;
use hyper::body::{Frame, SizeHint};

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::busy::{RETRY_AFTER_SECS, RoomFull};
use super::error::{ApiError, ErrorCode};
use super::extract::{client_ip, rate_key};

/// Bodies this small are not counted: the connection cap bounds them.
const UNCOUNTED_BYTES: u64 = 64 * 1024;

pub const OWN_SHARE_USED: &str =
    "You have several uploads in progress already. Please wait for them to finish and try again.";

/// The room for bodies in flight, counted in KiB.
#[derive(Debug, Clone)]
pub struct BodyBudget {
    room: Arc<Semaphore>,
    total_kib: u32,
    /// The largest body a route accepts: what a body of unknown length
    /// (chunked) reserves.
    largest_body: u64,
    /// The KiB one client address may hold (never less than one largest body).
    share_kib: u32,
    /// The KiB each address holds now (addresses holding nothing are absent).
    held: Arc<Mutex<HashMap<String, u32>>>,
    /// Whether the address is the first of `X-Forwarded-For` (behind a proxy).
    trust_forwarded: bool,
}

impl BodyBudget {
    pub fn new(
        total_bytes: u64,
        share_bytes: u64,
        largest_body: u64,
        trust_forwarded: bool,
    ) -> Self {
        let kib = |bytes: u64| {
            u32::try_from(bytes.div_ceil(1024))
                .unwrap_or(u32::MAX)
                .clamp(1, Semaphore::MAX_PERMITS as u32)
        };
        let total_kib = kib(total_bytes);
        Self {
            room: Arc::new(Semaphore::new(total_kib as usize)),
            total_kib,
            largest_body,
            share_kib: kib(share_bytes.max(largest_body)).min(total_kib),
            held: Arc::default(),
            trust_forwarded,
        }
    }

    /// Counts `kib` against `address`'s share; `None` when it would pass it.
    fn take_share(&self, address: String, kib: u32) -> Option<ShareHeld> {
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let holding = held.entry(address.clone()).or_insert(0);
        if *holding + kib > self.share_kib {
            if *holding == 0 {
                held.remove(&address);
            }
            return None;
        }
        *holding += kib;
        Some(ShareHeld {
            held: self.held.clone(),
            address,
            kib,
        })
    }

    /// The KiB a request reserves: its `Content-Length` (capped at the
    /// largest body), the largest body when it has a body of unknown length,
    /// nothing when it has none or a small one.
    fn reservation(&self, request: &Request) -> u32 {
        let headers = request.headers();
        let declared = match headers
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u64>().ok())
        {
            Some(length) => length.min(self.largest_body),
            None if headers.contains_key(header::TRANSFER_ENCODING) => self.largest_body,
            None => 0,
        };
        if declared <= UNCOUNTED_BYTES {
            return 0;
        }
        u32::try_from(declared.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .min(self.total_kib)
    }
}

/// An address's part of the room, given back when the request ends (or its
/// client goes away and the handler is dropped).
struct ShareHeld {
    held: Arc<Mutex<HashMap<String, u32>>>,
    address: String,
    kib: u32,
}

impl Drop for ShareHeld {
    fn drop(&mut self) {
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(holding) = held.get_mut(&self.address) {
            *holding = holding.saturating_sub(self.kib);
            if *holding == 0 {
                held.remove(&self.address);
            }
        }
    }
}

/// Counts the request's declared body size against its address's share,
/// and the bytes of its body as they arrive against the instance's room,
/// for as long as its handler runs.
pub async fn reserve(State(budget): State<BodyBudget>, request: Request, next: Next) -> Response {
    let kib = budget.reservation(&request);
    if kib == 0 {
        return next.run(request).await;
    }
    let address = rate_key(&client_ip(
        request.headers(),
        request.extensions(),
        budget.trust_forwarded,
    ));
    let Some(share) = budget.take_share(address, kib) else {
        return refuse(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            OWN_SHARE_USED,
        ));
    };
    let taken = Arc::new(RoomTaken {
        room: budget.room.clone(),
        kib: AtomicU32::new(0),
    });
    let request = request.map(|body| {
        Body::new(CountedBody {
            inner: body,
            taken: taken.clone(),
            received: 0,
        })
    });
    // The handler keeps what it read after the body is gone: the room is
    // given back when the answer is ready, not when the body ends.
    let response = next.run(request).await;
    drop((share, taken));
    response
}

fn refuse(error: ApiError) -> Response {
    error
        .with_retry_after(u64::from(RETRY_AFTER_SECS))
        .into_response()
}

/// The KiB of the room one request's body has taken, given back when the
/// request ends.
struct RoomTaken {
    room: Arc<Semaphore>,
    kib: AtomicU32,
}

impl RoomTaken {
    /// Takes the room for `received` bytes in all; false when it is full.
    fn cover(&self, received: u64) -> bool {
        let needed = u32::try_from(received.div_ceil(1024)).unwrap_or(u32::MAX);
        let held = self.kib.load(Ordering::SeqCst);
        if needed <= held {
            return true;
        }
        match self.room.try_acquire_many(needed - held) {
            Ok(permits) => {
                permits.forget();
                self.kib.store(needed, Ordering::SeqCst);
                true
            }
            Err(_) => false,
        }
    }
}

impl Drop for RoomTaken {
    fn drop(&mut self) {
        self.room.add_permits(*self.kib.get_mut() as usize);
    }
}

/// A body that takes room for its bytes as they arrive.
struct CountedBody {
    inner: Body,
    taken: Arc<RoomTaken>,
    received: u64,
}

impl hyper::body::Body for CountedBody {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        let frame = std::task::ready!(Pin::new(&mut this.inner).poll_frame(cx));
        if let Some(Ok(frame)) = &frame
            && let Some(data) = frame.data_ref()
        {
            this.received += data.len() as u64;
            if !this.taken.cover(this.received) {
                return Poll::Ready(Some(Err(axum::Error::new(RoomFull))));
            }
        }
        Poll::Ready(frame)
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
    use axum::body::Body;

    fn request(headers: &[(&str, &str)]) -> Request {
        let mut builder = axum::http::Request::post("/api/v1/analyses/face");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(Body::empty()).unwrap()
    }

    #[test]
    fn a_request_reserves_its_declared_size_and_chunked_ones_the_largest_body() {
        let budget = BodyBudget::new(64 * 1024 * 1024, 16 * 1024 * 1024, 11 * 1024 * 1024, false);
        assert_eq!(budget.reservation(&request(&[])), 0);
        assert_eq!(
            budget.reservation(&request(&[("content-length", "900")])),
            0
        );
        assert_eq!(
            budget.reservation(&request(&[("content-length", "1048576")])),
            1024
        );
        assert_eq!(
            budget.reservation(&request(&[("content-length", "999999999999")])),
            11 * 1024
        );
        assert_eq!(
            budget.reservation(&request(&[("transfer-encoding", "chunked")])),
            11 * 1024
        );
    }

    #[test]
    fn the_room_is_taken_by_the_bytes_received_and_given_back() {
        let room = Arc::new(Semaphore::new(100));
        let first = RoomTaken {
            room: room.clone(),
            kib: AtomicU32::new(0),
        };
        assert!(first.cover(1));
        assert!(first.cover(60 * 1024));
        assert_eq!(room.available_permits(), 40);
        let second = RoomTaken {
            room: room.clone(),
            kib: AtomicU32::new(0),
        };
        assert!(second.cover(40 * 1024));
        assert!(!second.cover(40 * 1024 + 1), "the room is full");
        drop((first, second));
        assert_eq!(room.available_permits(), 100);
    }

    #[test]
    fn one_address_holds_at_most_its_share_and_gives_it_back() {
        let mib = 1024 * 1024;
        let budget = BodyBudget::new(128 * mib, 32 * mib, 11 * mib, false);
        let first = budget.take_share("198.51.100.1".into(), 11 * 1024);
        let second = budget.take_share("198.51.100.1".into(), 11 * 1024);
        assert!(first.is_some() && second.is_some());
        assert!(
            budget
                .take_share("198.51.100.1".into(), 11 * 1024)
                .is_none(),
            "33 MiB > 32"
        );
        assert!(
            budget
                .take_share("198.51.100.2".into(), 11 * 1024)
                .is_some(),
            "another address"
        );
        drop(first);
        assert!(
            budget
                .take_share("198.51.100.1".into(), 11 * 1024)
                .is_some(),
            "given back"
        );
        drop(second);
    }

    #[test]
    fn a_share_is_never_less_than_one_upload_nor_more_than_the_room() {
        let mib = 1024 * 1024;
        assert_eq!(
            BodyBudget::new(128 * mib, mib, 11 * mib, false).share_kib,
            11 * 1024
        );
        assert_eq!(
            BodyBudget::new(4 * mib, 32 * mib, 11 * mib, false).share_kib,
            4 * 1024
        );
    }
}
