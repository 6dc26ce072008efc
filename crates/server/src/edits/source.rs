//! Where an edit's image comes from. Two kinds of `imageUrl` are read and
//! nothing else: a `data:image/…;base64,` URL, and one of this server's own
//! media URLs (`/media/<key>?token=…`, relative or on our own base URL), whose
//! object is read straight from storage once its signature checks out.
//!
//! Nothing is ever fetched over the network, so no address, port, redirect,
//! DNS or parser trick can make the server reach anything: a URL either is
//! one of those two shapes, checked byte by byte, or it is refused.

use data_encoding::{BASE64, BASE64_NOPAD};

use crate::media::{MediaRef, MediaUrlError, parse_media_url};

/// Largest image an edit reads (decoded), as for uploads.
pub const MAX_IMAGE_BYTES: usize = 10 * 1024 * 1024;

/// The longest base64 payload that can decode to [`MAX_IMAGE_BYTES`].
const MAX_BASE64_CHARS: usize = MAX_IMAGE_BYTES.div_ceil(3) * 4;

#[derive(Debug, PartialEq, Eq)]
pub enum ImageSource {
    /// The decoded bytes of a data URL.
    Inline(Vec<u8>),
    /// One of our media objects; the token still has to be verified.
    Media(MediaRef),
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// Not a data URL and not one of our media URLs; the reason is for logs.
    #[error("refused image URL: {0}")]
    NotAllowed(&'static str),
    #[error("the image is over 10 MB")]
    TooLarge,
    #[error("the data URL's image could not be decoded")]
    BadData,
}

impl From<MediaUrlError> for SourceError {
    fn from(err: MediaUrlError) -> Self {
        Self::NotAllowed(err.0)
    }
}

/// Sorts `image_url` into one of the two accepted kinds, or refuses it.
/// `base_url` is the address users reach this server at (`AppState::base_url`).
pub fn parse_image_url(image_url: &str, base_url: &str) -> Result<ImageSource, SourceError> {
    if starts_with_ignore_case(image_url, "data:") {
        return parse_data_url(image_url).map(ImageSource::Inline);
    }
    let media = parse_media_url(image_url, base_url)?;
    if media.token.is_none() {
        return Err(SourceError::NotAllowed("a media URL without its signature"));
    }
    Ok(ImageSource::Media(media))
}

/// `data:image/<type>[;param…];base64,<payload>` decoded, at most 10 MB.
pub fn parse_data_url(url: &str) -> Result<Vec<u8>, SourceError> {
    let rest = &url[5..];
    let (header, payload) = rest
        .split_once(',')
        .ok_or(SourceError::NotAllowed("a data URL without data"))?;
    let mut params = header.split(';');
    let media_type = params.next().unwrap_or_default();
    let is_image = starts_with_ignore_case(media_type, "image/")
        && media_type.len() > "image/".len()
        && media_type
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'+' | b'-'));
    if !is_image {
        return Err(SourceError::NotAllowed("a data URL that is not an image"));
    }
    if !params.any(|param| param.trim().eq_ignore_ascii_case("base64")) {
        return Err(SourceError::NotAllowed("a data URL that is not base64"));
    }
    if payload.len() > MAX_BASE64_CHARS + 4 {
        return Err(SourceError::TooLarge);
    }
    let bytes = BASE64
        .decode(payload.as_bytes())
        .or_else(|_| BASE64_NOPAD.decode(payload.as_bytes()))
        .map_err(|_| SourceError::BadData)?;
    if bytes.is_empty() {
        return Err(SourceError::BadData);
    }
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(SourceError::TooLarge);
    }
    Ok(bytes)
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://prettyscore.app";

    fn media(key: &str, token: Option<&str>) -> ImageSource {
        ImageSource::Media(MediaRef {
            key: key.to_owned(),
            token: token.map(str::to_owned),
        })
    }

    #[test]
    fn data_urls_of_images_are_decoded() {
        let url = format!("data:image/png;base64,{}", BASE64.encode(b"\x89PNG fake"));
        assert_eq!(
            parse_image_url(&url, BASE),
            Ok(ImageSource::Inline(b"\x89PNG fake".to_vec()))
        );
        let url = format!(
            "DATA:image/jpeg;name=a.jpg;base64,{}",
            BASE64_NOPAD.encode(b"jpeg!")
        );
        assert_eq!(
            parse_image_url(&url, BASE),
            Ok(ImageSource::Inline(b"jpeg!".to_vec()))
        );
    }

    #[test]
    fn data_urls_that_are_not_base64_images_are_refused() {
        for url in [
            "data:text/html;base64,PGgxPmhpPC9oMT4=",
            "data:image/png,rawbytes",
            "data:;base64,AAAA",
            "data:image/;base64,AAAA",
            "data:image/png;base64",
        ] {
            assert!(
                matches!(parse_image_url(url, BASE), Err(SourceError::NotAllowed(_))),
                "{url}"
            );
        }
        assert_eq!(
            parse_image_url("data:image/png;base64,!!!not base64", BASE),
            Err(SourceError::BadData)
        );
        assert_eq!(
            parse_image_url("data:image/png;base64,", BASE),
            Err(SourceError::BadData)
        );
    }

    #[test]
    fn data_urls_over_ten_megabytes_are_too_large() {
        let payload = BASE64.encode(&vec![0u8; MAX_IMAGE_BYTES + 1]);
        let url = format!("data:image/png;base64,{payload}");
        assert_eq!(parse_image_url(&url, BASE), Err(SourceError::TooLarge));
        let payload = BASE64.encode(&vec![0u8; MAX_IMAGE_BYTES]);
        let url = format!("data:image/png;base64,{payload}");
        assert!(
            matches!(parse_image_url(&url, BASE), Ok(ImageSource::Inline(b)) if b.len() == MAX_IMAGE_BYTES)
        );
    }

    #[test]
    fn our_media_urls_relative_or_on_our_base_url_are_accepted() {
        assert_eq!(
            parse_image_url("/media/photos/u/p/original.jpg?token=a.b-c_d", BASE),
            Ok(media("photos/u/p/original.jpg", Some("a.b-c_d")))
        );
        assert_eq!(
            parse_image_url(
                "https://prettyscore.app/media/tmp/edits/x.jpg?token=t",
                BASE
            ),
            Ok(media("tmp/edits/x.jpg", Some("t")))
        );
        assert_eq!(
            parse_image_url(
                "https://prettyscore.app/media/tmp/edits/x.jpg?token=t",
                "https://prettyscore.app/"
            ),
            Ok(media("tmp/edits/x.jpg", Some("t")))
        );
    }

    #[test]
    fn everything_else_is_refused_without_looking_it_up() {
        let refused = [
            "",
            "https://example.com/photo.jpg",
            "http://169.254.169.254/latest/meta-data/",
            "http://127.0.0.1:8080/media/a.jpg?token=t",
            "http://localhost/media/a.jpg?token=t",
            "http://[::1]/media/a.jpg?token=t",
            "http://0x7f000001/media/a.jpg?token=t",
            "file:///etc/passwd",
            "ftp://example.com/a.png",
            "gopher://127.0.0.1:6379/_INFO",
            "javascript:alert(1)",
            "//evil.example/media/a.jpg?token=t",
            "/\\evil.example/media/a.jpg?token=t",
            "https://prettyscore.app@evil.example/media/a.jpg?token=t",
            "https://prettyscore.app.evil.example/media/a.jpg?token=t",
            "https://evil.example/#https://prettyscore.app/media/a.jpg?token=t",
            "https://evil.example/?https://prettyscore.app/media/a.jpg?token=t",
            "http://prettyscore.app/media/a.jpg?token=t",
            "https://prettyscore.app:444/media/a.jpg?token=t",
            "/media/../secret?token=t",
            "/media/photos/%2e%2e/secret?token=t",
            "/media/photos%2Fa.jpg?token=t",
            "/media//a.jpg?token=t",
            "/media/a.jpg?token=t&redirect=https://evil.example",
            "/media/a.jpg?next=/x&token=t",
            "/media/a.jpg?token=t#frag",
            "/media/a.jpg?token=",
            "/media/a.jpg",
            " /media/a.jpg?token=t",
            "/media/a.jpg?token=t\n",
            "/api/v1/photos",
            "/MEDIA/a.jpg?token=t",
            "/media/",
        ];
        for url in refused {
            assert!(
                matches!(parse_image_url(url, BASE), Err(SourceError::NotAllowed(_))),
                "{url:?} should be refused, got {:?}",
                parse_image_url(url, BASE)
            );
        }
    }
}
