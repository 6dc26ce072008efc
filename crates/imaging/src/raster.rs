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

    /// Bilinear sample at continuous coordinates (pixel centres at integer + 0.5 map to
    /// the sample grid), clamped at the borders.
    #[inline]
    pub fn bilinear(&self, x: f32, y: f32) -> f32 {
        let fx = (x - 0.5).clamp(0.0, (self.w - 1) as f32);
        let fy = (y - 0.5).clamp(0.0, (self.h - 1) as f32);
        let x0 = fx as usize;
        let y0 = fy as usize;
        let x1 = (x0 + 1).min(self.w - 1);
        let y1 = (y0 + 1).min(self.h - 1);
        let tx = fx - x0 as f32;
        let ty = fy - y0 as f32;
        let top = self.at(x0, y0) + (self.at(x1, y0) - self.at(x0, y0)) * tx;
        let bottom = self.at(x0, y1) + (self.at(x1, y1) - self.at(x0, y1)) * tx;
        top + (bottom - top) * ty
    }

    /// Box-average reduction by an integer `factor` (the last block of a row or column
    /// may be partial). Used to compute wide, smooth things (large blurs, the subject
    /// mask) at a fraction of the cost and memory.
    pub fn reduced(&self, factor: usize) -> Plane {
        reduce(self.w, self.h, factor, |x, y| self.at(x, y))
    }
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
