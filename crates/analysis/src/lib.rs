//! PrettyScore's photo analysis engine: pure, blocking, deterministic functions.
//!
//! * [`analyze_face`]: decode (EXIF orientation; JPEGs below 3840 px by zune-jpeg and
//!   halved once from 1920 px, larger ones DCT-scaled by jpeg-decoder) -> find the
//!   largest face (BlazeFace) -> 468-point Face Mesh on the face and on its mirror ->
//!   measures (symmetry, proportions, tilt, skin, exposure, sharpness) -> score.
//! * [`analyze_hands`]: palm detector -> 21 hand landmarks on the hand and on its mirror
//!   -> finger proportions and spread (3D), fingertip and skin texture, pose, sharpness,
//!   exposure -> score.
//! * [`analyze_pet`], [`analyze_feet`]: scores from measured image properties
//!   (sharpness, exposure, colourfulness, composition); feet first refuse what is not
//!   feet (too little bare smooth skin, fur, a face or a hand: `feet.rs`).
//! * [`screen_image`]: nsfwjs's MobileNetV2 classifier (Drawing, Hentai, Neutral, Porn,
//!   Sexy), with its input made as nsfwjs makes it, for screening before publication.
//! * [`segment_person`]: where the person is in a photo (MediaPipe selfie
//!   segmentation), for the edit engine's background edits.
//!
//! Every function is a pure function of the input bytes: the same bytes give
//! bit-identical results on every machine (no threads of its own, no randomness, fixed
//! order of arithmetic, portable maths from `libm`; see the README on zune-jpeg's run-time
//! SIMD choice and the pinned JPEG-pixel hash that guards it). Call them off the async
//! runtime.

mod body;
mod complete;
mod decode;
mod detect;
mod error;
mod face;
mod feet;
mod hands;
mod measures;
mod photo;
mod raster;
mod score;
mod screening;
mod segment;
#[doc(hidden)]
pub mod tflite;

pub use complete::{check_complete, jpeg_primary_len};
pub use decode::{MAX_PIXELS, MAX_UPLOAD_BYTES, exif_orientation, jpeg_pixels_to_rgb};
pub use error::{AnalysisError, IMAGE_INCOMPLETE, NOT_FEET};
pub use feet::FeetEvidence;
pub use hands::{HandMeasures, HandsAnalysis, HandsBreakdown, analyze_hands};
pub use measures::FaceMeasures;
pub use photo::{
    FeetAnalysis, FeetBreakdown, PetAnalysis, PhotoQualities, analyze_feet, analyze_pet,
    feet_evidence, feet_features,
};
pub use score::{
    FaceBreakdown, Tier, feet_label, hands_label, pet_title, rating_emoji, rating_label,
};
pub use screening::{SCREENING_SIDE, ScreeningScores, screen_image};
pub use segment::{PersonMask, segment_person};
pub use tflite::release_spare_buffers;

use serde::Serialize;

/// Below this eye distance (pixels of the original image) a face is too small to measure.
pub const MIN_EYE_DISTANCE_PX: f64 = 20.0;
/// Share of mesh landmarks allowed outside the image before a face counts as cut off.
const MAX_OUTSIDE_SHARE: f64 = 0.03;

/// A box in normalised coordinates (0..1 of the upright image's width and height).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NormBox {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl NormBox {
    /// The bounding box of `pts` (pixels of an `img_w` x `img_h` image), clipped to the
    /// image and normalised.
    pub(crate) fn around(pts: &[[f64; 2]], img_w: f64, img_h: f64) -> NormBox {
        let (x0, y0, x1, y1) = pts.iter().fold(
            (
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ),
            |(a, b, c, d), p| (a.min(p[0]), b.min(p[1]), c.max(p[0]), d.max(p[1])),
        );
        NormBox {
            x: (x0.max(0.0) / img_w) as f32,
            y: (y0.max(0.0) / img_h) as f32,
            width: ((x1.min(img_w) - x0.max(0.0)) / img_w) as f32,
            height: ((y1.min(img_h) - y0.max(0.0)) / img_h) as f32,
        }
    }
}

/// Named landmark positions for drawing (normalised coordinates).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct KeyPoints {
    pub right_eye: [f32; 2],
    pub left_eye: [f32; 2],
    pub nose_tip: [f32; 2],
    pub mouth_right: [f32; 2],
    pub mouth_left: [f32; 2],
    pub chin: [f32; 2],
    /// Top of the measured face (mid forehead).
    pub forehead: [f32; 2],
    /// Two points of the fitted facial midline (top and bottom of the face), for drawing
    /// the symmetry axis.
    pub midline: [[f32; 2]; 2],
}

