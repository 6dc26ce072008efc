//! Pet and feet scores from measured image properties: sharpness, exposure,
//! colourfulness, composition and left/right balance. There is no pet or foot detector:
//! these scores rate the photo, deterministically, within the spec's ranges. A feet photo
//! must first pass the feet check (`feet.rs`: bare smooth skin, no face, no hand).
//! (Hands have their own detector and landmarks: `hands.rs`.)

use crate::body::{body_score, breakdown_item};
use crate::decode::decode;
use crate::error::AnalysisError;
use crate::feet::{self, FeetEvidence};
use crate::raster::Pyramid;
use crate::score::{feet_label, pet_title};
use serde::Serialize;

/// Long side of the normalised grid the properties are measured on.
const GRID_LONG: usize = 256;

/// Measured properties, each turned into a quality in 0..1 (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PhotoQualities {
    /// Edge detail: mean absolute Laplacian relative to a crisp photo.
    pub sharpness: f64,
    /// Mean brightness near mid-grey and little clipping.
    pub exposure: f64,
    /// Hasler and Suesstrunk's colourfulness, saturating.
    pub colourfulness: f64,
    /// Detail concentrated near the centre (a framed subject).
    pub composition: f64,
    /// Left/right balance: the photo against its mirror image.
    pub balance: f64,
}

fn measure(bytes: &[u8]) -> Result<PhotoQualities, AnalysisError> {
    let pyr = Pyramid::new(decode(bytes)?.image);
    let (rgb, gw, gh) = grid(&pyr);
    Ok(qualities(&rgb, gw, gh))
}

/// The photo on the measuring grid (RGB 0..255, long side [`GRID_LONG`]): `(rgb, w, h)`.
fn grid(pyr: &Pyramid) -> (Vec<f32>, usize, usize) {
    grid_of(pyr, GRID_LONG)
}

/// The photo resampled to `long` pixels on its long side: `(rgb, w, h)`.
fn grid_of(pyr: &Pyramid, long: usize) -> (Vec<f32>, usize, usize) {
    let (w, h) = (pyr.base().w, pyr.base().h);
    let scale = w.max(h) as f32 / long as f32;
    let (gw, gh) = (
        ((w as f32 / scale) as usize).max(8),
        ((h as f32 / scale) as usize).max(8),
    );
    (
        pyr.warp(gw, gh, [0.0, 0.0], [scale, 0.0], [0.0, scale]),
        gw,
        gh,
    )
}

fn qualities(rgb: &[f32], gw: usize, gh: usize) -> PhotoQualities {
    let n = (gw * gh) as f64;
    let lum: Vec<f32> = rgb
        .chunks_exact(3)
        .map(|p| 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2])
        .collect();

    // Sharpness and where the detail is.
    let (mut lap_sum, mut wsum, mut cx, mut cy, mut m) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0usize);
    for y in 1..gh - 1 {
        for x in 1..gw - 1 {
            let c = lum[y * gw + x];
            let l = (lum[y * gw + x - 1]
                + lum[y * gw + x + 1]
                + lum[(y - 1) * gw + x]
                + lum[(y + 1) * gw + x]
                - 4.0 * c)
                .abs() as f64;
            lap_sum += l;
            wsum += l;
            cx += l * (x as f64 + 0.5) / gw as f64;
            cy += l * (y as f64 + 0.5) / gh as f64;
            m += 1;
        }
    }
    let lap = lap_sum / m.max(1) as f64;
    let sharpness = lap / (lap + 8.0);
    let (cx, cy) = if wsum > 0.0 {
        (cx / wsum, cy / wsum)
    } else {
        (0.5, 0.5)
    };
    let off = libm::sqrt((cx - 0.5) * (cx - 0.5) + (cy - 0.5) * (cy - 0.5));
    let composition = (1.0 - off / 0.35).clamp(0.0, 1.0);

    // Exposure.
    let mean = lum.iter().map(|&v| v as f64).sum::<f64>() / n;
    let clipped = lum.iter().filter(|&&v| !(6.0..=249.0).contains(&v)).count() as f64 / n;
    let r = (mean - 128.0) / 70.0;
    let exposure = (1.0 / (1.0 + r * r)) * (1.0 - clipped).max(0.0);

    // Colourfulness.
    let (mut srg, mut syb, mut srg2, mut syb2) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for p in rgb.chunks_exact(3) {
        let rg = (p[0] - p[1]) as f64;
        let yb = (0.5 * (p[0] + p[1]) - p[2]) as f64;
        srg += rg;
        syb += yb;
        srg2 += rg * rg;
        syb2 += yb * yb;
    }
    let (mrg, myb) = (srg / n, syb / n);
    let (vrg, vyb) = (
        (srg2 / n - mrg * mrg).max(0.0),
        (syb2 / n - myb * myb).max(0.0),
    );
    let colour = libm::sqrt(vrg + vyb) + 0.3 * libm::sqrt(mrg * mrg + myb * myb);
    let colourfulness = colour / (colour + 40.0);

    // Left/right balance.
    let mut diff = 0.0f64;
    for y in 0..gh {
        for x in 0..gw / 2 {
            diff += (lum[y * gw + x] - lum[y * gw + gw - 1 - x]).abs() as f64;
        }
    }
    let mad = diff / ((gw / 2) * gh).max(1) as f64;
    let balance = 1.0 / (1.0 + mad / 40.0);
    PhotoQualities {
        sharpness,
        exposure,
        colourfulness,
        composition,
        balance,
    }
}

