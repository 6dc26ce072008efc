//! Soft masks: the skin of a face (for retouch) and the person in front of the
//! background (for background edits).
//!
//! **Skin mask.** The face-oval polygon of the 468-point mesh, minus the eyes, the
//! eyebrows and the lips (their mesh polygons, enlarged so lashes and lip lines stay
//! out), feathered with a Gaussian of 2.5 % of the face width. It lives only on the
//! face's bounding rectangle, so nothing outside it can change.
//!
//! **Subject mask.** Made on a grid of about 320 px on the long side:
//! 1. *the person*: MediaPipe's selfie segmentation network (run by the analysis crate,
//!    [`prettyscore_analysis::segment_person`]) on the whole photo, its 256 x 256 (or
//!    256 x 144) answer resampled onto the grid. It finds people with what they hold
//!    and wear (hair, a helmet under the arm), and, in photos without a person, usually
//!    the salient subject (a cat's head, a cup);
//! 2. only when the network finds nothing (less than 1% of the frame) or cannot run, the
//!    *heuristic* of the engine's first version: a prior from the face box (a head
//!    ellipse that reaches above the forehead for hair, a neck, and shoulders widening to
//!    a torso that runs to the bottom edge; with no face, a centre-weighted capsule from
//!    the middle of the frame to the bottom edge) sharpened by a colour model (RGB
//!    histograms, 16 levels a channel, smoothed, of the pixels the prior is sure about,
//!    combined with the prior by Bayes' rule, tempered so colour cannot flip a pixel far
//!    from the person);
//! 3. *edges*: a guided filter with the luma as guide; its coefficients are
//!    interpolated to full resolution and applied to the full-resolution luma ("fast
//!    guided filter"), so the mask's soft edge follows the real outline (hair, shoulders)
//!    instead of a blocky low-resolution one.

use crate::face::{Face, FaceLookup};
use crate::filter;
use crate::raster::{self, Plane, Rect, RgbImage, Upsampler, smoothstep};

