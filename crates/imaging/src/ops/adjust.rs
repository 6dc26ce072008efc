//! The manual sliders, with CSS filter semantics so the baked photo matches the web
//! editor's live preview (`filter: brightness() contrast() saturate() blur()`):
//!
//! * brightness(b): every channel times b;
//! * contrast(c): (v - 0.5) c + 0.5;
//! * saturate(s): the Filter Effects spec's saturate matrix (Rec. 709 luma weights);
//! * blur(r): a Gaussian with standard deviation r pixels (three box blurs from 2 px,
//!   as the browsers do).
//!
//! Applied in that order in 8-bit sRGB, each step clamped to 0..1, as Chromium does for
//! CSS filter functions. A slider at its default is skipped, so defaults are an exact
//! identity. Blur radii are pixels of the image being edited: the web editor previews a
//! scaled-down image, so it must scale its CSS radius by natural / displayed width (or
//! send the value scaled) for the two to match. Borders repeat the edge pixels, where a
//! browser fades them to transparent.

use crate::Adjustments;
use crate::raster::{RgbImage, to_u8};

/// Slider values clamped to their ranges, as factors (1 = unchanged) and a radius.
fn sanitised(a: &Adjustments) -> (f32, f32, f32, f32) {
    let pct = |v: f32| {
        if v.is_finite() {
            v.clamp(0.0, 200.0) / 100.0
        } else {
            1.0
        }
    };
    let blur = if a.blur_px.is_finite() {
        a.blur_px.clamp(0.0, 10.0)
    } else {
        0.0
    };
    (pct(a.brightness), pct(a.contrast), pct(a.saturation), blur)
}

pub fn adjust(img: &mut RgbImage, a: &Adjustments) {
    let (b, c, s, blur) = sanitised(a);
    if b != 1.0 || c != 1.0 || s != 1.0 {
        // The saturate matrix, from the Filter Effects spec.
        let m = [
            [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
            [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
            [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s],
        ];
        // Brightness and contrast act per channel: one table for both.
        let mut lut = [0.0f32; 256];
        for (v, out) in lut.iter_mut().enumerate() {
            let mut x = v as f32 / 255.0;
            if b != 1.0 {
                x = (x * b).clamp(0.0, 1.0);
            }
            if c != 1.0 {
                x = ((x - 0.5) * c + 0.5).clamp(0.0, 1.0);
            }
            *out = x;
        }
        for px in img.as_mut().chunks_exact_mut(3) {
            let v = [
                lut[px[0] as usize],
                lut[px[1] as usize],
                lut[px[2] as usize],
            ];
            if s != 1.0 {
                for (ch, row) in px.iter_mut().zip(&m) {
                    *ch = to_u8(row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
                }
            } else {
                for (ch, val) in px.iter_mut().zip(v) {
                    *ch = to_u8(val);
                }
            }
        }
    }
    if blur > 0.0 {
        super::detail::blur_channels(img, blur, |_, b| b);
    }
}
