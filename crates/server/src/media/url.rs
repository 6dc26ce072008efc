//! Reading our own media URLs back: `/media/<key>?token=…`, relative or on
//! our own base URL, checked byte by byte so that no parser difference can
//! make the server read anything else.

/// The parts of one of our media URLs.
#[derive(Debug, PartialEq, Eq)]
pub struct MediaRef {
    pub key: String,
    /// The signature; still to be verified (`media::token_grants`).
    pub token: Option<String>,
}

/// Not one of our media URLs; the reason is for logs.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("refused media URL: {0}")]
pub struct MediaUrlError(pub &'static str);

/// `/media/<key>[?token=<token>]`, or the same on exactly our base URL.
///
/// The checks are on the raw text, not on a parsed URL, so that no difference
/// between our parser and anyone else's can be exploited: the string must
/// begin with `/media/` (or `<base_url>/media/`), the key must be plain path
/// segments (letters, digits, `-`, `_`, `.`; no `..`, no percent-encoding, no
/// backslashes), and the only query parameter allowed is `token`.
pub fn parse_media_url(url: &str, base_url: &str) -> Result<MediaRef, MediaUrlError> {
    if url
        .bytes()
        .any(|b| b.is_ascii_control() || b == b' ' || b == b'\\' || !b.is_ascii())
    {
        return Err(MediaUrlError("spaces, control characters or backslashes"));
    }
    let base = base_url.trim_end_matches('/');
    let path_and_query = if url.starts_with("/media/") {
        url
    } else if let Some(rest) = url.strip_prefix(base).filter(|_| !base.is_empty()) {
        // `http://our-host@evil/…` or `http://our-host.evil/…` leave a rest
        // that does not start with `/media/`.
        if !rest.starts_with("/media/") {
            return Err(MediaUrlError("not a media path on this server"));
        }
        rest
    } else {
        return Err(MediaUrlError("not a data URL or one of our media URLs"));
    };
    if path_and_query.contains('#') {
        return Err(MediaUrlError("a fragment"));
    }
    let (path, query) = match path_and_query.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (path_and_query, None),
    };
    let key = &path["/media/".len()..];
    if !crate::storage::is_valid_key(key) {
        return Err(MediaUrlError("a media key that is not plain path segments"));
    }
    let token = match query {
        None => None,
        Some(query) => {
            let token = query
                .strip_prefix("token=")
                .ok_or(MediaUrlError("a query other than the token"))?;
            let token_chars = !token.is_empty()
                && token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
            if !token_chars {
                return Err(MediaUrlError("a malformed token"));
            }
            Some(token.to_owned())
        }
    };
    Ok(MediaRef {
        key: key.to_owned(),
        token,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_urls_without_a_token_parse_for_callers_that_authorise_otherwise() {
        assert_eq!(
            parse_media_url("/media/photos/u/p/edits/e.jpg", "https://prettyscore.app"),
            Ok(MediaRef {
                key: "photos/u/p/edits/e.jpg".into(),
                token: None
            })
        );
    }
}