/// MediaPipe Face Mesh contours, each in polygon order.
const FACE_OVAL: [usize; 36] = [
    10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152,
    148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
const RIGHT_EYE: [usize; 16] = [
    33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246,
];
const LEFT_EYE: [usize; 16] = [
    263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466,
];
const RIGHT_BROW: [usize; 10] = [46, 53, 52, 65, 55, 107, 66, 105, 63, 70];
const LEFT_BROW: [usize; 10] = [276, 283, 282, 295, 285, 336, 296, 334, 293, 300];
const LIPS: [usize; 20] = [
    61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185,
];

/// A soft mask over a rectangle of the image (values 0..1; outside the rectangle, 0).
pub struct RegionMask {
    pub rect: Rect,
    pub alpha: Plane,
}

/// The skin of the face, or None if the landmarks are not a full mesh.
pub fn skin(face: &Face, w: usize, h: usize) -> Option<RegionMask> {
    if face.landmarks.len() < 468 {
        return None;
    }
    let pts = face.points_px(w, h);
    let [x0, y0, x1, y1] = face.bbox_px(w, h);
    let fw = x1 - x0;
    let margin = 0.08 * fw.max(y1 - y0);
    let rect = Rect::clipped(x0 - margin, y0 - margin, x1 + margin, y1 + margin, w, h);
    if rect.is_empty() || fw < 4.0 {
        return None;
    }
    let local = |idx: &[usize], scale: f32| -> Vec<[f32; 2]> {
        let poly: Vec<[f32; 2]> = idx
            .iter()
            .map(|&i| [pts[i][0] - rect.x as f32, pts[i][1] - rect.y as f32])
            .collect();
        scaled(&poly, scale)
    };
    let mut alpha = Plane::new(rect.w, rect.h);
    // Shrunk a little so the feather falls inside the jaw line, not on the background.
    fill_polygon(&mut alpha, &local(&FACE_OVAL, 0.95), 1.0);
    for (idx, scale) in [
        (&RIGHT_EYE[..], 1.7),
        (&LEFT_EYE[..], 1.7),
        (&RIGHT_BROW[..], 1.35),
        (&LEFT_BROW[..], 1.35),
        (&LIPS[..], 1.2),
    ] {
        fill_polygon(&mut alpha, &local(idx, scale), 0.0);
    }
    let mut scratch = Plane::new(1, 1);
    filter::gaussian(&mut alpha, 0.025 * fw, &mut scratch);
    Some(RegionMask { rect, alpha })
}

/// `poly` scaled by `s` about its vertex centroid.
fn scaled(poly: &[[f32; 2]], s: f32) -> Vec<[f32; 2]> {
    let n = poly.len() as f32;
    let cx = poly.iter().map(|p| p[0]).sum::<f32>() / n;
    let cy = poly.iter().map(|p| p[1]).sum::<f32>() / n;
    poly.iter()
        .map(|p| [cx + s * (p[0] - cx), cy + s * (p[1] - cy)])
        .collect()
}

/// Sets every pixel whose centre lies inside `poly` (even-odd rule) to `value`.
pub fn fill_polygon(p: &mut Plane, poly: &[[f32; 2]], value: f32) {
    let n = poly.len();
    let mut xs: Vec<f32> = Vec::with_capacity(n);
    for y in 0..p.h {
        let yc = y as f32 + 0.5;
        xs.clear();
        for i in 0..n {
            let a = poly[i];
            let b = poly[(i + 1) % n];
            if (a[1] <= yc && yc < b[1]) || (b[1] <= yc && yc < a[1]) {
                xs.push(a[0] + (yc - a[1]) * (b[0] - a[0]) / (b[1] - a[1]));
            }
        }
        xs.sort_by(f32::total_cmp);
        for pair in xs.chunks_exact(2) {
            let from = (pair[0] - 0.5).ceil().clamp(0.0, p.w as f32) as usize;
            let to = (pair[1] - 0.5).ceil().clamp(0.0, p.w as f32) as usize;
            p.data[y * p.w + from..y * p.w + to.max(from)].fill(value);
        }
    }
}

/// Long side of the grid the subject mask is computed on.
const SUBJECT_GRID: usize = 320;

/// The person in front of the background, as fast-guided-filter coefficients on a low
/// resolution grid.
pub struct SubjectMask {
    factor: usize,
    a: Plane,
    b: Plane,
}

impl SubjectMask {
    /// Foreground opacity of every pixel of `img` (0..255, one byte a pixel): the
    /// coarse coefficients enlarged and applied to the full-resolution luma.
    pub fn alpha_map(&self, img: &RgbImage) -> Vec<u8> {
        let w = img.width() as usize;
        let up = Upsampler::new(w, self.a.w, self.factor);
        let (mut tmp, mut ra, mut rb) = (Vec::new(), vec![0.0f32; w], vec![0.0f32; w]);
        let mut out = Vec::with_capacity(img.as_raw().len() / 3);
        for (y, line) in img.as_raw().chunks_exact(w * 3).enumerate() {
            up.row(&self.a, y, &mut tmp, &mut ra);
            up.row(&self.b, y, &mut tmp, &mut rb);
            for ((px, a), b) in line.chunks_exact(3).zip(&ra).zip(&rb) {
                // Firm up the middle of the transition: a mask that hovers at 0.5 over a
                // wide band shows the old background through as a halo.
                out.push(raster::to_u8(smoothstep(
                    0.15,
                    0.85,
                    a * raster::luma(px) + b,
                )));
            }
        }
        out
    }
}

/// The photo on the mask's grid: box averages of `factor` x `factor` pixel blocks.
struct Grid {
    factor: usize,
    /// Red, green, blue (0..1).
    rgb: [Plane; 3],
    luma: Plane,
}

impl Grid {
    fn of(img: &RgbImage) -> Grid {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let factor = w.max(h).div_ceil(SUBJECT_GRID).max(1);
        let [r, g, b, _] = raster::reduce_rgb_weighted(img, factor, |_| 1.0);
        let luma = Plane {
            w: r.w,
            h: r.h,
            data: (0..r.w * r.h)
                .map(|i| {
                    raster::LUMA[0] * r.data[i]
                        + raster::LUMA[1] * g.data[i]
                        + raster::LUMA[2] * b.data[i]
                })
                .collect(),
        };
        Grid {
            factor,
            rgb: [r, g, b],
            luma,
        }
    }
}

/// The subject mask of `img`: the segmentation network's person, or, when it finds
/// none, the heuristic (which asks `faces` for the face only then).
pub fn subject(img: &RgbImage, faces: &mut FaceLookup<'_>) -> SubjectMask {
    let grid = Grid::of(img);
    let m = match person_on_grid(img, &grid) {
        Some(m) => m,
        None => heuristic(img, &grid, faces.face()),
    };
    refine(&grid, m)
}

/// The subject mask made by the heuristic alone (the fallback), using `face` when there
/// is one. Kept callable on its own for the tests and the benchmark that compare it with
/// the network's mask.
pub fn subject_heuristic(img: &RgbImage, face: Option<&Face>) -> SubjectMask {
    let grid = Grid::of(img);
    let m = heuristic(img, &grid, face);
    refine(&grid, m)
}

/// The network's person probabilities resampled (bilinear, pixel centres) onto the
/// grid, or None when it finds no person.
fn person_on_grid(img: &RgbImage, grid: &Grid) -> Option<Plane> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let person = prettyscore_analysis::segment_person(img.as_raw(), w, h)?;
    let (gw, gh) = (grid.luma.w, grid.luma.h);
    // Grid cell centre (in photo pixels) -> network cell coordinates, clamped to the
    // centres of the edge cells.
    let axis = |i: usize, len: usize, cells: usize| {
        let px = ((i as f32 + 0.5) * grid.factor as f32).min(len as f32);
        let v = (px * cells as f32 / len as f32 - 0.5).clamp(0.0, (cells - 1) as f32);
        let lo = v as usize;
        (lo, (lo + 1).min(cells - 1), v - lo as f32)
    };
    let cols: Vec<_> = (0..gw).map(|x| axis(x, w, person.width)).collect();
    let mut m = Plane::new(gw, gh);
    for y in 0..gh {
        let (y0, y1, ty) = axis(y, h, person.height);
        let (r0, r1) = (
            &person.data[y0 * person.width..][..person.width],
            &person.data[y1 * person.width..][..person.width],
        );
        for (x, &(x0, x1, tx)) in cols.iter().enumerate() {
            let top = r0[x0] + (r0[x1] - r0[x0]) * tx;
            let bottom = r1[x0] + (r1[x1] - r1[x0]) * tx;
            m.data[y * gw + x] = top + (bottom - top) * ty;
        }
    }
    Some(m)
}

