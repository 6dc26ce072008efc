//! A cap on the request bodies one instance buffers at once. Uploads are read
//! into memory (at most 10 MB each), so a hundred of them in parallel would
//! hold a gigabyte; each request with a body reserves its declared size here
//! *before* the body is read, and one that does not fit gets 503
//! `server_busy` with `Retry-After`, in the one error shape. One client
//! address holds at most its share of the room (429 beyond it), so a few
//! slow uploads from one place cannot turn everyone else's away.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::error::{ApiError, ErrorCode};
use super::extract::{client_ip, rate_key};

/// Bodies this small are not counted: the connection cap bounds them.
const UNCOUNTED_BYTES: u64 = 64 * 1024;

/// What a busy instance tells the client to wait, in seconds.
pub const RETRY_AFTER_SECS: u32 = 5;

pub const BUSY: &str = "The server is busy with other uploads. Please try again in a few seconds.";

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

/// Reserves the request's body size, in the instance's room and in its
/// address's share, for as long as its handler runs.
pub async fn reserve(State(budget): State<BodyBudget>, request: Request, next: Next) -> Response {
    let kib = budget.reservation(&request);
    if kib == 0 {
        return next.run(request).await;
    }
    let Ok(reserved) = budget.room.clone().try_acquire_many_owned(kib) else {
        return refuse(ApiError::unavailable(ErrorCode::ServerBusy, BUSY));
    };
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
    let response = next.run(request).await;
    drop((share, reserved));
    response
}

fn refuse(error: ApiError) -> Response {
    error
        .with_retry_after(u64::from(RETRY_AFTER_SECS))
        .into_response()
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
