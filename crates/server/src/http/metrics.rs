//! Request metrics for `/metrics`. The Prometheus recorder is process-wide (the
//! `metrics` facade allows one), so every app in a process shares it.

use std::sync::OnceLock;
use std::time::Instant;

use std::net::IpAddr;

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use subtle::ConstantTimeEq;

use crate::config::HttpConfig;

const DURATION_METRIC: &str = "http_request_duration_seconds";

pub fn recorder() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(DURATION_METRIC.to_owned()),
                    &[
                        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                    ],
                )
                .expect("the bucket list is not empty")
                .install_recorder()
                .expect("no other metrics recorder is installed")
        })
        .clone()
}

/// The method as a label: the standard ones by name, any other `OTHER`, so
/// made-up methods cannot add label values without end.
pub fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "OTHER",
    }
}

/// Whether a request may read `/metrics`: with a configured token, only one
/// that carries it; without one, only one from a loopback address that came
/// through no proxy (a proxy on the same machine connects from loopback too,
/// but adds `X-Forwarded-For` or `Forwarded`).
pub fn may_read(config: &HttpConfig, peer: Option<IpAddr>, headers: &HeaderMap) -> bool {
    match &config.metrics_token {
        Some(token) => {
            let given = headers
                .get(header::AUTHORIZATION)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.strip_prefix("Bearer "))
                .unwrap_or_default();
            !token.expose().is_empty()
                && bool::from(given.as_bytes().ct_eq(token.expose().as_bytes()))
        }
        None => {
            peer.is_some_and(|ip| ip.is_loopback())
                && !headers.contains_key("x-forwarded-for")
                && !headers.contains_key(header::FORWARDED)
        }
    }
}

/// Counts requests and their latency by method, route template and status.
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    // The route template, not the raw path, keeps label cardinality bounded.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let method = method_label(request.method()).to_owned();
    let response = next.run(request).await;
    let labels = [
        ("method", method),
        ("route", route),
        ("status", response.status().as_u16().to_string()),
    ];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!(DURATION_METRIC, &labels).record(started.elapsed().as_secs_f64());
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

    #[test]
    fn made_up_methods_share_one_label() {
        for method in ["FOO", "PROPFIND", "GETX"] {
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            assert_eq!(method_label(&method), "OTHER");
        }
        assert_eq!(method_label(&Method::PATCH), "PATCH");
    }

    #[test]
    fn metrics_go_to_loopback_without_a_proxy_or_to_the_token_holder() {
        let loopback = Some(IpAddr::from([127, 0, 0, 1]));
        let public = Some(IpAddr::from([203, 0, 113, 9]));
        let mut proxied = HeaderMap::new();
        proxied.insert("x-forwarded-for", "203.0.113.9".parse().unwrap());
        let open = HttpConfig::default();
        assert!(may_read(&open, loopback, &HeaderMap::new()));
        assert!(!may_read(&open, public, &HeaderMap::new()));
        assert!(!may_read(&open, loopback, &proxied));

        let with_token = HttpConfig {
            metrics_token: Some(Secret::new("scrape-me")),
            ..HttpConfig::default()
        };
        let mut bearer = HeaderMap::new();
        bearer.insert(header::AUTHORIZATION, "Bearer scrape-me".parse().unwrap());
        assert!(may_read(&with_token, public, &bearer));
        assert!(!may_read(&with_token, loopback, &HeaderMap::new()));
        let mut wrong = HeaderMap::new();
        wrong.insert(header::AUTHORIZATION, "Bearer scrape-m".parse().unwrap());
        assert!(!may_read(&with_token, loopback, &wrong));
    }
}