/// The fallback mask on the grid: a prior from the face (or the centre of the frame)
/// sharpened by a colour model.
fn heuristic(img: &RgbImage, grid: &Grid, face: Option<&Face>) -> Plane {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let [r, g, b] = &grid.rgb;
    let (gw, gh) = (r.w, r.h);
    let s = 1.0 / grid.factor as f32;
    let (prior, core) = match face {
        Some(f) => person_prior(f.bbox_px(w, h).map(|v| v * s), gw, gh),
        None => centre_prior(gw, gh),
    };

    // Colour model from the pixels the prior is sure about.
    let bin = |i: usize| {
        let q = |v: f32| ((v * 15.999) as usize).min(15);
        (q(r.data[i]) << 8) | (q(g.data[i]) << 4) | q(b.data[i])
    };
    let mut fg = vec![0.0f64; 4096];
    let mut bg = vec![0.0f64; 4096];
    for (i, &p) in prior.data.iter().enumerate() {
        if p >= 0.9 {
            fg[bin(i)] += 1.0;
        } else if p <= 0.1 {
            bg[bin(i)] += 1.0;
        }
    }
    let fg = normalised_histogram(&fg);
    let bg = normalised_histogram(&bg);
    let mut m = Plane::new(gw, gh);
    for i in 0..gw * gh {
        let p = prior.data[i];
        // Tempered likelihoods (power 0.8): colour refines the outline but a background
        // that happens to share the shirt's colour is not swallowed whole.
        let lf = libm::pow(fg[bin(i)], 0.8) as f32;
        let lb = libm::pow(bg[bin(i)], 0.8) as f32;
        let pf = p * lf;
        let pb = (1.0 - p) * lb;
        let post = if pf + pb > 0.0 { pf / (pf + pb) } else { p };
        m.data[i] = post.max(core.data[i]);
    }
    m
}

/// The guided filter's coefficients for the grid mask `m`, with the luma as guide.
fn refine(grid: &Grid, mut m: Plane) -> SubjectMask {
    let mut scratch = Plane::new(m.w, m.h);
    filter::box_mean(&mut m, 1, &mut scratch);
    let radius = (m.w.max(m.h) / 80).max(2);
    let (a, b) = filter::guided_coefficients(&grid.luma, &m, radius, 0.004);
    SubjectMask {
        factor: grid.factor,
        a,
        b,
    }
}

