//! Background: blur it, or replace it with a solid colour or a vertical studio
//! gradient, behind the subject mask (see `mask` for how the mask is made: the selfie
//! segmentation network's person, refined along the photo's edges; when the network
//! finds no one, a heuristic from the face or the centre of the frame, so a pet or an
//! object in the middle of the frame still works, and nothing fails).
//!
//! The blur is a Gaussian of 1.2 % of the long side, normalised by the blurred
//! background weight (blur(image x (1 - mask)) / blur(1 - mask)), so the person's
//! colours do not bleed into the blurred background as a halo. It is computed on a grid
//! reduced by up to 8x (a wide blur has no fine detail to lose) and interpolated back,
//! which keeps it fast and small. The gradient is dithered with a fixed 4 x 4 Bayer
//! pattern so it does not band after JPEG encoding.
//! Memory: the mask at one byte a pixel, plus grids of at most 1/9 of the image.

use crate::Backdrop;
use crate::face::FaceLookup;
use crate::filter;
use crate::mask::{self, SubjectMask};
use crate::raster::{self, Plane, RgbImage, Upsampler, to_u8_255};

const BAYER4: [[f32; 4]; 4] = [
    [0.0, 8.0, 2.0, 10.0],
    [12.0, 4.0, 14.0, 6.0],
    [3.0, 11.0, 1.0, 9.0],
    [15.0, 7.0, 13.0, 5.0],
];

pub fn background(img: &mut RgbImage, backdrop: Backdrop, faces: &mut FaceLookup<'_>) {
    if img.width() == 0 || img.height() == 0 {
        return;
    }
    let subject = mask::subject(img, faces);
    background_behind(img, backdrop, &subject);
}

/// The background edit behind a given subject mask.
pub fn background_behind(img: &mut RgbImage, backdrop: Backdrop, subject: &SubjectMask) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    let alpha = subject.alpha_map(img);
    match backdrop {
        Backdrop::Blur => blur_behind(img, &alpha),
        Backdrop::Solid { rgb } => {
            let colour = rgb.map(|v| v as f32);
            composite(img, &alpha, |_, row| {
                row.iter_mut().for_each(|p| *p = colour)
            });
        }
        Backdrop::Gradient { top, bottom } => composite(img, &alpha, |y, row| {
            let t = (y as f32 + 0.5) / h as f32;
            let base = [0, 1, 2].map(|c| top[c] as f32 + (bottom[c] as f32 - top[c] as f32) * t);
            for (x, p) in row.iter_mut().enumerate() {
                let dither = (BAYER4[y % 4][x % 4] + 0.5) / 16.0 - 0.5;
                *p = base.map(|v| v + dither);
            }
        }),
    }
}

/// Replaces each pixel by alpha * pixel + (1 - alpha) * backdrop, the backdrop made a
/// row at a time (0..255 values) by `fill(y, row)`.
fn composite(img: &mut RgbImage, alpha: &[u8], mut fill: impl FnMut(usize, &mut [[f32; 3]])) {
    let w = img.width() as usize;
    let mut row = vec![[0.0f32; 3]; w];
    for (y, line) in img.as_mut().chunks_exact_mut(w * 3).enumerate() {
        let a_row = &alpha[y * w..(y + 1) * w];
        if a_row.iter().all(|&a| a == 255) {
            continue;
        }
        fill(y, &mut row);
        for ((px, &a), b) in line.chunks_exact_mut(3).zip(a_row).zip(&row) {
            if a == 255 {
                continue;
            }
            let a = a as f32 / 255.0;
            for c in 0..3 {
                px[c] = to_u8_255(px[c] as f32 * a + b[c] * (1.0 - a));
            }
        }
    }
}

fn blur_behind(img: &mut RgbImage, alpha: &[u8]) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let sigma = 0.012 * w.max(h) as f32;
    // Reduce so the remaining blur is at least 3 grid pixels.
    let factor = ((sigma / 3.0) as usize).clamp(1, 8);
    let [mut r, mut g, mut b, mut weight] =
        raster::reduce_rgb_weighted(img, factor, |i| 1.0 - alpha[i] as f32 / 255.0);
    let mut scratch = Plane::new(1, 1);
    let grid_sigma = sigma / factor as f32;
    for p in [&mut r, &mut g, &mut b, &mut weight] {
        filter::gaussian(p, grid_sigma, &mut scratch);
    }
    // Deep inside the person there is no background to average; the mask keeps the
    // person there anyway, so the floor only avoids dividing by zero.
    for p in [&mut r, &mut g, &mut b] {
        for (v, &wt) in p.data.iter_mut().zip(&weight.data) {
            *v = *v * 255.0 / wt.max(1e-3);
        }
    }
    let up = Upsampler::new(w, r.w, factor);
    let (mut tmp, mut rows) = (
        Vec::new(),
        [vec![0.0f32; w], vec![0.0f32; w], vec![0.0f32; w]],
    );
    composite(img, alpha, |y, row| {
        for (c, plane) in [&r, &g, &b].into_iter().enumerate() {
            up.row(plane, y, &mut tmp, &mut rows[c]);
        }
        for (x, p) in row.iter_mut().enumerate() {
            *p = [rows[0][x], rows[1][x], rows[2][x]];
        }
    });
    let _ = h;
}
