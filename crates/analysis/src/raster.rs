//! A plain 8-bit RGB raster and the few deterministic resampling steps we need.

/// An RGB image, rows top to bottom, 3 bytes per pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    pub w: usize,
    pub h: usize,
    pub data: Vec<u8>,
}

impl Rgb {
    pub fn new(w: usize, h: usize, data: Vec<u8>) -> Self {
        debug_assert_eq!(data.len(), w * h * 3);
        Rgb { w, h, data }
    }

    /// Left-right mirror.
    pub fn mirrored(&self) -> Rgb {
        let mut out = vec![0u8; self.data.len()];
        for y in 0..self.h {
            for x in 0..self.w {
                let s = (y * self.w + x) * 3;
                let d = (y * self.w + (self.w - 1 - x)) * 3;
                out[d..d + 3].copy_from_slice(&self.data[s..s + 3]);
            }
        }
        Rgb::new(self.w, self.h, out)
    }

    /// Half size by 2x2 averaging (odd last row/column dropped).
    pub fn halved(&self) -> Rgb {
        let (w, h) = (self.w / 2, self.h / 2);
        let mut out = Vec::with_capacity(w * h * 3);
        if w == 0 {
            return Rgb::new(w, h, vec![0u8; w * h * 3]);
        }
        let stride = self.w * 3;
        #[cfg(target_arch = "x86_64")]
        let ssse3 = std::is_x86_feature_detected!("ssse3");
        // Two source rows at a time: first the vertical pair sums of every byte (a plain
        // loop that vectorises), then each output value from two neighbouring pixels'
        // sums: the same sums and rounding as averaging each 2x2 block channel by channel.
        let mut sums = vec![0u16; 2 * w * 3];
        for y in 0..h {
            let r0 = &self.data[2 * y * stride..][..2 * w * 3];
            let r1 = &self.data[(2 * y + 1) * stride..][..2 * w * 3];
            let mut done = 0;
            #[cfg(target_arch = "x86_64")]
            if ssse3 {
                // SAFETY: SSSE3 is present (checked above).
                done = unsafe { halve_rows_ssse3(r0, r1, &mut out) };
            }
            let (r0, r1) = (&r0[done * 6..], &r1[done * 6..]);
            let sums = &mut sums[..r0.len()];
            for ((s, &a), &b) in sums.iter_mut().zip(r0).zip(r1) {
                *s = a as u16 + b as u16;
            }
            for s in sums.chunks_exact(6) {
                out.extend_from_slice(&[
                    ((s[0] + s[3] + 2) / 4) as u8,
                    ((s[1] + s[4] + 2) / 4) as u8,
                    ((s[2] + s[5] + 2) / 4) as u8,
                ]);
            }
        }
        Rgb::new(w, h, out)
    }

    /// Apply an EXIF orientation (1..=8) so the image is upright.
    pub fn oriented(self, orientation: u16) -> Rgb {
        if !(2..=8).contains(&orientation) {
            return self;
        }
        let (w, h) = (self.w, self.h);
        let transposed = orientation >= 5;
        let (nw, nh) = if transposed { (h, w) } else { (w, h) };
        let mut out = vec![0u8; self.data.len()];
        for y in 0..nh {
            for x in 0..nw {
                // Source coordinates for output (x, y), per the EXIF definition.
                let (sx, sy) = match orientation {
                    2 => (w - 1 - x, y),
                    3 => (w - 1 - x, h - 1 - y),
                    4 => (x, h - 1 - y),
                    5 => (y, x),
                    6 => (y, h - 1 - x),
                    7 => (w - 1 - y, h - 1 - x),
                    _ => (w - 1 - y, x),
                };
                let s = (sy * w + sx) * 3;
                let d = (y * nw + x) * 3;
                out[d..d + 3].copy_from_slice(&self.data[s..s + 3]);
            }
        }
        Rgb::new(nw, nh, out)
    }
}

