//! Serving connections: HTTP/1.1 with a header read timeout, so a client that
//! never finishes its headers (or idles on a kept-alive connection) is
//! closed; a pace for request bodies (idle timeout, minimum rate, deadline:
//! [`super::idle_body`]), so one that never sends its body, or trickles it,
//! is too; a cap on open connections, so a flood of them waits in the
//! kernel's accept queue instead of using up the file descriptors, of which
//! a part never receives a body ([`super::body_slots`]), so slow uploads
//! cannot keep health checks and reads out; a cap per client address (an
//! IPv6 client per /64), so one address cannot take every slot; and a
//! shutdown that drains before it stops (see [`serve`]).
//!
//! `axum::serve` does none of this (it gives hyper no timer, which disables
//! hyper's header timeout), hence this loop. HTTP/2 is left to the reverse
//! proxy.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use super::body_slots::BodySlots;
use super::error::ApiError;
use super::idle_body::{BodyPace, PacedBody};

/// How long an accept error (too many open files, say) pauses the loop.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(250);

#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Closes a connection whose request headers are not complete in time.
    pub header_read_timeout: Duration,
    /// How slow a request body may be.
    pub body_pace: BodyPace,
    /// Connections served at once.
    pub max_connections: usize,
    /// Of those, how many may be receiving a request body.
    pub max_body_connections: usize,
    /// Connections one peer address holds at once; `None` behind a trusted
    /// proxy, whose address every connection shares (the proxy caps them
    /// per client).
    pub max_connections_per_address: Option<usize>,
    /// After the stop signal, how long requests in flight may take before
    /// their connections are cut.
    pub shutdown_grace: Duration,
}

impl ConnectionLimits {
    pub fn from_config(config: &crate::config::Config) -> Self {
        let http = &config.http;
        Self {
            header_read_timeout: Duration::from_secs(http.header_read_timeout_secs.max(1)),
            body_pace: BodyPace {
                idle_timeout: Duration::from_secs(http.body_read_timeout_secs.max(1)),
                min_bytes_per_sec: http.min_body_bytes_per_sec,
                grace: Duration::from_secs(http.body_rate_grace_secs.max(1)),
                deadline_base: Duration::from_secs(http.body_deadline_base_secs.max(1)),
                deadline_bytes_per_sec: http.body_deadline_bytes_per_sec.max(1),
            },
            max_connections: http.max_connections.max(1),
            max_body_connections: http
                .max_connections
                .saturating_sub(http.connections_kept_for_requests_without_body)
                .max(1),
            max_connections_per_address: (!config.auth.trust_x_forwarded_for)
                .then_some(http.max_connections_per_address.max(1)),
            shutdown_grace: Duration::from_secs(http.shutdown_grace_secs),
        }
    }
}

/// Whether the instance is draining: told to stop, still serving, and
/// saying so on `/readyz` so that the load balancer sends its traffic
/// elsewhere. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Draining(Arc<AtomicBool>);

impl Draining {
    pub fn start(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_draining(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Open connections per peer address.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

/// What a peer is counted as: an IPv6 address by its /64 (one subscriber's
/// network hands out a whole /64, so each address in it is no new client),
/// an IPv4-mapped one as its IPv4 address.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !((1u128 << 64) - 1),
            )),
        },
    }
}

impl PerAddress {
    /// Counts a connection from `ip`, unless it holds `cap` already.
    fn admit(self: &Arc<Self>, ip: IpAddr, cap: usize) -> Option<AddressSlot> {
        let ip = address_key(ip);
        let mut open = self.0.lock().expect("connections per address lock");
        let count = open.entry(ip).or_default();
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            ip,
            all: self.clone(),
        })
    }
}

