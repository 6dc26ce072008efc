//! Operators that mostly move values: PAD, CONCATENATION and RESIZE_BILINEAR (RESHAPE
//! moves nothing and is left to the interpreter).

use super::super::arena::alloc_overwritten;

/// One axis of a bilinear resize: the source coordinate and its two neighbours, as
/// TFLite's reference kernel computes them.
fn resize_axis(i: usize, scale: f32, half_pixel: bool, len: usize) -> (f32, usize, usize) {
    let v = if half_pixel {
        (i as f32 + 0.5) * scale - 0.5
    } else {
        i as f32 * scale
    };
    let lo = (v.floor() as i64).max(0) as usize;
    let hi = (v.ceil() as i64).min(len as i64 - 1).max(0) as usize;
    (v, lo, hi)
}

/// TFLite's RESIZE_BILINEAR, with its reference kernel's formula (four weighted corners
/// summed in a fixed order).
pub(crate) fn resize_bilinear(
    src: &[f32],
    (ih, iw, c): (usize, usize, usize),
    (oh, ow, _): (usize, usize, usize),
    align_corners: bool,
    half_pixel: bool,
) -> Vec<f32> {
    let scale = |i: usize, o: usize| {
        if align_corners && o > 1 {
            (i - 1) as f32 / (o - 1) as f32
        } else {
            i as f32 / o as f32
        }
    };
    let (sy, sx) = (scale(ih, oh), scale(iw, ow));
    let cols: Vec<(f32, usize, usize)> = (0..ow)
        .map(|x| resize_axis(x, sx, half_pixel, iw))
        .collect();
    // Every output is written below.
    let mut out = alloc_overwritten(oh * ow * c);
    for y in 0..oh {
        let (fy, y0, y1) = resize_axis(y, sy, half_pixel, ih);
        let dy = fy - y0 as f32;
        for (x, &(fx, x0, x1)) in cols.iter().enumerate() {
            let dx = fx - x0 as f32;
            let (w00, w10) = ((1.0 - dy) * (1.0 - dx), dy * (1.0 - dx));
            let (w01, w11) = ((1.0 - dy) * dx, dy * dx);
            let p00 = &src[(y0 * iw + x0) * c..][..c];
            let p10 = &src[(y1 * iw + x0) * c..][..c];
            let p01 = &src[(y0 * iw + x1) * c..][..c];
            let p11 = &src[(y1 * iw + x1) * c..][..c];
            let o = &mut out[(y * ow + x) * c..][..c];
            for q in 0..c {
                o[q] = p00[q] * w00 + p10[q] * w10 + p01[q] * w01 + p11[q] * w11;
            }
        }
    }
    out
}

/// PAD: the input inside zeros, `pad` = (top, bottom, left, right, channels after).
pub(crate) fn zero_pad(
    src: &[f32],
    (ih, iw, ic): (usize, usize, usize),
    (oh, ow, oc): (usize, usize, usize),
    pad: &[usize; 5],
) -> Vec<f32> {
    // Every value is written below: zeros around the copied pixels.
    let mut out = alloc_overwritten(oh * ow * oc);
    for (r, orow) in out.chunks_exact_mut(ow * oc).enumerate() {
        if r < pad[0] || r >= pad[0] + ih {
            orow.fill(0.0);
            continue;
        }
        let srow = &src[(r - pad[0]) * iw * ic..(r - pad[0] + 1) * iw * ic];
        orow[..pad[2] * oc].fill(0.0);
        orow[(pad[2] + iw) * oc..].fill(0.0);
        for (d, sp) in orow[pad[2] * oc..(pad[2] + iw) * oc]
            .chunks_exact_mut(oc)
            .zip(srow.chunks_exact(ic))
        {
            d[..ic].copy_from_slice(sp);
            d[ic..].fill(0.0);
        }
    }
    out
}

/// CONCATENATION: `outer` blocks, each the inputs' chunks (`chunks[i]` values of
/// `srcs[i]`) in order.
pub(crate) fn concat(srcs: &[&[f32]], outer: usize, chunks: &[usize]) -> Vec<f32> {
    let mut out = Vec::with_capacity(outer * chunks.iter().sum::<usize>());
    for r in 0..outer {
        for (src, &wd) in srcs.iter().zip(chunks) {
            out.extend_from_slice(&src[r * wd..(r + 1) * wd]);
        }
    }
    out
}
