//! A cap on the request bodies one instance buffers at once. Uploads are read
//! into memory (at most 10 MB each), so a hundred of them in parallel would
//! hold a gigabyte; each request with a body reserves its declared size here
//! *before* the body is read, and one that does not fit gets 503
//! `server_busy` with `Retry-After`, in the one error shape.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::error::{ApiError, ErrorCode};

/// Bodies this small are not counted: the connection cap bounds them.
const UNCOUNTED_BYTES: u64 = 64 * 1024;

/// What a busy instance tells the client to wait, in seconds.
pub const RETRY_AFTER_SECS: u32 = 5;

pub const BUSY: &str = "The server is busy with other uploads. Please try again in a few seconds.";

/// The room for bodies in flight, counted in KiB.
#[derive(Debug, Clone)]
pub struct BodyBudget {
    room: Arc<Semaphore>,
    total_kib: u32,
    /// The largest body a route accepts: what a body of unknown length
    /// (chunked) reserves.
    largest_body: u64,
}

impl BodyBudget {
    pub fn new(total_bytes: u64, largest_body: u64) -> Self {
        let total_kib = u32::try_from(total_bytes.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .clamp(1, Semaphore::MAX_PERMITS as u32);
        Self {
            room: Arc::new(Semaphore::new(total_kib as usize)),
            total_kib,
            largest_body,
        }
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

/// Reserves the request's body size for as long as its handler runs.
pub async fn reserve(State(budget): State<BodyBudget>, request: Request, next: Next) -> Response {
    let kib = budget.reservation(&request);
    if kib == 0 {
        return next.run(request).await;
    }
    let Ok(reserved) = budget.room.clone().try_acquire_many_owned(kib) else {
        return busy();
    };
    let response = next.run(request).await;
    drop(reserved);
    response
}

fn busy() -> Response {
    let mut response = ApiError::unavailable(ErrorCode::ServerBusy, BUSY).into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
    response
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
        let budget = BodyBudget::new(64 * 1024 * 1024, 11 * 1024 * 1024);
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
}
