//! Serving connections: HTTP/1.1 with a header read timeout, so a client that
//! never finishes its headers (or idles on a kept-alive connection) is
//! closed; a body read timeout, so one that never sends its body is too; a
//! cap on open connections, so a flood of them waits in the kernel's accept
//! queue instead of using up the file descriptors, and a cap per client
//! address, so one address cannot take every slot; and a shutdown that
//! drains before it stops (see [`serve`]).
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
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use super::idle_body::IdleTimeoutBody;

/// How long an accept error (too many open files, say) pauses the loop.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(250);

#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Closes a connection whose request headers are not complete in time.
    pub header_read_timeout: Duration,
    /// Ends a request whose body sends nothing for this long.
    pub body_read_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
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
            body_read_timeout: Duration::from_secs(http.body_read_timeout_secs.max(1)),
            max_connections: http.max_connections.max(1),
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

impl PerAddress {
    /// Counts a connection from `ip`, unless it holds `cap` already.
    fn admit(self: &Arc<Self>, ip: IpAddr, cap: usize) -> Option<AddressSlot> {
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
        let body_timeout = limits.body_read_timeout;
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(peer));
            let request = request.map(|body| Body::new(IdleTimeoutBody::new(body, body_timeout)));
            let response = router.clone().oneshot(request);
            let draining = draining.clone();
            async move {
                let mut response = response.await?;
                if draining.is_draining() {
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                Ok::<_, std::convert::Infallible>(response)
            }
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
