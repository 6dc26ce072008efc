//! Geometric measures from the 468-point mesh and photometric measures from the face
//! crop, all normalised by the distance between the eye centres.

use crate::face::LANDMARKS;
use crate::raster::Pyramid;
use serde::Serialize;

/// The golden ratio.
pub const PHI: f64 = 1.618_033_988_749_895;

// Mesh indices (MediaPipe canonical face mesh).
const RIGHT_EYE: [usize; 4] = [33, 133, 159, 145];
const LEFT_EYE: [usize; 4] = [263, 362, 386, 374];
const RIGHT_EYE_OUTER: usize = 33;
const RIGHT_EYE_INNER: usize = 133;
const LEFT_EYE_INNER: usize = 362;
const LEFT_EYE_OUTER: usize = 263;
const MOUTH_RIGHT: usize = 61;
const MOUTH_LEFT: usize = 291;
const UPPER_LIP_INNER: usize = 13;
const LOWER_LIP_INNER: usize = 14;
const NOSE_TIP: usize = 1;
const SUBNASALE: usize = 2;
const GLABELLA: usize = 9;
const FOREHEAD_TOP: usize = 10;
const CHIN: usize = 152;
const CHEEK_RIGHT: usize = 234;
const CHEEK_LEFT: usize = 454;
const NOSE_WING_RIGHT: usize = 48;
const NOSE_WING_LEFT: usize = 278;
const SKIN_CHEEK_RIGHT: usize = 50;
const SKIN_CHEEK_LEFT: usize = 280;
const SKIN_FOREHEAD: usize = 151;
const SKIN_CHIN: usize = 199;

/// Everything measured on a face. Geometric values are unitless (ratios, or lengths
/// divided by the eye distance); angles in degrees; photometric values in 0..255 grey
/// levels per sample of a grid normalised by the eye distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FaceMeasures {
    /// Eye-centre distance in pixels of the original (upright) image.
    pub eye_distance_px: f64,
    /// Mean distance between each landmark and its mirrored partner reflected about the
    /// facial midline, over all mirrored pairs, in eye distances (0 = perfectly symmetric).
    pub symmetry_error: f64,
    /// Angle between the eye line and the perpendicular of the facial midline (degrees).
    pub eye_line_tilt_deg: f64,
    /// Angle between the mouth-corner line and the eye line (degrees).
    pub mouth_tilt_deg: f64,
    /// Horizontal offset of the nose tip from the midline through the eyes and chin, in
    /// eye distances.
    pub nose_offset: f64,
    /// Lower third (nose base to chin) over middle third (brow to nose base); ideal 1.
    pub thirds_ratio: f64,
    /// Chin part (mouth to chin) over upper-lip part (nose base to mouth); ideal 2.
    pub lower_face_ratio: f64,
    /// Mean relative deviation of the two eye widths and the gap between the eyes from a
    /// fifth of the face width at eye level; ideal 0.
    pub fifths_deviation: f64,
    /// Mouth width over nose width; golden ideal 1.618.
    pub mouth_nose_ratio: f64,
    /// Nose tip to chin over mouth to chin; golden ideal 1.618.
    pub nose_chin_ratio: f64,
    /// Face length (mesh top to chin) over face width at the cheekbones.
    pub face_length_width_ratio: f64,
    /// Mean luminance of the skin patches (0..255).
    pub exposure: f64,
    /// Share of face-crop samples clipped to black or white (0..1).
    pub clipping: f64,
    /// Mean absolute Laplacian over the eye band (detail; higher is sharper).
    pub sharpness: f64,
    /// Mean absolute Laplacian over the skin patches (fine texture; lower is smoother).
    pub skin_texture: f64,
    /// Spread of skin tone: standard deviation of smoothed skin luminance over its mean.
    pub skin_unevenness: f64,
}