/// The 2x2 averages of two source rows, eight output pixels (48 source bytes per row)
/// at a time, appended to `out`; returns how many output pixels it wrote (the rest are
/// left to the caller). The same integer arithmetic as `Rgb::halved`'s loops: each output
/// value is `(a + b + c + d + 2) >> 2` of its four bytes, in 16-bit lanes (at most 1022,
/// no overflow), packed back to bytes (at most 255, so the saturation never applies).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn halve_rows_ssse3(r0: &[u8], r1: &[u8], out: &mut Vec<u8>) -> usize {
    use std::arch::x86_64::*;
    debug_assert_eq!(r0.len(), r1.len());
    let blocks = r0.len() / 48;
    // Output byte j of a block is u[6 * (j / 3) + j % 3], where u[i] = (s[i] + s[i + 3]
    // + 2) >> 2 and s are the vertical sums; u comes in three 16-byte registers.
    const fn mask(first: usize, reg: usize) -> [i8; 16] {
        let mut m = [-1i8; 16];
        let mut j = 0;
        while j < 16 {
            let i = 6 * ((first + j) / 3) + (first + j) % 3;
            if (first + j) < 24 && i / 16 == reg {
                m[j] = (i % 16) as i8;
            }
            j += 1;
        }
        m
    }
    const M00: [i8; 16] = mask(0, 0);
    const M01: [i8; 16] = mask(0, 1);
    const M11: [i8; 16] = mask(16, 1);
    const M12: [i8; 16] = mask(16, 2);
    out.reserve(blocks * 24);
    // SAFETY (all below): loads stay within the 48 * blocks bytes of each row, stores
    // within the reserved spare capacity (16 + 8 bytes per block); the length is set
    // after the bytes are written.
    unsafe {
        let (m00, m01) = (
            _mm_loadu_si128(M00.as_ptr().cast()),
            _mm_loadu_si128(M01.as_ptr().cast()),
        );
        let (m11, m12) = (
            _mm_loadu_si128(M11.as_ptr().cast()),
            _mm_loadu_si128(M12.as_ptr().cast()),
        );
        let zero = _mm_setzero_si128();
        let two = _mm_set1_epi16(2);
        let mut dst = out.as_mut_ptr().add(out.len());
        for b in 0..blocks {
            let (p0, p1) = (r0.as_ptr().add(48 * b), r1.as_ptr().add(48 * b));
            let mut s = [zero; 7];
            for k in 0..3 {
                let a = _mm_loadu_si128(p0.add(16 * k).cast());
                let c = _mm_loadu_si128(p1.add(16 * k).cast());
                s[2 * k] = _mm_add_epi16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(c, zero));
                s[2 * k + 1] =
                    _mm_add_epi16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(c, zero));
            }
            let mut u = [zero; 6];
            for k in 0..6 {
                // s[i] + s[i + 3] for the eight lanes of register k.
                let t = _mm_add_epi16(s[k], _mm_alignr_epi8::<6>(s[k + 1], s[k]));
                u[k] = _mm_srli_epi16::<2>(_mm_add_epi16(t, two));
            }
            let q0 = _mm_packus_epi16(u[0], u[1]);
            let q1 = _mm_packus_epi16(u[2], u[3]);
            let q2 = _mm_packus_epi16(u[4], u[5]);
            let lo = _mm_or_si128(_mm_shuffle_epi8(q0, m00), _mm_shuffle_epi8(q1, m01));
            let hi = _mm_or_si128(_mm_shuffle_epi8(q1, m11), _mm_shuffle_epi8(q2, m12));
            _mm_storeu_si128(dst.cast(), lo);
            _mm_storel_epi64(dst.add(16).cast(), hi);
            dst = dst.add(24);
        }
        out.set_len(out.len() + blocks * 24);
    }
    blocks * 8
}

/// A pyramid of 2x2-averaged levels, so sampling at any scale reads from a level no
/// more than twice the needed resolution (no aliasing from bilinear reads).
pub struct Pyramid {
    pub levels: Vec<Rgb>,
}

impl Pyramid {
    pub fn new(base: Rgb) -> Self {
        let mut levels = vec![base];
        loop {
            let last = levels.last().expect("one level");
            if last.w < 64 || last.h < 64 {
                break;
            }
            let next = last.halved();
            levels.push(next);
        }
        Pyramid { levels }
    }

