//! The PrettyScore photo edit engine.
//!
//! Pure and offline: every operation is a deterministic function of the input pixels
//! (no randomness, a fixed order of arithmetic), so the same photo and prompt always
//! give the same bytes. [`interpret`] maps a preset or a plain-language prompt to
//! [`Operation`]s; [`apply`] decodes a photo, runs them and encodes the result.
//!
//! Output is bounded: no image larger than [`MAX_LONG_SIDE`] on its long side leaves
//! the engine, and inputs larger than that are reduced to it as they are decoded, so
//! every operation works on at most 3840 x 3840 pixels (see the crate README for the
//! memory bound per edit).
//!
//! Modules, one concern each: `codec` decoding and encoding, `raster` and
//! `filter` the pixel planes and blurs, `resample` the Lanczos resampler, `face` and
//! `mask` the face and subject masks, `ops/*` one file per operation, `prompt` the
//! prompt interpreter.

mod codec;
mod face;
mod filter;
mod mask;
mod ops;
mod prompt;
mod raster;
mod resample;
#[cfg(test)]
mod tests;

pub use prompt::{CAPABILITIES, STUDIO_BACKDROP, WHITE_BACKDROP};

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
    Upscale {
        target: UpscaleTarget,
    },
    /// Edge-preserving skin smoothing inside the face region found by the analysis crate.
    Retouch,
    Background {
        backdrop: Backdrop,
    },
    Style {
        style: Style,
    },
    Adjust(Adjustments),
    /// Unsharp masking of the luminance (crisper detail, no colour shift).
    Sharpen,
    /// A gentle soft-focus glow: the photo blended with a blurred copy of itself.
    Soften,
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

/// The editor's manual sliders, with the semantics of the CSS filter functions the web
/// editor previews them with: `brightness(b%) contrast(c%) saturate(s%) blur(px)`,
/// applied in that order, each clamped to 0..1 like a browser does. Out-of-range values
/// are clamped (0 to 200, blur 0 to 10); a non-finite value counts as the default.
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
    /// A small file declaring more pixels (or a longer side) than is
    /// decoded: a pixel bomb, or a panorama out of reach.
    #[error("image dimensions out of range")]
    BadDimensions,
    /// Cut off (a dropped upload) or damaged.
    #[error("damaged or incomplete image")]
    Corrupt,
    /// A face-dependent edit (retouch) found no face to work on.
    #[error("no face found")]
    NoFace,
}

impl EditError {
    /// A stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotAnImage => "not_an_image",
            Self::TooLarge => "too_large",
            Self::BadDimensions => "bad_dimensions",
            Self::Corrupt => "image_incomplete",
            Self::NoFace => "no_face",
        }
    }

    /// The message the user sees.
    pub fn user_message(&self) -> &'static str {
        match self {
            Self::NotAnImage => "Please upload an image file",
            Self::TooLarge => "File too large! Please upload an image under 10MB.",
            // The analyses' words for the same refusal.
            Self::BadDimensions => {
                prettyscore_analysis::AnalysisError::BadDimensions(0, 0).user_message()
            }
            Self::Corrupt => prettyscore_analysis::IMAGE_INCOMPLETE,
            Self::NoFace => {
                "We couldn't find a face to retouch. Try a front-facing, well-lit photo."
            }
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
///
/// Every part of the prompt must be understood: a prompt that is only partly within the
/// engine's reach ("make my hair red and brighter") is refused as a whole rather than
/// half done, so a configured generative provider can take it instead. The operations
/// come back in the engine's canonical order (enhance, retouch, background, style,
/// adjust, sharpen, soften, upscale), whatever order the prompt named them in.
pub fn interpret(prompt: &str) -> Result<Vec<Operation>, Unsupported> {
    prompt::interpret(prompt)
}

/// Decodes `bytes` (honouring EXIF orientation), applies `ops` in order and encodes
/// the result as JPEG.
///
/// The upload is limited to [`prettyscore_analysis::MAX_UPLOAD_BYTES`] and
/// [`prettyscore_analysis::MAX_PIXELS`]; a photo longer than [`MAX_LONG_SIDE`] is
/// reduced to it first. Background edits find the person with
/// [`prettyscore_analysis::segment_person`]; retouch, and background edits whose network
/// finds no one, find the face with [`prettyscore_analysis::analyze_face`] on the
/// original bytes (at most once per call).
/// Blocking and CPU-bound (tens to hundreds of milliseconds): call it off the async
/// runtime.
pub fn apply(bytes: &[u8], ops: &[Operation]) -> Result<Edited, EditError> {
    let image = codec::decode(bytes)?;
    let mut faces = face::FaceLookup::new(bytes);
    let image = ops::run_all(image, ops, &mut faces)?;
    Ok(codec::encode(&image))
}

#[doc(hidden)]
pub mod internals {
    //! For the benchmark and the example that compare the background edits' network mask
    //! with the heuristic it replaced; not a stable API.
    use super::*;

    /// [`apply`] with one background operation whose subject mask is the heuristic
    /// fallback (face prior and colour model), never the segmentation network.
    pub fn background_with_heuristic_mask(
        bytes: &[u8],
        backdrop: Backdrop,
    ) -> Result<Edited, EditError> {
        let mut image = codec::decode(bytes)?;
        let mut faces = face::FaceLookup::new(bytes);
        let subject = mask::subject_heuristic(&image, faces.face());
        ops::background_behind(&mut image, backdrop, &subject);
        Ok(codec::encode(&image))
    }
}
