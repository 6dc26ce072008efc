//! Pixel containers. Between operations a photo is an 8-bit RGB image (3 bytes a
//! pixel); inside an operation, single-channel f32 planes in 0..1 hold what needs more
//! precision (luminance, one colour channel, a mask). Keeping colour in u8 and only one
//! or a few channels in f32 at a time is what bounds the memory of an edit.

pub use image::RgbImage;

/// Rec. 709 luma weights, the ones CSS `grayscale()` and `saturate()` use.
pub const LUMA: [f32; 3] = [0.2126, 0.7152, 0.0722];

/// Luma of an 8-bit RGB pixel, in 0..1.
#[inline]
pub fn luma(p: &[u8]) -> f32 {
    (LUMA[0] * p[0] as f32 + LUMA[1] * p[1] as f32 + LUMA[2] * p[2] as f32) / 255.0
}

/// 0..1 to a byte, rounded to nearest and clamped.
#[inline]
pub fn to_u8(v: f32) -> u8 {
    // NaN becomes 0 through the saturating cast.
    (v * 255.0 + 0.5).clamp(0.0, 255.0) as u8
}

/// 0..255 (as f32) to a byte, rounded to nearest and clamped.
#[inline]
pub fn to_u8_255(v: f32) -> u8 {
    (v + 0.5).clamp(0.0, 255.0) as u8
}

/// Hermite smoothstep of `x` between `e0` and `e1`.
#[inline]
pub fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A single-channel f32 image, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Plane {
    pub w: usize,
    pub h: usize,
    pub data: Vec<f32>,
}

impl Plane {
    pub fn new(w: usize, h: usize) -> Plane {
        Plane {
            w,
            h,
            data: vec![0.0; w * h],
        }
    }

    /// The luma of `img` (0..1).
    pub fn luma_of(img: &RgbImage) -> Plane {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let data = img.as_raw().chunks_exact(3).map(luma).collect();
        Plane { w, h, data }
    }

    /// One colour channel of a rectangle of `img` (0..1).
    pub fn channel_of(img: &RgbImage, c: usize, rect: Rect) -> Plane {
        let mut p = Plane::new(rect.w, rect.h);
        let stride = img.width() as usize * 3;
        let raw = img.as_raw();
        for y in 0..rect.h {
            let row = &raw[(rect.y + y) * stride..];
            for x in 0..rect.w {
                p.data[y * rect.w + x] = row[(rect.x + x) * 3 + c] as f32 / 255.0;
            }
        }
        p
    }

    #[inline]
    pub fn at(&self, x: usize, y: usize) -> f32 {
        self.data[y * self.w + x]
    }

    /// Box-average reduction by an integer `factor` (the last block of a row or column
    /// may be partial). Used to compute wide, smooth things (large blurs, the subject
    /// mask) at a fraction of the cost and memory.
    pub fn reduced(&self, factor: usize) -> Plane {
        reduce(self.w, self.h, factor, |x, y| self.at(x, y))
    }
}

/// Bilinear enlargement of a coarse [`Plane`] (made with [`reduce`] by `factor`) back
/// to full resolution, one row at a time: the column weights are computed once, so a
/// pixel costs three multiply-adds, and no full-size plane is ever made.
pub struct Upsampler {
    factor: f32,
    cols: Vec<(usize, usize, f32)>,
}

impl Upsampler {
    pub fn new(full_w: usize, coarse_w: usize, factor: usize) -> Upsampler {
        let f = factor as f32;
        let cols = (0..full_w)
            .map(|x| {
                let g = ((x as f32 + 0.5) / f - 0.5).clamp(0.0, (coarse_w - 1) as f32);
                let x0 = g as usize;
                (x0, (x0 + 1).min(coarse_w - 1), g - x0 as f32)
            })
            .collect();
        Upsampler { factor: f, cols }
    }

