//! Stored photo images: EXIF and GPS removed before anything is written, and
//! read back only through short-lived signed URLs, since an `<img>` cannot
//! send the user's bearer token.

use std::io::Cursor;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use chrono::Utc;
use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits};
use prettyscore_analysis::{AnalysisError, MAX_PIXELS};
use serde::Deserialize;
use serde_json::json;

use crate::http::error::ApiError;
use crate::startup::AppState;

/// Stored originals keep up to this many pixels on the long side: enough for
/// a 4K screen and the editor, small enough to keep storage and edits cheap.
pub const MAX_STORED_SIDE: u32 = 4096;
const JPEG_QUALITY: u8 = 92;
/// How long a signed media URL works.
pub const URL_LIFETIME_SECS: i64 = 3600;
const MEDIA_AUDIENCE: &str = "prettyscore-media";

/// Decodes the upload, turns it upright (EXIF orientation), and re-encodes it
/// as a JPEG without any metadata: no EXIF, no GPS, no camera details.
pub fn prepare_for_storage(bytes: &[u8]) -> Result<Vec<u8>, AnalysisError> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| AnalysisError::NotAnImage)?;
    if reader.format().is_none() {
        return Err(AnalysisError::NotAnImage);
    }
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_PIXELS * 4 + (1 << 20));
    reader.limits(limits);
    let mut decoder = reader
        .into_decoder()
        .map_err(|err| AnalysisError::CorruptImage(err.to_string()))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(AnalysisError::BadDimensions(width, height));
    }
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder)
        .map_err(|err| AnalysisError::CorruptImage(err.to_string()))?;
    image.apply_orientation(orientation);
    if image.width().max(image.height()) > MAX_STORED_SIDE {
        image = image.resize(
            MAX_STORED_SIDE,
            MAX_STORED_SIDE,
            image::imageops::FilterType::Lanczos3,
        );
    }
    let rgb = image.to_rgb8();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(|err| AnalysisError::CorruptImage(err.to_string()))?;
    Ok(out)
}

/// The object key behind a media path (`/media/<key>`).
pub fn key_of(media_path: &str) -> Option<&str> {
    media_path.strip_prefix("/media/")
}

pub fn media_path(key: &str) -> String {
    format!("/media/{key}")
}

/// A URL that shows the object for the next hour, signed with the server's
/// token key (shared by every instance, rotated with it).
pub fn signed_url(state: &AppState, media_path: &str) -> String {
    let Some(key) = key_of(media_path) else {
        return media_path.to_owned();
    };
    let token = state.auth.keys.sign(&json!({
        "aud": MEDIA_AUDIENCE,
        "key": key,
        "exp": Utc::now().timestamp() + URL_LIFETIME_SECS,
    }));
    format!("{media_path}?token={token}")
}

#[derive(Deserialize)]
pub struct MediaQuery {
    token: Option<String>,
}

/// `GET /media/{key}`: the image, when the URL's signature and lifetime hold.
pub async fn serve(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(query): Query<MediaQuery>,
) -> Result<Response, ApiError> {
    let not_found = || ApiError::not_found("This image does not exist or its link has expired.");
    let token = query.token.ok_or_else(not_found)?;
    let claims = state
        .auth
        .keys
        .verify(&state.db, &token)
        .await
        .map_err(|_| not_found())?;
    if claims["aud"] != MEDIA_AUDIENCE || claims["key"] != key.as_str() {
        return Err(not_found());
    }
    let bytes = state
        .storage
        .get(&key)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(not_found)?;
    let mut response = Response::new(Body::from(bytes));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/jpeg"));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_with_text_chunk() -> Vec<u8> {
        let image =
            image::RgbImage::from_fn(64, 32, |x, y| image::Rgb([x as u8 * 4, y as u8 * 8, 90]));
        let mut bytes = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        bytes
    }

    /// A JPEG carrying an EXIF block with a GPS tag and orientation 6
    /// (rotate 90° clockwise to display).
    fn jpeg_with_exif_orientation_6() -> Vec<u8> {
        let image = image::RgbImage::from_fn(60, 20, |x, _| image::Rgb([x as u8 * 4, 0, 0]));
        let mut jpeg = Vec::new();
        JpegEncoder::new_with_quality(&mut jpeg, 90)
            .encode_image(&image)
            .unwrap();
        // TIFF little-endian header, IFD0 with Orientation (0x0112) = 6 and a
        // GPS IFD pointer (0x8825) to an empty GPS IFD.
        let mut tiff: Vec<u8> = b"II*\0\x08\0\0\0".to_vec();
        tiff.extend_from_slice(&2u16.to_le_bytes());
        tiff.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]);
        tiff.extend_from_slice(&[0x25, 0x88, 4, 0, 1, 0, 0, 0, 38, 0, 0, 0]);
        tiff.extend_from_slice(&0u32.to_le_bytes());
        tiff.extend_from_slice(&0u16.to_le_bytes());
        tiff.extend_from_slice(&0u32.to_le_bytes());
        let mut app1 = b"Exif\0\0".to_vec();
        app1.extend_from_slice(&tiff);
        let mut out = jpeg[..2].to_vec();
        out.extend_from_slice(&[0xFF, 0xE1]);
        out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
        out.extend_from_slice(&app1);
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    #[test]
    fn stored_images_have_no_exif_and_are_turned_upright() {
        let original = jpeg_with_exif_orientation_6();
        assert!(
            original.windows(6).any(|w| w == b"Exif\0\0"),
            "the fixture has EXIF"
        );
        let stored = prepare_for_storage(&original).unwrap();
        assert!(!stored.windows(4).any(|w| w == b"Exif"), "EXIF removed");
        let decoded = image::load_from_memory(&stored).unwrap();
        assert_eq!(
            (decoded.width(), decoded.height()),
            (20, 60),
            "rotated upright"
        );
    }

    #[test]
    fn other_formats_are_stored_as_jpeg() {
        let stored = prepare_for_storage(&png_with_text_chunk()).unwrap();
        assert_eq!(&stored[..3], &[0xFF, 0xD8, 0xFF]);
    }

    #[test]
    fn non_images_and_damaged_images_are_refused() {
        assert_eq!(
            prepare_for_storage(b"hello world"),
            Err(AnalysisError::NotAnImage)
        );
        let png = png_with_text_chunk();
        assert!(prepare_for_storage(&png[..png.len() / 2]).is_err());
    }
}