/// The result of a face analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FaceAnalysis {
    /// 1.0 to 10.0, one decimal.
    pub score: f64,
    /// The spec's tier label, e.g. "Gorgeous".
    pub rating_label: &'static str,
    pub emoji: &'static str,
    pub tier: Tier,
    pub breakdown: FaceBreakdown,
    /// Size of the upright original image in pixels.
    pub image_width: u32,
    pub image_height: u32,
    pub face_box: NormBox,
    /// The 468 mesh landmarks (x, y), normalised to the upright image, in MediaPipe's
    /// canonical order.
    pub landmarks: Vec<[f32; 2]>,
    pub key_points: KeyPoints,
    pub measures: FaceMeasures,
}

/// Load and check the embedded models now rather than on the first analysis (a few
/// milliseconds; call it at server start-up).
pub fn warm_up() {
    let _ = face::models();
    hands::warm_up();
    segment::warm_up();
    screening::warm_up();
}

/// Analyse a face photo. Accepts JPEG, PNG, WebP, GIF and BMP up to
/// [`MAX_UPLOAD_BYTES`].
pub fn analyze_face(bytes: &[u8]) -> Result<FaceAnalysis, AnalysisError> {
    let decoded = decode::decode(bytes)?;
    let img_w = decoded.image.w as f64;
    let img_h = decoded.image.h as f64;
    let px_scale = decoded.original_size.0 as f64 / img_w;
    let pyr = raster::Pyramid::new(decoded.image);
    let det = face::detect(&pyr).ok_or(AnalysisError::NoFace)?;
    let roi = face::roi(&det);
    let mesh = face::mesh(&pyr, &roi);
    if mesh.presence < face::min_presence() {
        return Err(AnalysisError::NoFace);
    }
    let mirror = &face::models().mirror;
    let pts: Vec<[f64; 2]> = mesh
        .points
        .iter()
        .map(|p| [p[0] as f64, p[1] as f64])
        .collect();
    let outside = pts
        .iter()
        .filter(|p| p[0] < 0.0 || p[1] < 0.0 || p[0] > img_w || p[1] > img_h)
        .count();
    if outside as f64 > MAX_OUTSIDE_SHARE * pts.len() as f64 {
        return Err(AnalysisError::FaceTooSmall);
    }
    let (eye_d, geo) = measures::geometry(&pts, mirror);
    if eye_d * px_scale < MIN_EYE_DISTANCE_PX {
        return Err(AnalysisError::FaceTooSmall);
    }
    let photo = measures::photometry(&pyr, &pts);
    let m = measures::assemble(eye_d * px_scale, &geo, &photo);
    let (score, breakdown) = score::face_score(&m);

    let nx = |p: [f64; 2]| [(p[0] / img_w) as f32, (p[1] / img_h) as f32];
    let avg = |idx: &[usize]| {
        let mut s = [0.0, 0.0];
        for &i in idx {
            s[0] += pts[i][0];
            s[1] += pts[i][1];
        }
        nx([s[0] / idx.len() as f64, s[1] / idx.len() as f64])
    };
    let face_box = NormBox::around(&pts, img_w, img_h);
    let key_points = KeyPoints {
        right_eye: avg(&[33, 133, 159, 145]),
        left_eye: avg(&[263, 362, 386, 374]),
        nose_tip: avg(&[1]),
        mouth_right: avg(&[61]),
        mouth_left: avg(&[291]),
        chin: avg(&[152]),
        forehead: avg(&[10]),
        midline: [avg(&[10]), avg(&[152])],
    };
    let tier = Tier::of(score);
    Ok(FaceAnalysis {
        score,
        rating_label: tier.label(),
        emoji: tier.emoji(),
        tier,
        breakdown,
        image_width: decoded.original_size.0,
        image_height: decoded.original_size.1,
        face_box,
        landmarks: pts.iter().map(|&p| nx(p)).collect(),
        key_points,
        measures: m,
    })
}

#[doc(hidden)]
pub mod internals {
    //! Exposed for the examples that regenerate derived model data; not a stable API.
    pub use crate::decode::decode;
    pub use crate::face::derive_mirror_table;
    pub use crate::raster::Pyramid;
}
