//! Detail: unsharp masking of the luminance (sharpen) and a soft-focus blend (soften).

use crate::filter;
use crate::raster::{Plane, Rect, RgbImage, luma, to_u8_255};

/// Adds `amount` times the luma's high-pass (luma minus its Gaussian blur of `sigma`)
/// to every channel. Working on luma only sharpens without colour fringes; differences
/// under `threshold` (0..1) are faded out so flat areas and noise are not amplified.
/// Memory: two f32 planes.
pub fn unsharp_luma(img: &mut RgbImage, sigma: f32, amount: f32, threshold: f32) {
    if amount == 0.0 || img.width() == 0 {
        return;
    }
    let mut blurred = Plane::luma_of(img);
    let mut scratch = Plane::new(1, 1);
    filter::gaussian(&mut blurred, sigma, &mut scratch);
    drop(scratch);
    for (px, &b) in img.as_mut().chunks_exact_mut(3).zip(&blurred.data) {
        let d = luma(px) - b;
        let gate = if threshold > 0.0 {
            (d.abs() / threshold).min(1.0)
        } else {
            1.0
        };
        let delta = amount * d * gate * 255.0;
        for c in px.iter_mut() {
            *c = to_u8_255(*c as f32 + delta);
        }
    }
}

/// Sharpen, with a radius that grows with the photo so a 4K image gets the same look as
/// a phone-sized one.
pub fn sharpen(img: &mut RgbImage) {
    let long = img.width().max(img.height()) as f32;
    unsharp_luma(img, (long / 1500.0).clamp(1.0, 2.5), 0.8, 2.0 / 255.0);
}

/// Soft focus: each channel blended 45 % with a Gaussian blur of 0.4 % of the long side
/// (at least 1.5 px). Memory: two f32 planes.
pub fn soften(img: &mut RgbImage) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    let sigma = (w.max(h) as f32 * 0.004).max(1.5);
    let all = Rect { x: 0, y: 0, w, h };
    let mut scratch = Plane::new(1, 1);
    for c in 0..3 {
        let mut p = Plane::channel_of(img, c, all);
        filter::gaussian(&mut p, sigma, &mut scratch);
        for (px, &b) in img.as_mut().chunks_exact_mut(3).zip(&p.data) {
            let v = px[c] as f32;
            px[c] = to_u8_255(v + 0.45 * (b * 255.0 - v));
        }
    }
}
