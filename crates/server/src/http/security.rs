//! Security headers on every response: a Content-Security-Policy the web app
//! and the API docs work under, no framing, no MIME sniffing, a referrer
//! policy, and HSTS when the app is served over https.

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

/// Scripts only from our own origin (Vite emits no inline script, nor does
/// Swagger UI's page); styles may be inline because Radix and sonner set
/// `style` attributes; images also from `data:` and `blob:` (canvas result
/// cards, Swagger UI's icons). No plugins, no `<base>` elsewhere, forms only
/// to us, and no page may frame ours (clickjacking).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
     connect-src 'self'; media-src 'self' blob:; worker-src 'self' blob:; object-src 'none'; \
     base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// A year, with subdomains: only sent when the public URL is https.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000; includeSubDomains";

/// The headers for one deployment: HSTS only when `public_url` is https (an
/// http deployment, or a local one, must stay reachable over http).
#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    headers: Vec<(HeaderName, HeaderValue)>,
}

impl SecurityHeaders {
    pub fn for_public_url(public_url: Option<&str>) -> Self {
        let mut headers = vec![
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CONTENT_SECURITY_POLICY),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            // Older browsers that ignore `frame-ancestors`.
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("strict-origin-when-cross-origin"),
            ),
        ];
        let https = public_url.is_some_and(|url| {
            url.get(..8)
                .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
        });
        if https {
            headers.push((
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
            ));
        }
        Self { headers }
    }

    /// Sets each header the response does not set itself.
    pub fn apply(&self, response: &mut HeaderMap) {
        for (name, value) in &self.headers {
            if !response.contains_key(name) {
                response.insert(name.clone(), value.clone());
            }
        }
    }
}

/// Middleware: the deployment's security headers on every response.
pub async fn add_headers(
    axum::extract::State(headers): axum::extract::State<SecurityHeaders>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let mut response = next.run(request).await;
    headers.apply(response.headers_mut());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsts_only_when_the_public_url_is_https() {
        let mut headers = HeaderMap::new();
        SecurityHeaders::for_public_url(Some("HTTPS://prettyscore.example")).apply(&mut headers);
        assert_eq!(
            headers[header::STRICT_TRANSPORT_SECURITY],
            STRICT_TRANSPORT_SECURITY
        );
        for url in [None, Some("http://localhost:8080"), Some("https")] {
            let mut headers = HeaderMap::new();
            SecurityHeaders::for_public_url(url).apply(&mut headers);
            assert!(
                !headers.contains_key(header::STRICT_TRANSPORT_SECURITY),
                "{url:?}"
            );
            assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        }
    }
}
