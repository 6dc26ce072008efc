//! Enhance: the one-tap "make it look better".
//!
//! 1. White balance: grey world, at 60 % strength and limited to +-15 % per channel, on
//!    pixels that are neither clipped nor near black (clipped pixels say nothing about
//!    the light; full strength would bleach warm indoor light and skin).
//! 2. Levels: the 0.4th and 99.6th percentiles stretched to black and white (at most 4x,
//!    so a nearly flat image is not turned into noise, and then kept where it was: a
//!    dark photo stays dark).
//!    Steps 1 and 2 are one lookup table per channel.
//! 3. Light noise reduction: a 3 x 3 self-guided filter on the luma.
//! 4. Local contrast ("clarity"): the luma's difference from a very wide blur (2 % of
//!    the long side, computed on a grid of about 400 px), added at 35 %, mostly in the
//!    midtones so shadows and highlights do not halo.
//! 5. Sharpening: unsharp mask of the luma, thresholded so flat areas stay clean.
//!
//! Steps 3 to 5 change the luma only and add the same amount to R, G and B, so colours
//! keep their hue. Memory: one f32 plane of the image size (the luma) plus band-sized
//! planes (steps 3 and 5 run in bands of 256 rows).

use crate::filter;
use crate::raster::{Plane, RgbImage, Upsampler, luma, to_u8_255};

pub fn enhance(img: &mut RgbImage) {
    if img.width() == 0 || img.height() == 0 {
        return;
    }
    let luts = tone_luts(img);
    for px in img.as_mut().chunks_exact_mut(3) {
        for c in 0..3 {
            px[c] = luts[c][px[c] as usize];
        }
    }
    detail(img);
}

/// The white-balance and levels lookup tables.
pub fn tone_luts(img: &RgbImage) -> [[u8; 256]; 3] {
    let mut hist = [[0u64; 256]; 3];
    let mut sums = [0u64; 3];
    let mut usable = 0u64;
    for px in img.as_raw().chunks_exact(3) {
        for c in 0..3 {
            hist[c][px[c] as usize] += 1;
        }
        let (lo, hi) = (px[0].min(px[1]).min(px[2]), px[0].max(px[1]).max(px[2]));
        if lo > 8 && hi < 247 {
            usable += 1;
            for c in 0..3 {
                sums[c] += px[c] as u64;
            }
        }
    }
    let total = img.as_raw().len() as u64 / 3;
    if usable * 100 < total {
        // Almost everything clipped: fall back to all pixels.
        for c in 0..3 {
            sums[c] = hist[c].iter().enumerate().map(|(v, &n)| v as u64 * n).sum();
        }
    }
    let means = sums.map(|s| s as f64 + 1.0);
    let grey = (means[0] + means[1] + means[2]) / 3.0;
    let gains = means.map(|m| (1.0 + 0.6 * (grey / m - 1.0)).clamp(0.85, 1.15));

    // Percentiles of all three channels after white balance.
    let mut combined = [0u64; 256];
    for c in 0..3 {
        for (v, &n) in hist[c].iter().enumerate() {
            combined[((v as f64 * gains[c]).round() as usize).min(255)] += n;
        }
    }
    let count = total * 3;
    let percentile = |q: f64| {
        let target = (q * count as f64) as u64;
        let mut acc = 0u64;
        for (v, &n) in combined.iter().enumerate() {
            acc += n;
            if acc > target {
                return v as f64;
            }
        }
        255.0
    };
    let (lo, hi) = (percentile(0.004), percentile(0.996));
    let range = (hi - lo).max(1.0);
    let stretch = (255.0 / range).clamp(1.0, 4.0);
    // Where the stretched range starts: 0 when it fills 0..255; when the 4x cap leaves
    // room, the room is shared as it was before, so a dark photo stays dark and a flat
    // black one stays black rather than turning mid grey.
    let start = if range < 255.0 {
        lo * (255.0 - range * stretch) / (255.0 - range)
    } else {
        0.0
    };
    let mut luts = [[0u8; 256]; 3];
    for (lut, gain) in luts.iter_mut().zip(gains) {
        for (v, out) in lut.iter_mut().enumerate() {
            *out = to_u8_255((start + (v as f64 * gain - lo) * stretch) as f32);
        }
    }
    luts
}

fn detail(img: &mut RgbImage) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let long = w.max(h);
    let mut y = Plane::luma_of(img);
    let mut scratch = Plane::new(1, 1);

    // 3. Noise: variance well under (2.5 %)^2 is smoothed; edges pass.
    filter::self_guided_banded(&mut y, 1, 0.025f32.powi(2));

    // 4. Clarity against a wide blur computed on a coarse grid.
    let factor = (long / 400).max(1);
    let mut base = y.reduced(factor);
    filter::gaussian(&mut base, 0.02 * long as f32 / factor as f32, &mut scratch);
    let up = Upsampler::new(w, base.w, factor);
    let (mut tmp, mut base_row) = (Vec::new(), vec![0.0f32; w]);
    for (yy, row) in y.data.chunks_exact_mut(w).enumerate() {
        up.row(&base, yy, &mut tmp, &mut base_row);
        for (v, &b) in row.iter_mut().zip(&base_row) {
            let midtones = 4.0 * *v * (1.0 - *v);
            *v += 0.35 * midtones * (*v - b);
        }
    }
    drop(base);

    // 5. Sharpen the result of 4, band by band, straight into the image.
    let threshold = 2.0 / 255.0;
    let sigma = (long as f32 / 2000.0).clamp(0.8, 1.6);
    let raw = img.as_mut();
    filter::gaussian_bands(&y, sigma, |y0, blurred| {
        let start = y0 * w;
        let pixels = raw[start * 3..(start + blurred.len()) * 3].chunks_exact_mut(3);
        for ((px, &v), &b) in pixels.zip(&y.data[start..]).zip(blurred) {
            let d = v - b;
            let sharpened = v + 0.45 * d * (d.abs() / threshold).min(1.0);
            let delta = (sharpened - luma(px)) * 255.0;
            for c in px.iter_mut() {
                *c = to_u8_255(*c as f32 + delta);
            }
        }
    });
}
