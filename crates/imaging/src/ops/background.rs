//! Background: blur it, or replace it with a solid colour or a vertical studio
//! gradient, behind the subject mask (see `mask` for how the mask is made; with no face
//! it falls back to a centre-weighted prior refined by colour, so a pet or an object in
//! the middle of the frame still works, and nothing fails).
//!
//! The blur is a Gaussian of 1.2 % of the long side, normalised by the blurred
//! background weight (blur(image x (1 - mask)) / blur(1 - mask)), so the person's
//! colours do not bleed into the blurred background as a halo. It is computed on a grid
//! reduced by up to 8x (a wide blur has no fine detail to lose) and interpolated back,
//! which keeps it fast and small. The gradient is dithered with a fixed 4 x 4 Bayer
//! pattern so it does not band after JPEG encoding.
//! Memory: the subject mask and blur grids (a few hundred kilobytes) plus, for the blur,
//! four f32 planes of the reduced grid.

use crate::Backdrop;
use crate::face::Face;
use crate::filter;
use crate::mask::{self, SubjectMask};
use crate::raster::{self, Plane, RgbImage, luma, to_u8_255};

const BAYER4: [[f32; 4]; 4] = [
    [0.0, 8.0, 2.0, 10.0],
    [12.0, 4.0, 14.0, 6.0],
    [3.0, 11.0, 1.0, 9.0],
    [15.0, 7.0, 13.0, 5.0],
];

pub fn background(img: &mut RgbImage, backdrop: Backdrop, face: Option<&Face>) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    let subject = mask::subject(img, face);
    match backdrop {
        Backdrop::Blur => blur_behind(img, &subject),
        Backdrop::Solid { rgb } => composite(img, &subject, |_, _| rgb.map(|v| v as f32)),
        Backdrop::Gradient { top, bottom } => composite(img, &subject, |x, y| {
            let t = (y as f32 + 0.5) / h as f32;
            let dither = (BAYER4[y % 4][x % 4] + 0.5) / 16.0 - 0.5;
            [0, 1, 2].map(|c| top[c] as f32 + (bottom[c] as f32 - top[c] as f32) * t + dither)
        }),
    }
}

/// Replaces each pixel by mask * pixel + (1 - mask) * backdrop(x, y) (0..255 values).
fn composite(
    img: &mut RgbImage,
    subject: &SubjectMask,
    backdrop: impl Fn(usize, usize) -> [f32; 3],
) {
    let w = img.width() as usize;
    for (i, px) in img.as_mut().chunks_exact_mut(3).enumerate() {
        let (x, y) = (i % w, i / w);
        let a = subject.alpha(x, y, luma(px));
        if a >= 1.0 {
            continue;
        }
        let b = backdrop(x, y);
        for c in 0..3 {
            px[c] = to_u8_255(px[c] as f32 * a + b[c] * (1.0 - a));
        }
    }
}

fn blur_behind(img: &mut RgbImage, subject: &SubjectMask) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let sigma = 0.012 * w.max(h) as f32;
    // Reduce so the remaining blur is at least 3 grid pixels.
    let factor = ((sigma / 3.0) as usize).clamp(1, 8);
    let raw = img.as_raw();
    let bg_weight = |x: usize, y: usize| {
        let i = (y * w + x) * 3;
        1.0 - subject.alpha(x, y, luma(&raw[i..i + 3]))
    };
    let mut weight = raster::reduce(w, h, factor, bg_weight);
    let mut scratch = Plane::new(1, 1);
    let grid_sigma = sigma / factor as f32;
    let mut channels: Vec<Plane> = (0..3)
        .map(|c| {
            let mut p = raster::reduce(w, h, factor, |x, y| {
                raw[(y * w + x) * 3 + c] as f32 * bg_weight(x, y)
            });
            filter::gaussian(&mut p, grid_sigma, &mut scratch);
            p
        })
        .collect();
    filter::gaussian(&mut weight, grid_sigma, &mut scratch);
    // Deep inside the person there is no background to average; the mask keeps the
    // person there anyway, so the floor only avoids dividing by zero.
    for p in channels.iter_mut() {
        for (v, &wt) in p.data.iter_mut().zip(&weight.data) {
            *v /= wt.max(1e-3);
        }
    }
    let f = factor as f32;
    composite(img, subject, |x, y| {
        let (gx, gy) = ((x as f32 + 0.5) / f, (y as f32 + 0.5) / f);
        [0, 1, 2].map(|c| channels[c].bilinear(gx, gy))
    });
}
