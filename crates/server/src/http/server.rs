//! Serving connections: HTTP/1.1 with a header read timeout, so a client that
//! never finishes its headers (or idles on a kept-alive connection) is
//! closed, and a cap on open connections, so a flood of them waits in the
//! kernel's accept queue instead of using up the file descriptors.
//!
//! `axum::serve` sets neither (it gives hyper no timer, which disables hyper's
//! header timeout), hence this loop. HTTP/2 is left to the reverse proxy.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

/// How long an accept error (too many open files, say) pauses the loop.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(250);

#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Closes a connection whose request headers are not complete in time.
    pub header_read_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
}

impl ConnectionLimits {
    pub fn from_config(config: &crate::config::HttpConfig) -> Self {
        Self {
            header_read_timeout: Duration::from_secs(config.header_read_timeout_secs.max(1)),
            max_connections: config.max_connections.max(1),
        }
    }
}

/// Serves `router` on `listener` until `shutdown` resolves, then lets the
/// requests in flight finish. Each request carries the peer address as
/// `ConnectInfo<SocketAddr>`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
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
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(peer));
            router.clone().oneshot(request.map(Body::new))
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
            drop(done_rx);
        });
    }
    drop(listener);
    drop(stop);
    drop(done_rx);
    all_done.closed().await;
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
