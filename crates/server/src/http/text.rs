//! The characters a request's address may carry: its path and query are
//! checked by [`crate::values::text`]'s rules before any handler runs.

use super::error::ApiError;
use crate::values::text::{TextError, check_line, check_text};

/// The percent-decoded path and query of a request URI.
pub fn check_uri(uri: &axum::http::Uri) -> Result<(), TextError> {
    let path = percent_decode(uri.path());
    check_line("the address", &path)?;
    if let Some(query) = uri.query() {
        for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
            check_line("a query parameter name", &key)?;
            check_text(key.into_owned(), &value)?;
        }
    }
    Ok(())
}

/// Middleware: refuses a request whose path or query carries a refused
/// character, before any handler (or query) runs. `/auth/v1` applies
/// [`check_uri`] itself, to answer in GoTrue's error shape.
pub async fn refuse_in_uri(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if !request.uri().path().starts_with("/auth/v1/")
        && let Err(err) = check_uri(request.uri())
    {
        return ApiError::from(err).into_response();
    }
    next.run(request).await
}

fn percent_decode(path: &str) -> String {
    // `form_urlencoded` would read `+` as a space, which is harmless here.
    url::form_urlencoded::parse(format!("p={}", path.replace('&', "%26")).as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::text::Problem;

    #[test]
    fn uris_are_checked_after_percent_decoding() {
        let uri: axum::http::Uri = "/api/v1/dev/outbox?email=a%00b".parse().unwrap();
        assert_eq!(check_uri(&uri).unwrap_err().problem, Problem::Control);
        let uri: axum::http::Uri = "/s/ab%E2%80%AEc".parse().unwrap();
        assert_eq!(check_uri(&uri).unwrap_err().problem, Problem::Bidi);
        let uri: axum::http::Uri = "/api/v1/photos?limit=10&q=caf%C3%A9".parse().unwrap();
        assert!(check_uri(&uri).is_ok());
    }
}
