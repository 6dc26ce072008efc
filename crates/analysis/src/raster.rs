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
        let mut out = vec![0u8; w * h * 3];
        if w == 0 {
            return Rgb::new(w, h, out);
        }
        let stride = self.w * 3;
        // Two source rows at a time: first the vertical pair sums of every byte (a plain
        // loop that vectorises), then each output value from two neighbouring pixels'
        // sums: the same sums and rounding as averaging each 2x2 block channel by channel.
        let mut sums = vec![0u16; 2 * w * 3];
        for (y, orow) in out.chunks_exact_mut(w * 3).enumerate() {
            let r0 = &self.data[2 * y * stride..][..2 * w * 3];
            let r1 = &self.data[(2 * y + 1) * stride..][..2 * w * 3];
            for ((s, &a), &b) in sums.iter_mut().zip(r0).zip(r1) {
                *s = a as u16 + b as u16;
            }
            for (o, s) in orow.chunks_exact_mut(3).zip(sums.chunks_exact(6)) {
                o[0] = ((s[0] + s[3] + 2) / 4) as u8;
                o[1] = ((s[1] + s[4] + 2) / 4) as u8;
                o[2] = ((s[2] + s[5] + 2) / 4) as u8;
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
        for (oy, orow) in out.chunks_exact_mut(out_w * 3).enumerate() {
            let fy = oy as f32 + 0.5;
            let (ry0, ry1) = (fy * uy[0], fy * uy[1]);
            for (o, c) in orow.chunks_exact_mut(3).zip(&cols) {
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
        for (w, h) in [(7, 5), (8, 6), (3, 2), (1, 4)] {
            let img = ramp(w, h);
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
    fn mirroring_twice_is_identity() {
        let img = ramp(7, 4);
        assert_eq!(img.mirrored().mirrored(), img);
    }
}