type P = [f64; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}
fn norm(a: P) -> f64 {
    libm::sqrt(a[0] * a[0] + a[1] * a[1])
}
fn dist(a: P, b: P) -> f64 {
    norm(sub(a, b))
}
fn mid(a: P, b: P) -> P {
    [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
}
fn mean_of(pts: &[P], idx: &[usize]) -> P {
    let mut s = [0.0, 0.0];
    for &i in idx {
        s[0] += pts[i][0];
        s[1] += pts[i][1];
    }
    [s[0] / idx.len() as f64, s[1] / idx.len() as f64]
}
fn deg(r: f64) -> f64 {
    r * 180.0 / std::f64::consts::PI
}
/// Unsigned angle between two directions, folded to 0..90 degrees.
fn angle_between(a: P, b: P) -> f64 {
    let cross = a[0] * b[1] - a[1] * b[0];
    let dot = a[0] * b[0] + a[1] * b[1];
    let t = deg(libm::atan2(cross, dot)).abs();
    if t > 90.0 { 180.0 - t } else { t }
}

/// Facial midline: least-squares line through the mesh points that pair with themselves.
/// Returns a point on it and its unit direction (pointing down the face).
fn midline(pts: &[P], mirror: &[usize]) -> (P, P) {
    let idx: Vec<usize> = (0..LANDMARKS).filter(|&i| mirror[i] == i).collect();
    let c = mean_of(pts, &idx);
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for &i in &idx {
        let d = sub(pts[i], c);
        sxx += d[0] * d[0];
        sxy += d[0] * d[1];
        syy += d[1] * d[1];
    }
    // Principal direction of the 2x2 scatter matrix.
    let theta = 0.5 * libm::atan2(2.0 * sxy, sxx - syy);
    let mut dir = [libm::cos(theta), libm::sin(theta)];
    // Orient from forehead to chin.
    let down = sub(pts[CHIN], pts[FOREHEAD_TOP]);
    if dir[0] * down[0] + dir[1] * down[1] < 0.0 {
        dir = [-dir[0], -dir[1]];
    }
    (c, dir)
}

/// Geometric measures. `pts` are landmark positions in working-image pixels.
pub(crate) fn geometry(pts: &[P], mirror: &[usize]) -> (f64, Vec<f64>) {
    let re = mean_of(pts, &RIGHT_EYE);
    let le = mean_of(pts, &LEFT_EYE);
    let d = dist(re, le).max(1e-6);
    let (c, dir) = midline(pts, mirror);
    let nrm = [-dir[1], dir[0]];
    // Signed distance across the midline, and position along it.
    let across = |p: P| (p[0] - c[0]) * nrm[0] + (p[1] - c[1]) * nrm[1];
    let along = |p: P| (p[0] - c[0]) * dir[0] + (p[1] - c[1]) * dir[1];

    // Symmetry: reflect the partner across the midline and measure the gap.
    let mut total = 0.0;
    let mut n = 0usize;
    for i in 0..LANDMARKS {
        let j = mirror[i];
        if j <= i {
            continue;
        }
        let (ai, aj) = (across(pts[i]), across(pts[j]));
        let (li, lj) = (along(pts[i]), along(pts[j]));
        // Reflection of j is (-aj, lj) in (across, along) coordinates.
        let gap = libm::sqrt((ai + aj) * (ai + aj) + (li - lj) * (li - lj));
        total += gap;
        n += 1;
    }
    let symmetry_error = total / n.max(1) as f64 / d;

    let eye_line = sub(le, re);
    let eye_tilt = angle_between(eye_line, nrm);
    let mouth_line = sub(pts[MOUTH_LEFT], pts[MOUTH_RIGHT]);
    let mouth_tilt = angle_between(mouth_line, eye_line);
    let nose_offset = across(pts[NOSE_TIP]).abs() / d;

    let stomion = mid(pts[UPPER_LIP_INNER], pts[LOWER_LIP_INNER]);
    let middle = (along(pts[SUBNASALE]) - along(pts[GLABELLA])).max(1e-6);
    let lower = (along(pts[CHIN]) - along(pts[SUBNASALE])).max(1e-6);
    let thirds_ratio = lower / middle;
    let upper_lip = (along(stomion) - along(pts[SUBNASALE])).max(1e-6);
    let chin_part = (along(pts[CHIN]) - along(stomion)).max(1e-6);
    let lower_face_ratio = chin_part / upper_lip;

    let face_w = (across(pts[CHEEK_LEFT]) - across(pts[CHEEK_RIGHT]))
        .abs()
        .max(1e-6);
    let fifth = face_w / 5.0;
    let ew_r = dist(pts[RIGHT_EYE_OUTER], pts[RIGHT_EYE_INNER]);
    let ew_l = dist(pts[LEFT_EYE_OUTER], pts[LEFT_EYE_INNER]);
    let gap = dist(pts[RIGHT_EYE_INNER], pts[LEFT_EYE_INNER]);
    let fifths_deviation =
        ((ew_r / fifth - 1.0).abs() + (ew_l / fifth - 1.0).abs() + (gap / fifth - 1.0).abs()) / 3.0;

    let mouth_w = dist(pts[MOUTH_LEFT], pts[MOUTH_RIGHT]);
    let nose_w = dist(pts[NOSE_WING_LEFT], pts[NOSE_WING_RIGHT]).max(1e-6);
    let mouth_nose_ratio = mouth_w / nose_w;
    let nose_chin = (along(pts[CHIN]) - along(pts[NOSE_TIP])).max(1e-6);
    let nose_chin_ratio = nose_chin / chin_part;
    let face_len = (along(pts[CHIN]) - along(pts[FOREHEAD_TOP])).max(1e-6);
    let face_length_width_ratio = face_len / face_w;

    (
        d,
        vec![
            symmetry_error,
            eye_tilt,
            mouth_tilt,
            nose_offset,
            thirds_ratio,
            lower_face_ratio,
            fifths_deviation,
            mouth_nose_ratio,
            nose_chin_ratio,
            face_length_width_ratio,
        ],
    )
}

/// Samples per eye distance on the normalised photometric grid.
const GRID: f32 = 24.0;

/// Photometric measures on face patches sampled at a fixed number of samples per eye
/// distance, upright along the eye line.
pub(crate) fn photometry(pyr: &Pyramid, pts: &[P]) -> [f64; 5] {
    let re = mean_of(pts, &RIGHT_EYE);
    let le = mean_of(pts, &LEFT_EYE);
    let d = dist(re, le).max(1e-6);
    let ex = [(le[0] - re[0]) / d, (le[1] - re[1]) / d];
    let ey = [-ex[1], ex[0]];
    let step = (d / GRID as f64) as f32;
    let ux = [ex[0] as f32 * step, ex[1] as f32 * step];
    let uy = [ey[0] as f32 * step, ey[1] as f32 * step];
    let patch =
        |c: P, w: usize, h: usize| luma_patch(pyr, [c[0] as f32, c[1] as f32], ux, uy, w, h);
    let s = GRID as usize;
    // Eye band: both eyes, 2 eye distances wide, 0.6 high.
    let eyes = patch(mid(re, le), 2 * s, s * 6 / 10);
    let sharpness = mean_abs_laplacian(&eyes, 2 * s, s * 6 / 10);

    // Skin patches: both cheeks, forehead, chin; each 0.4 eye distances square.
    // Even, so the 2x2 smoothing below covers the whole patch (mirror-symmetric).
    let ps = 2 * (s * 4 / 10).div_ceil(2);
    let skins: Vec<Vec<f32>> = [SKIN_CHEEK_RIGHT, SKIN_CHEEK_LEFT, SKIN_FOREHEAD, SKIN_CHIN]
        .iter()
        .map(|&i| patch(pts[i], ps, ps))
        .collect();
    let mut texture = 0.0;
    for p in &skins {
        texture += mean_abs_laplacian(p, ps, ps);
    }
    texture /= skins.len() as f64;
    let (mean, unevenness) = smoothed_spread(&skins, ps);

    // Clipping over the whole central face (2.4 x 2.8 eye distances around the nose).
    let face = patch(pts[NOSE_TIP], s * 24 / 10, s * 28 / 10);
    let clipped = face
        .iter()
        .filter(|&&v| !(6.0..=249.0).contains(&v))
        .count();
    let clipping = clipped as f64 / face.len() as f64;
    [mean, clipping, sharpness, texture, unevenness]
}

/// A `w` x `h` patch of luma samples centred at `c`, along the grid axes `ux`, `uy`
/// (image pixels per sample): sampled at twice the grid resolution and averaged 2x2, so
/// each grid value covers its whole cell (no aliasing whatever the photo's resolution).
pub(crate) fn luma_patch(
    pyr: &Pyramid,
    c: [f32; 2],
    ux: [f32; 2],
    uy: [f32; 2],
    w: usize,
    h: usize,
) -> Vec<f32> {
    let origin = [
        c[0] - (w as f32 / 2.0) * ux[0] - (h as f32 / 2.0) * uy[0],
        c[1] - (w as f32 / 2.0) * ux[1] - (h as f32 / 2.0) * uy[1],
    ];
    let half_x = [ux[0] / 2.0, ux[1] / 2.0];
    let half_y = [uy[0] / 2.0, uy[1] / 2.0];
    let rgb = pyr.warp(2 * w, 2 * h, origin, half_x, half_y);
    let lum: Vec<f32> = rgb
        .chunks_exact(3)
        .map(|p| 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2])
        .collect();
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let at = |yy: usize, xx: usize| lum[yy * 2 * w + xx];
            out.push(
                (at(2 * y, 2 * x)
                    + at(2 * y, 2 * x + 1)
                    + at(2 * y + 1, 2 * x)
                    + at(2 * y + 1, 2 * x + 1))
                    / 4.0,
            );
        }
    }
    out
}

