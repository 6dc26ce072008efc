//! Upscale: Lanczos-3 resampling to 2x (capped at 3840 on the long side) or to exactly
//! 3840 on the long side, then a mild unsharp mask scaled to the enlargement, since
//! any interpolation softens edges by about the enlargement factor.

use super::detail::unsharp_luma;
use crate::raster::RgbImage;
use crate::{MAX_LONG_SIDE, UpscaleTarget, resample};

/// The output size for `target` from a `w` x `h` image.
pub fn target_dims(w: u32, h: u32, target: UpscaleTarget) -> (u32, u32) {
    let long = w.max(h).max(1) as f64;
    let cap = MAX_LONG_SIDE as f64 / long;
    let factor = match target {
        UpscaleTarget::Double => 2.0f64.min(cap),
        UpscaleTarget::FourK => cap,
    };
    let (nw, nh) = resample::scaled_dims(w, h, factor);
    (nw.min(MAX_LONG_SIDE), nh.min(MAX_LONG_SIDE))
}

pub fn upscale(img: &RgbImage, target: UpscaleTarget) -> RgbImage {
    let (w, h) = img.dimensions();
    let (nw, nh) = target_dims(w, h, target);
    if (nw, nh) == (w, h) {
        return img.clone();
    }
    let mut out = resample::resize(img, nw, nh);
    let factor = nw.max(nh) as f32 / w.max(h) as f32;
    if factor > 1.0 {
        let sigma = (0.6 * factor).clamp(0.8, 2.0);
        unsharp_luma(&mut out, sigma, 0.4, 1.5 / 255.0);
    }
    out
}
