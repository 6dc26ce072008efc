//! Looks: per-pixel colour transforms, each a fixed formula (no lookup of the photo's
//! own statistics), so a style means the same thing on every photo.

use crate::Style;
use crate::raster::{LUMA, RgbImage, smoothstep, to_u8};

pub fn style(img: &mut RgbImage, style: Style) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    // Distance from the centre, 0 at the centre and 1 at the corners, for vignettes.
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let inv_r = 1.0 / (cx * cx + cy * cy).sqrt();
    for (i, px) in img.as_mut().chunks_exact_mut(3).enumerate() {
        let (x, y) = ((i % w) as f32 + 0.5, (i / w) as f32 + 0.5);
        let rgb = [
            px[0] as f32 / 255.0,
            px[1] as f32 / 255.0,
            px[2] as f32 / 255.0,
        ];
        let out = match style {
            Style::BlackAndWhite => black_and_white(rgb),
            Style::Vintage => {
                let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() * inv_r;
                vintage(rgb, d)
            }
            Style::Warm => warm(rgb),
            Style::Cool => cool(rgb),
            Style::Cinematic => cinematic(rgb),
            Style::Vivid => vivid(rgb),
        };
        for c in 0..3 {
            px[c] = to_u8(out[c]);
        }
    }
}

fn luma(c: [f32; 3]) -> f32 {
    LUMA[0] * c[0] + LUMA[1] * c[1] + LUMA[2] * c[2]
}

/// Colour pushed away from (s > 1) or towards (s < 1) its own luma.
fn saturate(c: [f32; 3], s: f32) -> [f32; 3] {
    let y = luma(c);
    c.map(|v| y + (v - y) * s)
}

/// S-curve around mid grey: 0 leaves the tone, 1 is a full smoothstep.
fn s_curve(v: f32, k: f32) -> f32 {
    let v = v.clamp(0.0, 1.0);
    v + k * (v * v * (3.0 - 2.0 * v) - v)
}

/// Rec. 709 luma with a gentle S-curve (a straight conversion looks flat); the same
/// value in all three channels, so no colour is left.
fn black_and_white(c: [f32; 3]) -> [f32; 3] {
    let y = s_curve(luma(c), 0.3);
    [y, y, y]
}

/// Half-strength sepia, faded blacks and whites, less saturation, a soft vignette.
fn vintage(c: [f32; 3], d: f32) -> [f32; 3] {
    let sepia = [
        0.393 * c[0] + 0.769 * c[1] + 0.189 * c[2],
        0.349 * c[0] + 0.686 * c[1] + 0.168 * c[2],
        0.272 * c[0] + 0.534 * c[1] + 0.131 * c[2],
    ];
    let mixed = [0, 1, 2].map(|i| c[i] + 0.5 * (sepia[i].min(1.0) - c[i]));
    let muted = saturate(mixed, 0.8);
    let vignette = 1.0 - 0.28 * smoothstep(0.45, 1.0, d);
    muted.map(|v| (0.07 + 0.86 * v.clamp(0.0, 1.0)) * vignette)
}

/// Warmer light: more red, less blue, a touch of green so skin does not turn pink.
fn warm(c: [f32; 3]) -> [f32; 3] {
    [c[0] * 1.08 + 0.02, c[1] * 1.02, c[2] * 0.86]
}

/// Cooler light: less red, more blue.
fn cool(c: [f32; 3]) -> [f32; 3] {
    [c[0] * 0.88, c[1] * 1.0, c[2] * 1.08 + 0.02]
}

/// The teal-and-orange grade: contrast, shadows towards teal, highlights and skin
/// towards orange, slightly muted overall.
fn cinematic(c: [f32; 3]) -> [f32; 3] {
    let y = luma(c);
    let contrasted = c.map(|v| s_curve(v, 0.35));
    let muted = saturate(contrasted, 0.9);
    let shadow = (1.0 - y).powi(2);
    let highlight = y * y;
    let teal = [-0.05, 0.015, 0.05];
    let orange = [0.06, 0.015, -0.05];
    [0, 1, 2].map(|i| muted[i] + shadow * teal[i] + highlight * orange[i])
}

/// Vibrance (muted colours gain the most, already-strong ones little, so skin does not
/// go orange) and a little contrast.
fn vivid(c: [f32; 3]) -> [f32; 3] {
    let max = c[0].max(c[1]).max(c[2]);
    let min = c[0].min(c[1]).min(c[2]);
    let sat = if max > 0.0 { (max - min) / max } else { 0.0 };
    let boosted = saturate(c, 1.15 + 0.35 * (1.0 - sat));
    boosted.map(|v| s_curve(v, 0.15))
}
