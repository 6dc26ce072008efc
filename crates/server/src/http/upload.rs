//! Reading multipart uploads (analyses, saved photos): the `image` (at most
//! 10 MB, read in chunks so a larger one is refused without being buffered),
//! any further image fields a route names (a saved photo's `edited_image`)
//! and a few short text fields.

use std::collections::HashMap;

use axum::extract::Multipart;
use axum::extract::multipart::MultipartError;
use axum::http::StatusCode;
use bytes::{Bytes, BytesMut};
use prettyscore_analysis::MAX_UPLOAD_BYTES;

use crate::http::error::{ApiError, ErrorCode};

/// Longest accepted text field (display names, bios and flags are far shorter).
const MAX_TEXT_FIELD_BYTES: usize = 4 * 1024;

pub const TOO_LARGE: &str = "File too large! Please upload an image under 10MB.";
pub const NO_PHOTO: &str = "Please upload a photo first!";

/// The field every upload carries its photo in.
pub const IMAGE_FIELD: &str = "image";

#[derive(Debug, Default)]
pub struct UploadForm {
    pub image: Option<Bytes>,
    /// Further image fields the route asked for, by name.
    pub images: HashMap<String, Bytes>,
    pub text: HashMap<String, String>,
}

impl UploadForm {
    /// The image, or the spec's "no photo" message.
    pub fn require_image(&mut self) -> Result<Bytes, ApiError> {
        self.image
            .take()
            .filter(|bytes| !bytes.is_empty())
            .ok_or_else(|| ApiError::bad_request(ErrorCode::MissingImage, NO_PHOTO))
    }

    /// A further image field, if it was sent and is not empty.
    pub fn take_image(&mut self, name: &str) -> Option<Bytes> {
        self.images.remove(name).filter(|bytes| !bytes.is_empty())
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        self.text.get(name).map(String::as_str)
    }
}

pub fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::TooLarge,
        TOO_LARGE,
    )
}

/// Reads the `image` field and the named text fields; other fields are
/// ignored (a client-sent score, for instance, never reaches the server's logic).
pub async fn read_form(multipart: Multipart, text_fields: &[&str]) -> Result<UploadForm, ApiError> {
    read_form_with_images(multipart, &[], text_fields).await
}

/// [`read_form`] with further image fields (each at most 10 MB too).
pub async fn read_form_with_images(
    mut multipart: Multipart,
    image_fields: &[&str],
    text_fields: &[&str],
) -> Result<UploadForm, ApiError> {
    let mut form = UploadForm::default();
    while let Some(field) = multipart.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == IMAGE_FIELD || image_fields.contains(&name.as_str()) {
            let bytes = read_at_most(field, MAX_UPLOAD_BYTES)
                .await?
                .ok_or_else(too_large)?;
            if name == IMAGE_FIELD {
                form.image = Some(bytes);
            } else {
                form.images.insert(name, bytes);
            }
        } else if text_fields.contains(&name.as_str()) {
            let too_long = || {
                ApiError::bad_request(
                    ErrorCode::ValidationFailed,
                    format!("The field {name} is too long."),
                )
            };
            let bytes = read_at_most(field, MAX_TEXT_FIELD_BYTES)
                .await?
                .ok_or_else(too_long)?;
            let value = String::from_utf8(bytes.to_vec()).map_err(|_| {
                ApiError::bad_request(
                    ErrorCode::ValidationFailed,
                    format!("The field {name} is not text."),
                )
            })?;
            crate::values::text::check_text(name.clone(), &value)?;
            form.text.insert(name, value);
        }
    }
    Ok(form)
}

/// The field's bytes, or `None` as soon as they pass `limit` (the rest is
/// never buffered).
async fn read_at_most(
    mut field: axum::extract::multipart::Field<'_>,
    limit: usize,
) -> Result<Option<Bytes>, ApiError> {
    let mut buffer = BytesMut::new();
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        if buffer.len() + chunk.len() > limit {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk);
    }
    Ok(Some(buffer.freeze()))
}

fn multipart_error(err: MultipartError) -> ApiError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large().with_cause(err);
    }
    if crate::http::idle_body::is_stalled(&err) {
        return ApiError::body_stalled().with_cause(err);
    }
    if crate::http::busy::is_room_full(&err) {
        return ApiError::server_busy().with_cause(err);
    }
    ApiError::bad_request(
        ErrorCode::InvalidUpload,
        "The upload could not be read. Please choose the photo again.",
    )
    .with_cause(err)
}
