//! Detail: unsharp masking of the luminance (sharpen) and a soft-focus blend (soften).

use crate::filter;
use crate::raster::{Plane, Rect, RgbImage, to_u8_255};

/// Adds `amount` times the luma's high-pass (luma minus its Gaussian blur of `sigma`)
/// to every channel. Working on luma only sharpens without colour fringes; differences
/// under `threshold` (0..1) are faded out so flat areas and noise are not amplified.
/// Memory: one f32 plane (the luma) plus bands.
pub fn unsharp_luma(img: &mut RgbImage, sigma: f32, amount: f32, threshold: f32) {
    if amount == 0.0 || img.width() == 0 {
        return;
    }
    let w = img.width() as usize;
    let y = Plane::luma_of(img);
    let raw = img.as_mut();
    filter::gaussian_bands(&y, sigma, |y0, blurred| {
        let start = y0 * w;
        let pixels = raw[start * 3..(start + blurred.len()) * 3].chunks_exact_mut(3);
        for ((px, &v), &b) in pixels.zip(&y.data[start..]).zip(blurred) {
            let d = v - b;
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
    });
}

/// Sharpen, with a radius that grows with the photo so a 4K image gets the same look as
/// a phone-sized one.
pub fn sharpen(img: &mut RgbImage) {
    let long = img.width().max(img.height()) as f32;
    unsharp_luma(img, (long / 1500.0).clamp(1.0, 2.5), 0.8, 2.0 / 255.0);
}

/// Soft focus: each channel blended 45 % with a Gaussian blur of 0.4 % of the long side
/// (at least 1.5 px). Memory: one f32 plane plus bands.
pub fn soften(img: &mut RgbImage) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    let sigma = (w.max(h) as f32 * 0.004).max(1.5);
    blur_channels(img, sigma, |v, b| v + 0.45 * (b - v));
}

/// Each channel blurred with `sigma` (band by band) and combined with the original by
/// `mix(original, blurred)` (0..255 values). Memory: one f32 plane plus bands.
pub fn blur_channels(img: &mut RgbImage, sigma: f32, mix: impl Fn(f32, f32) -> f32) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let all = Rect { x: 0, y: 0, w, h };
    for c in 0..3 {
        let p = Plane::channel_of(img, c, all);
        let raw = img.as_mut();
        filter::gaussian_bands(&p, sigma, |y0, blurred| {
            let start = y0 * w;
            let pixels = raw[start * 3..(start + blurred.len()) * 3].chunks_exact_mut(3);
            for (px, &b) in pixels.zip(blurred) {
                px[c] = to_u8_255(mix(px[c] as f32, b * 255.0));
            }
        });
    }
}
