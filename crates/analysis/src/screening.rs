//! Screening: how likely a photo is to be explicit, before it is made public.
//!
//! The classifier is nsfwjs 4.4.0's MobileNetV2 (MIT), converted to TFLite at development
//! time (`scripts/models/convert-nsfwjs-model.sh`). Its input is prepared as nsfwjs
//! prepares it (`NSFWJS.infer` in its `core.js`): the pixels as floats divided by 255,
//! then, unless the photo is already 224 x 224, `tf.image.resizeBilinear` to 224 x 224
//! with `alignCorners` true (and no half-pixel centres), computed here as TF.js's CPU
//! kernel computes it: in double precision, each value rounded to float32 at the end.
//! The answer is the softmax over its five classes. `scripts/screening-parity.sh` checks
//! the scores against nsfwjs itself, run in Node.
//!
//! The photo is decoded at full size (the reference samples the original pixels, so a
//! reduced decode would move the sample points), upright, alpha dropped as
//! `tf.browser.fromPixels` drops it.

use crate::error::AnalysisError;
use crate::raster::Rgb;
use crate::tflite::Model;
use serde::Serialize;
use std::sync::OnceLock;

const CLASSIFIER: &[u8] = include_bytes!("../../../models/nsfw_mobilenet_v2.tflite");

/// The classifier's input side.
pub const SCREENING_SIDE: usize = 224;

/// The classifier's five class probabilities (they sum to 1), in nsfwjs's class order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScreeningScores {
    /// A drawing or illustration that is safe to show.
    pub drawing: f32,
    /// Explicit drawings.
    pub hentai: f32,
    /// Safe photos.
    pub neutral: f32,
    /// Explicit photos.
    pub porn: f32,
    /// Suggestive, not explicit.
    pub sexy: f32,
}

impl ScreeningScores {
    /// nsfwjs's class names, in the model's output order.
    pub const CLASSES: [&'static str; 5] = ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"];

    /// The scores in the model's output order.
    pub fn as_array(&self) -> [f32; 5] {
        [
            self.drawing,
            self.hentai,
            self.neutral,
            self.porn,
            self.sexy,
        ]
    }

    /// The share the classifier gives to the three unsafe classes together.
    pub fn unsafe_share(&self) -> f32 {
        self.porn + self.hentai + self.sexy
    }

    /// The class with the highest probability (the first on a tie).
    pub fn top_class(&self) -> &'static str {
        let a = self.as_array();
        let mut best = 0;
        for (i, &v) in a.iter().enumerate() {
            if v > a[best] {
                best = i;
            }
        }
        Self::CLASSES[best]
    }
}

pub(crate) fn model() -> &'static Model {
    static M: OnceLock<Model> = OnceLock::new();
    M.get_or_init(|| Model::parse(CLASSIFIER).expect("the embedded screening model parses"))
}

/// Screen an upload: the classifier's scores for the photo. Accepts what the analyses
/// accept (JPEG, PNG, WebP, GIF, BMP up to [`crate::MAX_UPLOAD_BYTES`]) with the same
/// errors.
pub fn screen_image(bytes: &[u8]) -> Result<ScreeningScores, AnalysisError> {
    let image = crate::decode::decode_full(bytes)?;
    Ok(screen_rgb(&image))
}

/// The classifier's scores for an RGB image (what [`screen_image`] runs after decoding).
pub(crate) fn screen_rgb(image: &Rgb) -> ScreeningScores {
    let input = nsfwjs_input(image);
    let out = model().run(&input);
    let p = &out[0];
    ScreeningScores {
        drawing: p[0],
        hentai: p[1],
        neutral: p[2],
        porn: p[3],
        sexy: p[4],
    }
}

