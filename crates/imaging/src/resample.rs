//! A separable Lanczos-3 resampler for 8-bit RGB, streaming.
//!
//! Rows are first resampled horizontally into a small ring of f32 rows, then each
//! output row is a weighted sum of the ring's rows. Memory is the input, the output and
//! `taps` rows of the output width, never an intermediate image (image's `resize`
//! goes through a full f32 RGBA intermediate: 16 bytes a pixel). When reducing, the
//! kernel is widened by the reduction factor, so downscales are antialiased.

use crate::raster::RgbImage;

/// Lanczos window a = 3.
const A: f64 = 3.0;

fn sinc(x: f64) -> f64 {
    if x.abs() < 1e-9 {
        1.0
    } else {
        let px = std::f64::consts::PI * x;
        libm::sin(px) / px
    }
}

fn lanczos3(x: f64) -> f64 {
    if x.abs() >= A {
        0.0
    } else {
        sinc(x) * sinc(x / A)
    }
}

/// For each output position: the first input index and the weights of the contiguous
/// input indices from there (border taps folded onto the edge pixel, sum 1).
struct Taps {
    first: Vec<usize>,
    weights: Vec<Vec<f32>>,
    max_len: usize,
}

fn taps(in_len: usize, out_len: usize) -> Taps {
    let scale = out_len as f64 / in_len as f64;
    let stretch = (1.0 / scale).max(1.0);
    let support = A * stretch;
    let mut first = Vec::with_capacity(out_len);
    let mut weights = Vec::with_capacity(out_len);
    let mut max_len = 1;
    for o in 0..out_len {
        let centre = (o as f64 + 0.5) / scale - 0.5;
        let lo = (centre - support).floor() as isize + 1;
        let hi = (centre + support).ceil() as isize - 1;
        let clamp = |i: isize| i.clamp(0, in_len as isize - 1) as usize;
        let (start, end) = (clamp(lo), clamp(hi));
        let mut w = vec![0.0f64; end - start + 1];
        for i in lo..=hi {
            w[clamp(i) - start] += lanczos3((i as f64 - centre) / stretch);
        }
        let sum: f64 = w.iter().sum();
        first.push(start);
        max_len = max_len.max(w.len());
        weights.push(w.iter().map(|v| (v / sum) as f32).collect());
    }
    Taps {
        first,
        weights,
        max_len,
    }
}

/// `src` resampled to `out_w` x `out_h`.
pub fn resize(src: &RgbImage, out_w: u32, out_h: u32) -> RgbImage {
    let (in_w, in_h) = (src.width() as usize, src.height() as usize);
    let (ow, oh) = (out_w.max(1) as usize, out_h.max(1) as usize);
    if (in_w, in_h) == (ow, oh) {
        return src.clone();
    }
    let tx = taps(in_w, ow);
    let ty = taps(in_h, oh);
    let raw = src.as_raw();
    let row_len = ow * 3;
    // Ring of horizontally resampled input rows; slot i % cap holds input row `held`.
    let cap = ty.max_len;
    let mut ring = vec![0.0f32; cap * row_len];
    let mut held = vec![usize::MAX; cap];
    let mut out = vec![0u8; ow * oh * 3];
    let mut acc = vec![0.0f32; row_len];
    for oy in 0..oh {
        let (start, ws) = (ty.first[oy], &ty.weights[oy]);
        for iy in start..start + ws.len() {
            let slot = iy % cap;
            if held[slot] != iy {
                held[slot] = iy;
                let line = &raw[iy * in_w * 3..(iy + 1) * in_w * 3];
                let dst = &mut ring[slot * row_len..(slot + 1) * row_len];
                horizontal(line, dst, &tx);
            }
        }
        acc.fill(0.0);
        for (k, &wk) in ws.iter().enumerate() {
            let slot = (start + k) % cap;
            let r = &ring[slot * row_len..(slot + 1) * row_len];
            for (a, &v) in acc.iter_mut().zip(r) {
                *a += wk * v;
            }
        }
        for (o, &a) in out[oy * row_len..(oy + 1) * row_len].iter_mut().zip(&acc) {
            *o = (a + 0.5).clamp(0.0, 255.0) as u8;
        }
    }
    RgbImage::from_raw(ow as u32, oh as u32, out).expect("buffer sized to the output")
}

fn horizontal(line: &[u8], dst: &mut [f32], tx: &Taps) {
    for (ox, px) in dst.chunks_exact_mut(3).enumerate() {
        let start = tx.first[ox];
        let (mut r, mut g, mut b) = (0.0f32, 0.0f32, 0.0f32);
        for (k, &wk) in tx.weights[ox].iter().enumerate() {
            let i = (start + k) * 3;
            r += wk * line[i] as f32;
            g += wk * line[i + 1] as f32;
            b += wk * line[i + 2] as f32;
        }
        px[0] = r;
        px[1] = g;
        px[2] = b;
    }
}

/// Dimensions scaled by `factor`, rounded, at least 1.
pub fn scaled_dims(w: u32, h: u32, factor: f64) -> (u32, u32) {
    let s = |v: u32| ((v as f64 * factor).round() as u32).max(1);
    (s(w), s(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_one_and_identity_is_a_copy() {
        for (i, o) in [(10, 20), (20, 10), (7, 3840), (4000, 3840), (1, 5)] {
            let t = taps(i, o);
            for w in &t.weights {
                let s: f32 = w.iter().sum();
                assert!((s - 1.0).abs() < 1e-5);
            }
        }
        let img = RgbImage::from_fn(9, 7, |x, y| image::Rgb([x as u8 * 20, y as u8 * 30, 7]));
        assert_eq!(resize(&img, 9, 7), img);
    }

    #[test]
    fn flat_colour_stays_flat_and_sizes_are_exact() {
        let img = RgbImage::from_pixel(33, 17, image::Rgb([200, 100, 50]));
        for (w, h) in [(66, 34), (3840, 1978), (10, 5), (1, 1)] {
            let out = resize(&img, w, h);
            assert_eq!(out.dimensions(), (w, h));
            assert!(out.pixels().all(|p| p.0 == [200, 100, 50]));
        }
    }
}