    /// Row `y` of the enlargement of `p` into `out` (full width); `tmp` holds one coarse
    /// row.
    pub fn row(&self, p: &Plane, y: usize, tmp: &mut Vec<f32>, out: &mut [f32]) {
        let g = ((y as f32 + 0.5) / self.factor - 0.5).clamp(0.0, (p.h - 1) as f32);
        let y0 = g as usize;
        let y1 = (y0 + 1).min(p.h - 1);
        let t = g - y0 as f32;
        tmp.clear();
        let (r0, r1) = (
            &p.data[y0 * p.w..(y0 + 1) * p.w],
            &p.data[y1 * p.w..(y1 + 1) * p.w],
        );
        tmp.extend(r0.iter().zip(r1).map(|(a, b)| a + (b - a) * t));
        for (o, &(x0, x1, tx)) in out.iter_mut().zip(&self.cols) {
            *o = tmp[x0] + (tmp[x1] - tmp[x0]) * tx;
        }
    }
}

/// Box-average reduction of an RGB image by an integer factor, each pixel weighted by
/// `weight(i)` (i the pixel index): the weighted channel sums and the weight sum per
/// block, divided by the block's pixel count. One pass over the image.
pub fn reduce_rgb_weighted(
    img: &RgbImage,
    factor: usize,
    weight: impl Fn(usize) -> f32,
) -> [Plane; 4] {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let factor = factor.max(1);
    let (rw, rh) = (w.div_ceil(factor), h.div_ceil(factor));
    let mut sums = vec![[0.0f64; 4]; rw * rh];
    for (y, line) in img.as_raw().chunks_exact(w * 3).enumerate() {
        let row = &mut sums[(y / factor) * rw..(y / factor + 1) * rw];
        for (x, px) in line.chunks_exact(3).enumerate() {
            let wt = weight(y * w + x) as f64;
            let s = &mut row[x / factor];
            s[0] += px[0] as f64 / 255.0 * wt;
            s[1] += px[1] as f64 / 255.0 * wt;
            s[2] += px[2] as f64 / 255.0 * wt;
            s[3] += wt;
        }
    }
    let mut out = [0, 1, 2, 3].map(|_| Plane::new(rw, rh));
    for ry in 0..rh {
        let bh = ((ry + 1) * factor).min(h) - ry * factor;
        for rx in 0..rw {
            let bw = ((rx + 1) * factor).min(w) - rx * factor;
            let n = (bw * bh) as f64;
            let s = sums[ry * rw + rx];
            for (c, plane) in out.iter_mut().enumerate() {
                plane.data[ry * rw + rx] = (s[c] / n) as f32;
            }
        }
    }
    out
}

/// Box-average reduction of any per-pixel function by an integer factor.
pub fn reduce(w: usize, h: usize, factor: usize, f: impl Fn(usize, usize) -> f32) -> Plane {
    let factor = factor.max(1);
    let (rw, rh) = (w.div_ceil(factor), h.div_ceil(factor));
    let mut out = Plane::new(rw, rh);
    for ry in 0..rh {
        let ys = ry * factor..((ry + 1) * factor).min(h);
        for rx in 0..rw {
            let xs = rx * factor..((rx + 1) * factor).min(w);
            let mut sum = 0.0f64;
            for y in ys.clone() {
                for x in xs.clone() {
                    sum += f(x, y) as f64;
                }
            }
            out.data[ry * rw + rx] = (sum / (ys.len() * xs.len()) as f64) as f32;
        }
    }
    out
}

/// An axis-aligned pixel rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

impl Rect {
    /// The rectangle spanning `x0..x1`, `y0..y1` (pixels, may be fractional or outside),
    /// clipped to a `w` x `h` image.
    pub fn clipped(x0: f32, y0: f32, x1: f32, y1: f32, w: usize, h: usize) -> Rect {
        let cx0 = x0.floor().clamp(0.0, w as f32) as usize;
        let cy0 = y0.floor().clamp(0.0, h as f32) as usize;
        let cx1 = x1.ceil().clamp(0.0, w as f32) as usize;
        let cy1 = y1.ceil().clamp(0.0, h as f32) as usize;
        Rect {
            x: cx0,
            y: cy0,
            w: cx1.saturating_sub(cx0),
            h: cy1.saturating_sub(cy0),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.w == 0 || self.h == 0
    }
}