/// One connection's place in its address's count; dropping it frees it.
struct AddressSlot {
    ip: IpAddr,
    all: Arc<PerAddress>,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.all.0.lock().expect("connections per address lock");
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Tells an address over its connection cap so, if its socket takes the
/// answer at once (it is not waited for), and closes the connection.
fn refuse(stream: TcpStream) {
    const BODY: &str =
        r#"{"code":"rate_limited","message":"Too many open connections from your address."}"#;
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 10\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// Serves `router` on `listener` until `shutdown` resolves, then closes the
/// listener, asks every connection to finish its request in flight, and
/// returns when they have or `shutdown_grace` has passed, whichever is
/// first. Whoever resolves `shutdown` drains first: while `draining` is set,
/// every response carries `Connection: close`, so a proxy's kept-alive
/// connection is not reused and a request is never sent on a connection
/// about to close. Each request carries the peer address as
/// `ConnectInfo<SocketAddr>`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    draining: Draining,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let per_address = Arc::new(PerAddress::default());
    let body_slots = BodySlots::new(limits.max_body_connections);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    // Dropped to tell the connections to finish; `all_done` closes when the
    // last connection has dropped its receiver.
    let (stop, stop_rx) = watch::channel(());
    let (all_done, done_rx) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    if !is_connection_error(&err) {
                        tracing::error!(error = %err, "could not accept a connection");
                        tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let address_slot = match limits.max_connections_per_address {
            Some(cap) => match per_address.admit(peer.ip(), cap) {
                Some(slot) => Some(slot),
                None => {
                    refuse(stream);
                    continue;
                }
            },
            None => None,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let draining = draining.clone();
        let body_pace = limits.body_pace;
        let body_slots = body_slots.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(peer));
            // A request with a body needs one of the places kept for bodies.
            let slot = if hyper::body::Body::is_end_stream(request.body()) {
                None
            } else {
                match body_slots.admit() {
                    Some(slot) => Some(slot),
                    None => {
                        let mut busy = ApiError::server_busy().into_response();
                        // Its body is not read: the connection cannot be reused.
                        busy.headers_mut()
                            .insert(header::CONNECTION, HeaderValue::from_static("close"));
                        return futures::future::Either::Left(std::future::ready(Ok(busy)));
                    }
                }
            };
            let request = request.map(|body| {
                Body::new(PacedBody::new(
                    body,
                    body_pace,
                    super::BODY_LIMIT as u64,
                    slot,
                ))
            });
            let response = router.clone().oneshot(request);
            let draining = draining.clone();
            futures::future::Either::Right(async move {
                let mut response = response.await?;
                if draining.is_draining() {
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                Ok::<_, std::convert::Infallible>(response)
            })
        });
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop_rx = stop_rx.clone();
        let done_rx = done_rx.clone();
        tokio::spawn(async move {
            let mut connection = pin!(connection);
            let stopping = tokio::select! {
                _ = connection.as_mut() => false,
                _ = stop_rx.changed() => true,
            };
            if stopping {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
            drop(slot);
            drop(address_slot);
            drop(done_rx);
        });
    }
    drop(listener);
    drop(stop);
    drop(done_rx);
    if tokio::time::timeout(limits.shutdown_grace, all_done.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            connections = all_done.receiver_count(),
            grace_secs = limits.shutdown_grace.as_secs(),
            "requests still running after the shutdown grace period are cut"
        );
    }
    Ok(())
}

/// Errors of one connection, not of the listener (as `axum::serve` reads them).
fn is_connection_error(err: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        err.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let key = |ip: &str| address_key(ip.parse().unwrap());
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:192.0.2.7"), key("192.0.2.7"));
        assert_ne!(key("192.0.2.7"), key("192.0.2.8"));
    }

    #[test]
    fn a_64_holds_at_most_the_cap_of_one_address() {
        let all = Arc::new(PerAddress::default());
        let held: Vec<_> = (1..=3)
            .map(|n| all.admit(format!("2001:db8::{n}").parse().unwrap(), 3))
            .collect();
        assert!(held.iter().all(Option::is_some));
        assert!(all.admit("2001:db8::ffff".parse().unwrap(), 3).is_none());
        assert!(all.admit("2001:db8:0:1::1".parse().unwrap(), 3).is_some());
    }
}
