//! Public answers that every anonymous reader shares: kept as their bytes
//! for a moment ([`super::recent_reads`]) and validated with an `ETag`, so a
//! page the whole community reads (the leaderboard) is read from the
//! database once a second, not once a request, and a reader who has it
//! already gets 304 without its body.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use bytes::Bytes;
use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// How long a browser or a shared cache may reuse an anonymous answer: the
/// same second the server keeps it for.
const PUBLIC_CACHE_CONTROL: &str = "public, max-age=1";
/// A signed-in reader's answer may hold their own marks: revalidate it.
const PRIVATE_CACHE_CONTROL: &str = "private, no-cache";

/// An answer's JSON, its validator and whose view of it differs.
#[derive(Clone)]
pub struct SharedAnswer {
    body: Bytes,
    etag: HeaderValue,
    /// Users who see this answer differently (their own entries marked):
    /// they get one made for them.
    personal_to: Arc<[Uuid]>,
}

impl SharedAnswer {
    pub fn json(value: &impl Serialize, personal_to: Vec<Uuid>) -> serde_json::Result<Self> {
        let body = Bytes::from(serde_json::to_vec(value)?);
        Ok(Self {
            etag: etag_of(&body),
            body,
            personal_to: personal_to.into(),
        })
    }

    /// Whether `reader` (None: anonymous) sees exactly this answer.
    pub fn serves(&self, reader: Option<Uuid>) -> bool {
        reader.is_none_or(|reader| !self.personal_to.contains(&reader))
    }

    /// 200 with the JSON, or 304 when the request's `If-None-Match` names it.
    pub fn respond(&self, request: &HeaderMap, anonymous: bool) -> Response {
        let fresh = request
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .any(|tag| tag == "*" || weakly_equal(tag, &self.etag));
        let mut response = if fresh {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            response
        } else {
            let mut response = Response::new(Body::from(self.body.clone()));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        };
        let headers = response.headers_mut();
        headers.insert(header::ETAG, self.etag.clone());
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(if anonymous {
                PUBLIC_CACHE_CONTROL
            } else {
                PRIVATE_CACHE_CONTROL
            }),
        );
        headers.insert(header::VARY, HeaderValue::from_static("Authorization"));
        response
    }
}

/// A weak validator (the body may be compressed on its way): `W/"<hash>"`.
fn etag_of(body: &[u8]) -> HeaderValue {
    let digest = Sha256::digest(body);
    let hex: String = digest[..12]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    HeaderValue::from_str(&format!("W/\"{hex}\"")).expect("hex is a valid header value")
}

/// RFC 9110's weak comparison: equal once the `W/` prefixes are dropped.
fn weakly_equal(tag: &str, etag: &HeaderValue) -> bool {
    let strip = |tag: &str| tag.strip_prefix("W/").unwrap_or(tag).to_owned();
    etag.to_str().is_ok_and(|etag| strip(tag) == strip(etag))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(if_none_match: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, if_none_match.parse().unwrap());
        headers
    }

    #[test]
    fn the_same_etag_is_304_and_another_is_the_body() {
        let answer = SharedAnswer::json(&serde_json::json!({"a": 1}), vec![]).unwrap();
        let first = answer.respond(&HeaderMap::new(), true);
        assert_eq!(first.status(), StatusCode::OK);
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with("W/\""), "{etag}");
        assert_eq!(first.headers()[header::CACHE_CONTROL], PUBLIC_CACHE_CONTROL);

        let again = answer.respond(&request(&etag), true);
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        // Without the weak prefix, and among others, it is the same tag.
        let bare = etag.trim_start_matches("W/");
        let listed = format!("\"other\", {bare}");
        assert_eq!(
            answer.respond(&request(&listed), false).status(),
            StatusCode::NOT_MODIFIED
        );

        let changed = SharedAnswer::json(&serde_json::json!({"a": 2}), vec![]).unwrap();
        let answered = changed.respond(&request(&etag), false);
        assert_eq!(answered.status(), StatusCode::OK);
        assert_eq!(
            answered.headers()[header::CACHE_CONTROL],
            PRIVATE_CACHE_CONTROL
        );
    }

    #[test]
    fn a_reader_named_in_the_answer_gets_their_own() {
        let owner = Uuid::new_v4();
        let answer = SharedAnswer::json(&1, vec![owner]).unwrap();
        assert!(answer.serves(None));
        assert!(answer.serves(Some(Uuid::new_v4())));
        assert!(!answer.serves(Some(owner)));
    }
}
