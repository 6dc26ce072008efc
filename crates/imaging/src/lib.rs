//! The PrettyScore photo edit engine.
//!
//! Pure and offline: every operation is a deterministic function of the input pixels
//! (no randomness, a fixed order of arithmetic), so the same photo and prompt always
//! give the same bytes. [`interpret`] maps a preset or a plain-language prompt to
//! [`Operation`]s; [`apply`] decodes a photo, runs them and encodes the result.
//!
//! Output is bounded: no image larger than [`MAX_LONG_SIDE`] on its long side leaves
//! the engine.

use serde::{Deserialize, Serialize};

/// The long side of "4K" (3840 x 2160), and the largest output the engine produces.
pub const MAX_LONG_SIDE: u32 = 3840;

/// One edit step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Operation {
    /// White balance, levels, local contrast, sharpening and noise reduction.
    Enhance,
    Upscale { target: UpscaleTarget },
    /// Edge-preserving skin smoothing inside the face region found by the analysis crate.
    Retouch,
    Background { backdrop: Backdrop },
    Style { style: Style },
    Adjust(Adjustments),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum UpscaleTarget {
    /// Twice the width and height (capped at [`MAX_LONG_SIDE`]).
    Double,
    /// [`MAX_LONG_SIDE`] on the long side.
    FourK,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Backdrop {
    Blur,
    Solid { rgb: [u8; 3] },
    Gradient { top: [u8; 3], bottom: [u8; 3] },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum Style {
    BlackAndWhite,
    Vintage,
    Warm,
    Cool,
    Cinematic,
    Vivid,
}

/// The editor's manual sliders.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Adjustments {
    /// Percent, 0 to 200; 100 leaves the image as it is.
    pub brightness: f32,
    /// Percent, 0 to 200; 100 leaves the image as it is.
    pub contrast: f32,
    /// Percent, 0 to 200; 100 leaves the image as it is.
    pub saturation: f32,
    /// Gaussian blur radius in pixels, 0 to 10 in steps of 0.1.
    pub blur_px: f32,
}

impl Default for Adjustments {
    fn default() -> Self {
        Self {
            brightness: 100.0,
            contrast: 100.0,
            saturation: 100.0,
            blur_px: 0.0,
        }
    }
}

/// A prompt the built-in engine cannot carry out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Unsupported {
    /// A sentence for the user that names what the engine can do.
    pub message: String,
}

/// Why an edit failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("not an image")]
    NotAnImage,
    #[error("image too large")]
    TooLarge,
    #[error("damaged image")]
    Corrupt,
}

impl EditError {
    /// A stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotAnImage => "not_an_image",
            Self::TooLarge => "too_large",
            Self::Corrupt => "corrupt_image",
        }
    }

    /// The message the user sees.
    pub fn user_message(&self) -> &'static str {
        match self {
            Self::NotAnImage => "Please upload an image file",
            Self::TooLarge => "File too large! Please upload an image under 10MB.",
            Self::Corrupt => "This image looks damaged. Please try another photo.",
        }
    }
}

/// An encoded edit result.
#[derive(Clone, Debug)]
pub struct Edited {
    /// JPEG bytes, no metadata.
    pub jpeg: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Maps a preset or a plain-language prompt to operations.
pub fn interpret(prompt: &str) -> Result<Vec<Operation>, Unsupported> {
    let _ = prompt;
    Err(Unsupported {
        message: "The edit engine is being built.".to_owned(),
    })
}

/// Decodes `bytes` (honouring EXIF orientation), applies `ops` in order and encodes
/// the result as JPEG.
pub fn apply(bytes: &[u8], ops: &[Operation]) -> Result<Edited, EditError> {
    let _ = (bytes, ops);
    Err(EditError::Corrupt)
}