/// Mean luma of square `side` x `side` patches, and the spread (standard deviation) of
/// their 2x2-smoothed luma relative to that mean: how uneven the tone is.
pub(crate) fn smoothed_spread(patches: &[Vec<f32>], side: usize) -> (f64, f64) {
    let mut sum = 0.0;
    let mut count = 0.0;
    for p in patches {
        for &v in p {
            sum += v as f64;
            count += 1.0;
        }
    }
    let mean = sum / count;
    let mut var = 0.0;
    let mut n = 0.0;
    for p in patches {
        for y in 0..side / 2 {
            for x in 0..side / 2 {
                let v = (p[2 * y * side + 2 * x]
                    + p[2 * y * side + 2 * x + 1]
                    + p[(2 * y + 1) * side + 2 * x]
                    + p[(2 * y + 1) * side + 2 * x + 1]) as f64
                    / 4.0;
                var += (v - mean) * (v - mean);
                n += 1.0;
            }
        }
    }
    (mean, libm::sqrt(var / n) / mean.max(1.0))
}

pub(crate) fn mean_abs_laplacian(p: &[f32], w: usize, h: usize) -> f64 {
    let mut s = 0.0f64;
    let mut n = 0usize;
    for y in 1..h.saturating_sub(1) {
        for x in 1..w.saturating_sub(1) {
            let c = p[y * w + x];
            let l = p[y * w + x - 1] + p[y * w + x + 1] + p[(y - 1) * w + x] + p[(y + 1) * w + x]
                - 4.0 * c;
            s += l.abs() as f64;
            n += 1;
        }
    }
    if n == 0 { 0.0 } else { s / n as f64 }
}

pub(crate) fn assemble(eye_distance_px: f64, g: &[f64], ph: &[f64; 5]) -> FaceMeasures {
    FaceMeasures {
        eye_distance_px,
        symmetry_error: g[0],
        eye_line_tilt_deg: g[1],
        mouth_tilt_deg: g[2],
        nose_offset: g[3],
        thirds_ratio: g[4],
        lower_face_ratio: g[5],
        fifths_deviation: g[6],
        mouth_nose_ratio: g[7],
        nose_chin_ratio: g[8],
        face_length_width_ratio: g[9],
        exposure: ph[0],
        clipping: ph[1],
        sharpness: ph[2],
        skin_texture: ph[3],
        skin_unevenness: ph[4],
    }
}