    pub fn base(&self) -> &Rgb {
        &self.levels[0]
    }

    /// Sample an `out_w` x `out_h` image through an affine map from output pixel centres
    /// to base-image coordinates: `src = origin + ox * ux + oy * uy` where `ux`, `uy` are
    /// the base-image steps for one output pixel. Outside the image reads as black.
    /// Returns planar-interleaved f32 RGB in 0..255.
    pub fn warp(
        &self,
        out_w: usize,
        out_h: usize,
        origin: [f32; 2],
        ux: [f32; 2],
        uy: [f32; 2],
    ) -> Vec<f32> {
        // Pick the level whose pixel is no smaller than half an output pixel.
        let step = libm::sqrtf(ux[0] * ux[0] + ux[1] * ux[1])
            .max(libm::sqrtf(uy[0] * uy[0] + uy[1] * uy[1]));
        let mut lvl = 0;
        while lvl + 1 < self.levels.len() && (1u32 << (lvl + 1)) as f32 <= step {
            lvl += 1;
        }
        let img = &self.levels[lvl];
        let s = (1u32 << lvl) as f32;
        let mut out = vec![0f32; out_w * out_h * 3];
        // The same arithmetic as `origin + fx * ux + fy * uy` per pixel, in the same
        // order, with the per-column and per-row products computed once.
        let cols: Vec<[f32; 2]> = (0..out_w)
            .map(|ox| {
                let fx = ox as f32 + 0.5;
                [fx * ux[0], fx * ux[1]]
            })
            .collect();
        if out_w == 0 {
            return out;
        }
        #[cfg(target_arch = "x86_64")]
        let (cx, cy): (Vec<f32>, Vec<f32>) = cols.iter().map(|c| (c[0], c[1])).unzip();
        for (oy, orow) in out.chunks_exact_mut(out_w * 3).enumerate() {
            let fy = oy as f32 + 0.5;
            let (ry0, ry1) = (fy * uy[0], fy * uy[1]);
            // SAFETY: SSE2 is part of x86_64.
            #[cfg(target_arch = "x86_64")]
            let done = unsafe { warp_row_sse2(img, s, origin, [ry0, ry1], &cx, &cy, orow) };
            #[cfg(not(target_arch = "x86_64"))]
            let done = 0;
            for (o, c) in orow.chunks_exact_mut(3).zip(&cols).skip(done) {
                // Base coordinates of this output pixel centre, then level coordinates.
                let bx = origin[0] + c[0] + ry0;
                let by = origin[1] + c[1] + ry1;
                let lx = bx / s - 0.5;
                let ly = by / s - 0.5;
                let px = sample(img, lx, ly);
                o[0] = px[0];
                o[1] = px[1];
                o[2] = px[2];
            }
        }
        out
    }
}