/// The classifier's 224 x 224 x 3 input, as nsfwjs computes it: `pixel / 255` in
/// float32, then TF.js's `resizeBilinear` with aligned corners.
pub(crate) fn nsfwjs_input(image: &Rgb) -> Vec<f32> {
    let (w, h) = (image.w, image.h);
    let norm = |x: usize, y: usize, c: usize| image.data[(y * w + x) * 3 + c] as f32 / 255.0;
    let side = SCREENING_SIDE;
    let mut out = Vec::with_capacity(side * side * 3);
    if (w, h) == (side, side) {
        out.extend(image.data.iter().map(|&v| v as f32 / 255.0));
        return out;
    }
    // TF.js (tfjs-backend-cpu, ResizeBilinear): with aligned corners the corner pixels
    // map onto each other, so the step is (old - 1) / (new - 1).
    let row_ratio = (h - 1) as f64 / (side - 1) as f64;
    let col_ratio = (w - 1) as f64 / (side - 1) as f64;
    let taps = |ratio: f64, i: usize, last: usize| {
        let frac = ratio * i as f64;
        let lo = frac.floor().max(0.0);
        (
            (lo as usize).min(last),
            (frac.ceil() as usize).min(last),
            frac - lo,
        )
    };
    let cols: Vec<(usize, usize, f64)> = (0..side).map(|c| taps(col_ratio, c, w - 1)).collect();
    for r in 0..side {
        let (top, bottom, row_frac) = taps(row_ratio, r, h - 1);
        for &(left, right, col_frac) in &cols {
            for c in 0..3 {
                let tl = norm(left, top, c) as f64;
                let tr = norm(right, top, c) as f64;
                let bl = norm(left, bottom, c) as f64;
                let br = norm(right, bottom, c) as f64;
                let t = tl + (tr - tl) * col_frac;
                let b = bl + (br - bl) * col_frac;
                out.push((t + (b - t) * row_frac) as f32);
            }
        }
    }
    out
}

/// Parse the model ahead of the first screening.
pub(crate) fn warm_up() {
    let _ = model();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Aligned corners: the four corners of the output are the photo's corners, and a
    /// photo twice as wide as the output minus one puts every output column on an even
    /// source column exactly.
    #[test]
    fn the_resize_keeps_the_corners_and_samples_as_tfjs_does() {
        let (w, h) = (2 * SCREENING_SIDE - 1, 300);
        let data: Vec<u8> = (0..w * h * 3).map(|i| ((i * 31) % 251) as u8).collect();
        let img = Rgb::new(w, h, data.clone());
        let v = nsfwjs_input(&img);
        assert_eq!(v.len(), SCREENING_SIDE * SCREENING_SIDE * 3);
        let px = |x: usize, y: usize, c: usize| data[(y * w + x) * 3 + c] as f32 / 255.0;
        let at = |x: usize, y: usize, c: usize| v[(y * SCREENING_SIDE + x) * 3 + c];
        let last = SCREENING_SIDE - 1;
        for c in 0..3 {
            assert_eq!(at(0, 0, c), px(0, 0, c));
            assert_eq!(at(last, 0, c), px(w - 1, 0, c));
            assert_eq!(at(0, last, c), px(0, h - 1, c));
            assert_eq!(at(last, last, c), px(w - 1, h - 1, c));
        }
        // Row 0, column 5 sits on source column 10 exactly.
        assert_eq!(at(5, 0, 1), px(10, 0, 1));
        // Between two source rows: the linear mix of the two.
        let frac = (h - 1) as f64 / last as f64;
        let (y0, f) = (frac.floor() as usize, frac - frac.floor());
        let want = px(0, y0, 2) as f64 + (px(0, y0 + 1, 2) as f64 - px(0, y0, 2) as f64) * f;
        assert_eq!(at(0, 1, 2), want as f32);
    }

    #[test]
    fn a_photo_of_the_input_size_is_only_normalised() {
        let n = SCREENING_SIDE * SCREENING_SIDE * 3;
        let data: Vec<u8> = (0..n).map(|i| (i % 256) as u8).collect();
        let v = nsfwjs_input(&Rgb::new(SCREENING_SIDE, SCREENING_SIDE, data));
        assert_eq!(v[255], 1.0);
        assert_eq!(v[51], 0.2);
    }

    #[test]
    fn the_scores_are_probabilities_in_the_model_order() {
        let img = Rgb::new(64, 48, vec![128; 64 * 48 * 3]);
        let s = screen_rgb(&img);
        let sum: f32 = s.as_array().iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "{sum}");
        assert!(s.as_array().iter().all(|p| (0.0..=1.0).contains(p)));
        assert_eq!(screen_rgb(&img), s, "deterministic");
    }
}