fn overall(q: &PhotoQualities) -> f64 {
    0.30 * q.sharpness
        + 0.25 * q.exposure
        + 0.20 * q.colourfulness
        + 0.15 * q.composition
        + 0.10 * q.balance
}

/// A pet photo's score.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PetAnalysis {
    /// A whole number from 7 to 10.
    pub score: u8,
    /// The spec's title, e.g. "Super Cute!".
    pub title: &'static str,
    pub qualities: PhotoQualities,
}

/// Score a pet photo: 7 plus one point each for a photo quality of 0.45, 0.65 and 0.85
/// (quality: 30% sharpness, 25% exposure, 20% colourfulness, 15% composition, 10%
/// left/right balance).
pub fn analyze_pet(bytes: &[u8]) -> Result<PetAnalysis, AnalysisError> {
    let q = measure(bytes)?;
    let o = overall(&q);
    let score = 7 + u8::from(o >= 0.45) + u8::from(o >= 0.65) + u8::from(o >= 0.85);
    Ok(PetAnalysis {
        score,
        title: pet_title(score),
        qualities: q,
    })
}

/// Feet breakdown (the spec's keys), each out of 10.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FeetBreakdown {
    pub toe_symmetry: f64,
    pub arch_quality: f64,
    pub skin_appearance: f64,
    pub overall_aesthetics: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FeetAnalysis {
    /// 7.0 to 10.0, one decimal.
    pub score: f64,
    pub rating_label: &'static str,
    pub breakdown: FeetBreakdown,
    pub qualities: PhotoQualities,
}

/// Score a feet photo. toeSymmetry: left/right balance; archQuality: composition;
/// skinAppearance: exposure; overallAesthetics: colourfulness and sharpness. A photo that
/// fails the feet check (bare smooth skin, no face, no hand: `feet.rs`) is refused
/// (`not_feet`): there are no feet to score.
pub fn analyze_feet(bytes: &[u8]) -> Result<FeetAnalysis, AnalysisError> {
    let pyr = Pyramid::new(decode(bytes)?.image);
    let (rgb, gw, gh) = grid(&pyr);
    match feet_grid(&pyr) {
        Some((small, sw, sh)) => feet::check(&pyr, &small, sw, sh)?,
        None => feet::check(&pyr, &rgb, gw, gh)?,
    }
    let q = qualities(&rgb, gw, gh);
    let score = body_score(overall(&q));
    Ok(FeetAnalysis {
        score,
        rating_label: feet_label(score),
        breakdown: FeetBreakdown {
            toe_symmetry: breakdown_item(score, q.balance),
            arch_quality: breakdown_item(score, q.composition),
            skin_appearance: breakdown_item(score, q.exposure),
            overall_aesthetics: breakdown_item(score, (q.colourfulness + q.sharpness) / 2.0),
        },
        qualities: q,
    })
}

/// What the feet check measures on a photo (for tests and tuning; [`analyze_feet`]
/// refuses a photo whose evidence is not [`FeetEvidence::is_feet`]).
pub fn feet_evidence(bytes: &[u8]) -> Result<FeetEvidence, AnalysisError> {
    let pyr = Pyramid::new(decode(bytes)?.image);
    let (rgb, gw, gh) = feet_grid(&pyr).unwrap_or_else(|| grid(&pyr));
    Ok(feet::evidence(&pyr, &rgb, gw, gh))
}

/// Every measure the feet check's development-time head may use, by name (for
/// `examples/feet_features.rs`; not a stable API).
#[doc(hidden)]
pub fn feet_features(bytes: &[u8]) -> Result<Vec<(&'static str, f64)>, AnalysisError> {
    let pyr = Pyramid::new(decode(bytes)?.image);
    let (rgb, gw, gh) = feet_grid(&pyr).unwrap_or_else(|| grid(&pyr));
    Ok(feet::explore(&pyr, &rgb, gw, gh))
}

/// The feet check's grid when it differs from the qualities' grid: a photo smaller than
/// [`GRID_LONG`] is checked on its own pixels (enlarged, it would look smoother).
fn feet_grid(pyr: &Pyramid) -> Option<(Vec<f32>, usize, usize)> {
    let long = pyr.base().w.max(pyr.base().h);
    (long < GRID_LONG).then(|| grid_of(pyr, long))
}