/// One output row of `Pyramid::warp`, four pixels at a time; returns how many leading
/// pixels it wrote (the caller does the rest). Bit-identical to the scalar loop: the
/// coordinates, `floor`, the weights and the four products per channel are the same IEEE
/// single-precision operations in the same order (SSE2 without FMA, so nothing is fused),
/// and a group of four with any neighbour outside the image (or a coordinate outside
/// `i32`, which SSE2's truncation would map differently from `as i32`) goes through
/// `sample` pixel by pixel.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn warp_row_sse2(
    img: &Rgb,
    s: f32,
    origin: [f32; 2],
    [ry0, ry1]: [f32; 2],
    cx: &[f32],
    cy: &[f32],
    orow: &mut [f32],
) -> usize {
    use std::arch::x86_64::*;
    let n = cx.len().min(cy.len()).min(orow.len() / 3);
    let groups = n / 4;
    let len = img.data.len();
    // SAFETY: only SSE2 intrinsics (always present on x86_64); loads of `cx`/`cy` stay
    // within `4 * groups <= n`, and so do the writes to `orow` (`3 * n` values); byte
    // reads are checked against `len` below.
    unsafe {
        let (ox, oyv) = (_mm_set1_ps(origin[0]), _mm_set1_ps(origin[1]));
        let (rx, ryv) = (_mm_set1_ps(ry0), _mm_set1_ps(ry1));
        let (sv, half, one) = (_mm_set1_ps(s), _mm_set1_ps(0.5), _mm_set1_ps(1.0));
        let (wlim, hlim) = (
            _mm_set1_epi32(img.w as i32 - 1),
            _mm_set1_epi32(img.h as i32 - 1),
        );
        let minus1 = _mm_set1_epi32(-1);
        let zero = _mm_setzero_si128();
        let data = img.data.as_ptr();
        for g in 0..groups {
            let i = 4 * g;
            let bx = _mm_add_ps(_mm_add_ps(ox, _mm_loadu_ps(cx.as_ptr().add(i))), rx);
            let by = _mm_add_ps(_mm_add_ps(oyv, _mm_loadu_ps(cy.as_ptr().add(i))), ryv);
            let lx = _mm_sub_ps(_mm_div_ps(bx, sv), half);
            let ly = _mm_sub_ps(_mm_div_ps(by, sv), half);
            // floor: truncate, and one less where the truncation went up.
            let (tx, ty) = (_mm_cvttps_epi32(lx), _mm_cvttps_epi32(ly));
            let (tfx, tfy) = (_mm_cvtepi32_ps(tx), _mm_cvtepi32_ps(ty));
            let x0f = _mm_sub_ps(tfx, _mm_and_ps(_mm_cmpgt_ps(tfx, lx), one));
            let y0f = _mm_sub_ps(tfy, _mm_and_ps(_mm_cmpgt_ps(tfy, ly), one));
            let (x0, y0) = (_mm_cvttps_epi32(x0f), _mm_cvttps_epi32(y0f));
            // Inside: x0 >= 0, y0 >= 0, x0 + 1 < w, y0 + 1 < h (and no truncation overflow,
            // whose result i32::MIN fails x0 >= 0).
            let inside = _mm_and_si128(
                _mm_and_si128(_mm_cmpgt_epi32(x0, minus1), _mm_cmpgt_epi32(y0, minus1)),
                _mm_and_si128(_mm_cmplt_epi32(x0, wlim), _mm_cmplt_epi32(y0, hlim)),
            );
            let (tx_ok, ty_ok) = (
                _mm_cmpgt_epi32(tx, _mm_set1_epi32(i32::MIN)),
                _mm_cmpgt_epi32(ty, _mm_set1_epi32(i32::MIN)),
            );
            let ok = _mm_and_si128(inside, _mm_and_si128(tx_ok, ty_ok));
            let o = orow.as_mut_ptr().add(3 * i);
            // No neighbour inside for any of the four (x0 < -1, x0 > w - 1, y0 < -1 or
            // y0 > h - 1, the truncation in range): `sample` adds nothing and returns
            // [0.0; 3] (the letterbox margins of the detector input).
            let away = _mm_or_si128(
                _mm_or_si128(_mm_cmplt_epi32(x0, minus1), _mm_cmpgt_epi32(x0, wlim)),
                _mm_or_si128(_mm_cmplt_epi32(y0, minus1), _mm_cmpgt_epi32(y0, hlim)),
            );
            if _mm_movemask_epi8(_mm_and_si128(away, _mm_and_si128(tx_ok, ty_ok))) == 0xffff {
                std::ptr::write_bytes(o, 0, 12);
                continue;
            }
            if _mm_movemask_epi8(ok) != 0xffff {
                let (mut xs, mut ys) = ([0f32; 4], [0f32; 4]);
                _mm_storeu_ps(xs.as_mut_ptr(), lx);
                _mm_storeu_ps(ys.as_mut_ptr(), ly);
                for k in 0..4 {
                    let px = sample(img, xs[k], ys[k]);
                    std::ptr::copy_nonoverlapping(px.as_ptr(), o.add(3 * k), 3);
                }
                continue;
            }
            let (ax, ay) = (_mm_sub_ps(lx, x0f), _mm_sub_ps(ly, y0f));
            let (nax, nay) = (_mm_sub_ps(one, ax), _mm_sub_ps(one, ay));
            let w00 = _mm_mul_ps(nax, nay);
            let w01 = _mm_mul_ps(ax, nay);
            let w10 = _mm_mul_ps(nax, ay);
            let w11 = _mm_mul_ps(ax, ay);
            let (mut xi, mut yi) = ([0i32; 4], [0i32; 4]);
            _mm_storeu_si128(xi.as_mut_ptr().cast(), x0);
            _mm_storeu_si128(yi.as_mut_ptr().cast(), y0);
            let px4 = |p: usize| -> __m128 {
                let v = _mm_cvtsi32_si128((data.add(p) as *const i32).read_unaligned());
                _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(v, zero), zero))
            };
            macro_rules! pixel {
                ($k:literal, $m:literal) => {{
                    let p00 = (yi[$k] as usize * img.w + xi[$k] as usize) * 3;
                    let p10 = p00 + img.w * 3;
                    if p10 + 7 <= len {
                        let b = |w: __m128| _mm_shuffle_ps::<$m>(w, w);
                        let mut acc = _mm_setzero_ps();
                        acc = _mm_add_ps(acc, _mm_mul_ps(px4(p00), b(w00)));
                        acc = _mm_add_ps(acc, _mm_mul_ps(px4(p00 + 3), b(w01)));
                        acc = _mm_add_ps(acc, _mm_mul_ps(px4(p10), b(w10)));
                        acc = _mm_add_ps(acc, _mm_mul_ps(px4(p10 + 3), b(w11)));
                        let mut t = [0f32; 4];
                        _mm_storeu_ps(t.as_mut_ptr(), acc);
                        std::ptr::copy_nonoverlapping(t.as_ptr(), o.add(3 * $k), 3);
                    } else {
                        let (mut xs, mut ys) = ([0f32; 4], [0f32; 4]);
                        _mm_storeu_ps(xs.as_mut_ptr(), lx);
                        _mm_storeu_ps(ys.as_mut_ptr(), ly);
                        let px = sample(img, xs[$k], ys[$k]);
                        std::ptr::copy_nonoverlapping(px.as_ptr(), o.add(3 * $k), 3);
                    }
                }};
            }
            pixel!(0, 0x00);
            pixel!(1, 0x55);
            pixel!(2, 0xaa);
            pixel!(3, 0xff);
        }
    }
    4 * groups
}