/// Histogram smoothed over neighbouring bins (so colours near the samples count) and
/// normalised to sum to 1, with a floor so unseen colours are not impossible.
fn normalised_histogram(h: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0f64; 4096];
    for r in 0..16i32 {
        for g in 0..16i32 {
            for b in 0..16i32 {
                let mut sum = 0.0;
                for dr in -1..=1 {
                    for dg in -1..=1 {
                        for db in -1..=1 {
                            let (rr, gg, bb) = (r + dr, g + dg, b + db);
                            if (0..16).contains(&rr)
                                && (0..16).contains(&gg)
                                && (0..16).contains(&bb)
                            {
                                let wgt = if dr == 0 && dg == 0 && db == 0 {
                                    2.0
                                } else {
                                    1.0
                                };
                                sum += wgt * h[((rr << 8) | (gg << 4) | bb) as usize];
                            }
                        }
                    }
                }
                out[((r << 8) | (g << 4) | b) as usize] = sum;
            }
        }
    }
    let total: f64 = out.iter().sum::<f64>() + 1e-9;
    out.iter().map(|v| v / total + 1e-5).collect()
}

/// Prior probability of "person" from the face box (grid pixels: x0, y0, x1, y1), and
/// the face core that is person whatever its colour.
fn person_prior(bbox: [f32; 4], gw: usize, gh: usize) -> (Plane, Plane) {
    let [x0, y0, x1, y1] = bbox;
    let fw = (x1 - x0).max(1.0);
    let fh = (y1 - y0).max(1.0);
    let cx = (x0 + x1) / 2.0;
    let head_cy = y0 + 0.42 * fh;
    let neck = (y0 + 0.8 * fh, y0 + 1.5 * fh);
    let torso_top = y0 + 1.2 * fh;
    let mut prior = Plane::new(gw, gh);
    let mut core = Plane::new(gw, gh);
    for y in 0..gh {
        let yc = y as f32 + 0.5;
        for x in 0..gw {
            let xc = x as f32 + 0.5;
            let dx = xc - cx;
            let head = ((dx / (0.72 * fw)).powi(2) + ((yc - head_cy) / (0.8 * fh)).powi(2)).sqrt();
            let neck_d = if yc >= neck.0 && yc <= neck.1 {
                dx.abs() / (0.34 * fw)
            } else {
                f32::INFINITY
            };
            let torso = if yc >= torso_top {
                let half = fw * (0.75 + 0.85 * smoothstep(torso_top, torso_top + 0.6 * fh, yc));
                dx.abs() / half
            } else {
                f32::INFINITY
            };
            let d = head.min(neck_d).min(torso);
            prior.data[y * gw + x] = 0.95 - 0.9 * smoothstep(0.7, 1.35, d);
            let face =
                ((dx / (0.42 * fw)).powi(2) + ((yc - (y0 + 0.5 * fh)) / (0.5 * fh)).powi(2)).sqrt();
            core.data[y * gw + x] = 1.0 - smoothstep(0.8, 1.0, face);
        }
    }
    (prior, core)
}

/// Prior for a photo without a face: a capsule from the centre of the frame down to the
/// bottom edge. No core: colour decides.
fn centre_prior(gw: usize, gh: usize) -> (Plane, Plane) {
    let (cx, cy) = (gw as f32 * 0.5, gh as f32 * 0.55);
    let (ax, ay) = (gw as f32 * 0.3, gh as f32 * 0.4);
    let mut prior = Plane::new(gw, gh);
    for y in 0..gh {
        let yc = y as f32 + 0.5;
        let dy = if yc > cy { 0.0 } else { (yc - cy) / ay };
        for x in 0..gw {
            let dx = (x as f32 + 0.5 - cx) / ax;
            let d = (dx * dx + dy * dy).sqrt();
            prior.data[y * gw + x] = 0.9 - 0.86 * smoothstep(0.7, 1.3, d);
        }
    }
    (prior, Plane::new(gw, gh))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_fill_covers_pixel_centres_inside() {
        let mut p = Plane::new(10, 10);
        fill_polygon(
            &mut p,
            &[[2.0, 2.0], [8.0, 2.0], [8.0, 8.0], [2.0, 8.0]],
            1.0,
        );
        let filled: f32 = p.data.iter().sum();
        assert_eq!(filled, 36.0);
        assert_eq!(p.at(2, 2), 1.0);
        assert_eq!(p.at(8, 8), 0.0);
        // A hole cut by a second fill.
        fill_polygon(
            &mut p,
            &[[4.0, 4.0], [6.0, 4.0], [6.0, 6.0], [4.0, 6.0]],
            0.0,
        );
        assert_eq!(p.data.iter().sum::<f32>(), 32.0);
    }
}