/// Exact floor for the coordinate range of images (|v| < 2^23).
#[inline]
fn floor(v: f32) -> f32 {
    let t = v as i32 as f32;
    if t > v { t - 1.0 } else { t }
}

/// Bilinear sample at continuous pixel-centre coordinates; black outside.
#[inline(always)]
fn sample(img: &Rgb, x: f32, y: f32) -> [f32; 3] {
    let x0f = floor(x);
    let y0f = floor(y);
    let (ax, ay) = (x - x0f, y - y0f);
    let (x0, y0) = (x0f as i64, y0f as i64);
    if x0 >= 0 && y0 >= 0 && x0 + 1 < img.w as i64 && y0 + 1 < img.h as i64 {
        // All four neighbours inside: the same products and sums, in the same order, as
        // the general loop below, without its per-tap checks.
        let p00 = (y0 as usize * img.w + x0 as usize) * 3;
        let p10 = p00 + img.w * 3;
        let (q0, q1) = (&img.data[p00..p00 + 6], &img.data[p10..p10 + 6]);
        let (w00, w01) = ((1.0 - ax) * (1.0 - ay), ax * (1.0 - ay));
        let (w10, w11) = ((1.0 - ax) * ay, ax * ay);
        let mut acc = [0f32; 3];
        for (c, a) in acc.iter_mut().enumerate() {
            *a += q0[c] as f32 * w00;
            *a += q0[3 + c] as f32 * w01;
            *a += q1[c] as f32 * w10;
            *a += q1[3 + c] as f32 * w11;
        }
        return acc;
    }
    let mut acc = [0f32; 3];
    for (dy, wy) in [(0i64, 1.0 - ay), (1, ay)] {
        for (dx, wx) in [(0i64, 1.0 - ax), (1, ax)] {
            let (xx, yy) = (x0 + dx, y0 + dy);
            if xx < 0 || yy < 0 || xx >= img.w as i64 || yy >= img.h as i64 {
                continue;
            }
            let p = (yy as usize * img.w + xx as usize) * 3;
            let wgt = wx * wy;
            for (a, &v) in acc.iter_mut().zip(&img.data[p..p + 3]) {
                *a += v as f32 * wgt;
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(w: usize, h: usize) -> Rgb {
        Rgb::new(w, h, (0..w * h * 3).map(|i| (i % 251) as u8).collect())
    }

    #[test]
    fn every_orientation_round_trips_with_its_inverse() {
        let img = ramp(5, 3);
        // Orientation 6 (rotate 90 cw to display) undone by 8, and vice versa.
        assert_eq!(img.clone().oriented(6).oriented(8), img);
        assert_eq!(img.clone().oriented(3).oriented(3), img);
        assert_eq!(img.clone().oriented(2).oriented(2), img);
        assert_eq!(img.clone().oriented(5).oriented(5), img);
        assert_eq!(img.clone().oriented(7).oriented(7), img);
        assert_eq!(img.clone().oriented(6).w, 3);
    }

    #[test]
    fn halving_averages_each_2x2_block_with_rounding() {
        // Widths below, at and above the 16-pixel SIMD block, with tails; bytes up to 255.
        for (w, h) in [
            (7, 5),
            (8, 6),
            (3, 2),
            (1, 4),
            (16, 2),
            (17, 3),
            (49, 4),
            (131, 5),
        ] {
            let mut img = ramp(w, h);
            for (i, v) in img.data.iter_mut().enumerate() {
                *v = v.wrapping_mul(97).wrapping_add((i / 7) as u8) | (((i % 5 == 0) as u8) * 255);
            }
            let half = img.halved();
            assert_eq!((half.w, half.h), (w / 2, h / 2));
            for y in 0..h / 2 {
                for x in 0..w / 2 {
                    for c in 0..3 {
                        let p = |yy: usize, xx: usize| img.data[(yy * w + xx) * 3 + c] as u16;
                        let s = p(2 * y, 2 * x)
                            + p(2 * y, 2 * x + 1)
                            + p(2 * y + 1, 2 * x)
                            + p(2 * y + 1, 2 * x + 1);
                        assert_eq!(half.data[(y * (w / 2) + x) * 3 + c] as u16, (s + 2) / 4);
                    }
                }
            }
        }
    }

    #[test]
    fn warp_matches_per_pixel_sampling_bit_for_bit() {
        // A rotated, scaled map that runs off every edge, so the vector groups, their
        // per-pixel fallbacks and the scalar tail are all exercised.
        let mut img = ramp(37, 29);
        for (i, v) in img.data.iter_mut().enumerate() {
            *v = v.wrapping_mul(151).wrapping_add((i / 5) as u8);
        }
        let pyr = Pyramid {
            levels: vec![img.clone()],
        };
        for (ow, oh, origin, ux, uy) in [
            (23, 19, [-4.3f32, -2.7], [1.9f32, 0.41], [-0.37f32, 1.7]),
            (41, 7, [3.0, 2.0], [0.83, 0.0], [0.0, 0.83]),
            (5, 3, [36.5, 28.5], [0.7, 0.1], [0.1, 0.7]),
            // Letterboxed: whole groups of four far outside on every side.
            (64, 48, [-40.0, -30.0], [1.8, 0.0], [0.0, 1.9]),
        ] {
            let got = pyr.warp(ow, oh, origin, ux, uy);
            for oy in 0..oh {
                for ox in 0..ow {
                    let (fx, fy) = (ox as f32 + 0.5, oy as f32 + 0.5);
                    let bx = origin[0] + fx * ux[0] + fy * uy[0];
                    let by = origin[1] + fx * ux[1] + fy * uy[1];
                    let want = sample(&img, bx - 0.5, by - 0.5);
                    let o = (oy * ow + ox) * 3;
                    for c in 0..3 {
                        assert_eq!(got[o + c].to_bits(), want[c].to_bits(), "{ox},{oy},{c}");
                    }
                }
            }
        }
    }

    #[test]
    fn mirroring_twice_is_identity() {
        let img = ramp(7, 4);
        assert_eq!(img.mirrored().mirrored(), img);
    }
}
