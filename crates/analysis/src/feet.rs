//! Is this a photo of feet? No package registry has a foot detector that the project
//! can ship ("Feet: what was tried" in the crate's README). But the hand models we ship
//! answer on feet: MediaPipe's palm detector takes a foot for a palm and the hand
//! landmark model gives it a hand presence of 0.4-0.98, while a bare leg without its
//! foot, a face, a peach or a wall get none. The check uses that answer, measured on the
//! training half of `testdata/feet` and `testdata/notfeet` (issue 44), and a photo must
//! pass all of it:
//!
//! 1. **Bare smooth skin.** On a grid of at most 256 pixels on the long side (the
//!    photo's own pixels when it is smaller: an enlarged photo would look smoother than
//!    it is), a pixel is skin when its colour lies in the skin range of the YCbCr plane
//!    (Chai and Ngan's box, which holds light and dark skin alike, with red above green)
//!    and its surroundings are smooth (the mean absolute Laplacian of the luma over 5x5
//!    pixels below [`SMOOTH_BELOW`]). The smooth skin regions (4-connected) of at least
//!    1% of the frame must cover [`MIN_SKIN_SHARE`] of it with [`MIN_SMOOTH_SHARE`] of
//!    the skin-coloured pixels smooth (not fur), or [`MIN_SMALL_SKIN_SHARE`] with
//!    [`MIN_SMALL_SMOOTH_SHARE`] (small feet in a large frame). A cup of coffee or a
//!    rocket launch is refused here, before any network runs.
//! 2. **No face**: the face analysis (BlazeFace, then the mesh's face presence, as for
//!    a face score) finds none.
//! 3. **Not a hand**: the hand models' answer with a hand presence of at least one half
//!    and a "palm" (wrist to middle knuckle) of at least [`hands::HAND_PALM_FRAC`] of the short
//!    side is a hand (the hands score refuses the smaller ones, see `hands.rs`).
//! 4. **Feet**: the hand models answer (presence at least [`MIN_FOOT_PRESENCE`]) with a
//!    smaller palm; or the skin is flat-coloured, as in a drawing (a drawing of feet
//!    passes on its skin measures alone: the hand models do not answer on drawings).
//!
//! Any failure is [`AnalysisError::NotFeet`].

use crate::error::AnalysisError;
use crate::raster::Pyramid;
use crate::{face, hands};
use serde::Serialize;

/// Largest mean absolute Laplacian (luma levels, 5x5 mean) of smooth skin on the grid.
pub const SMOOTH_BELOW: f32 = 6.0;
/// Smallest share of the frame a smooth skin region needs to count (a foot is not a
/// speck).
pub const MIN_REGION_SHARE: f64 = 0.01;
/// Smallest share of the frame that counted smooth skin regions must cover together...
pub const MIN_SKIN_SHARE: f64 = 0.05;
/// ... with at least this share of the skin-coloured pixels smooth;
pub const MIN_SMOOTH_SHARE: f64 = 0.10;
/// or this much smooth skin...
pub const MIN_SMALL_SKIN_SHARE: f64 = 0.02;
/// ... that is this smooth.
pub const MIN_SMALL_SMOOTH_SHARE: f64 = 0.50;
/// The hand presence from which the hand models' answer counts as feet, when the
/// palm they found is shorter than [`hands::HAND_PALM_FRAC`].
pub const MIN_FOOT_PRESENCE: f32 = 0.35;
/// Below this mean texture (absolute Laplacian) the smooth skin is flat-coloured: a
/// drawing, which the hand models do not answer on.
pub const DRAWN_SKIN_TEXTURE: f64 = 1.0;
/// The skin a drawing of feet needs (the first version's thresholds).
pub const DRAWN_MIN_SKIN_SHARE: f64 = 0.10;
pub const DRAWN_MIN_SMOOTH_SHARE: f64 = 0.40;

/// What the feet check measured on a photo.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeetEvidence {
    /// Share of the frame in smooth skin regions of at least [`MIN_REGION_SHARE`].
    pub skin_share: f64,
    /// Share of the frame in the largest smooth skin region.
    pub largest_region: f64,
    /// Share of the skin-coloured pixels that are smooth.
    pub smooth_share: f64,
    /// The face analysis found a face (the detector, then the mesh's face presence);
    /// `None` when the skin measures already refused the photo and it was not run.
    pub face: Option<bool>,
    /// The face detector's confidence (0 when it found none) and the face mesh's face
    /// presence on what it found (0 when not run); `None` when not run.
    pub face_scores: Option<(f32, f32)>,
    /// The hand models found a hand, not a foot (rule 3 of the module notes: what the
    /// hands score accepts); `None` when not run.
    pub hand: Option<bool>,
    /// The hand landmark model's hand presence (0 when the palm detector found no palm)
    /// and the palm's length over the photo's short side (0 without a palm); `None` when
    /// not run.
    pub hand_scores: Option<(f32, f64)>,
    /// The skin is flat-coloured, as in a drawing (see [`DRAWN_SKIN_TEXTURE`]).
    pub drawn: bool,
}

impl FeetEvidence {
    /// Whether the photo passed every check.
    pub fn is_feet(&self) -> bool {
        self.skin_ok()
            && self.face == Some(false)
            && self.hand == Some(false)
            && (self.drawn || self.hand_scores.is_some_and(|(p, f)| looks_like_feet(p, f)))
    }

    /// Skin enough to look further: a fair share of smooth skin, or a little skin that
    /// is clearly smooth (small feet in a large frame).
    fn skin_ok(&self) -> bool {
        (self.skin_share >= MIN_SKIN_SHARE && self.smooth_share >= MIN_SMOOTH_SHARE)
            || (self.skin_share >= MIN_SMALL_SKIN_SHARE
                && self.smooth_share >= MIN_SMALL_SMOOTH_SHARE)
    }
}

/// Refuses with [`AnalysisError::NotFeet`] unless the photo passes every check. `grid`
/// is the photo on the measuring grid (RGB, `gw` x `gh`, 0..255).
pub(crate) fn check(
    pyr: &Pyramid,
    grid: &[f32],
    gw: usize,
    gh: usize,
) -> Result<(), AnalysisError> {
    if evidence(pyr, grid, gw, gh).is_feet() {
        Ok(())
    } else {
        Err(AnalysisError::NotFeet)
    }
}

pub(crate) fn evidence(pyr: &Pyramid, grid: &[f32], gw: usize, gh: usize) -> FeetEvidence {
    let skin = SkinMap::new(grid, gw, gh);
    let mut ev = FeetEvidence {
        skin_share: skin.skin_share,
        largest_region: skin.largest_share,
        smooth_share: skin.smooth_share,
        face: None,
        face_scores: None,
        hand: None,
        hand_scores: None,
        drawn: false,
    };
    if !ev.skin_ok() {
        return ev;
    }
    // The detector alone also fires on a cat's face, on a fist and on a drawn foot
    // (confidence 0.55-0.67): a face counts when the mesh confirms it, as for a face
    // score. Fur is the skin measures' business.
    let det = face::detect(pyr);
    let presence = det.map_or(0.0, |d| face::mesh(pyr, &face::roi(&d)).presence);
    ev.face_scores = Some((det.map_or(0.0, |d| d.score), presence));
    let face = presence >= face::min_presence();
    ev.face = Some(face);
    if face {
        return ev;
    }
    // The hand models answer on feet too: the palm detector takes a foot for a palm and
    // the landmark model gives it a hand presence of 0.4-0.98 (a bare leg without its
    // foot gets none). What tells them apart here is the size of the "palm": a hand
    // photo shows the hand close, a feet photo shows the feet with legs and floor.
    let probe = hands::probe(pyr);
    ev.hand_scores = Some((probe.presence, probe.palm_frac));
    ev.hand = Some(hands::looks_like_a_hand(probe.presence, probe.palm_frac));
    ev.drawn = drawn(&skin);
    ev
}

/// Whether an RGB colour (0..255) lies in the skin range: Chai and Ngan's YCbCr box
/// (Cb 77..127, Cr 133..173), not too dark to judge, with red above green.
fn skin_colour(r: f32, g: f32, b: f32) -> bool {
    let y = 0.299 * r + 0.587 * g + 0.114 * b;
    let cb = 128.0 - 0.168_736 * r - 0.331_264 * g + 0.5 * b;
    let cr = 128.0 + 0.5 * r - 0.418_688 * g - 0.081_312 * b;
    y > 40.0 && (77.0..=127.0).contains(&cb) && (133.0..=173.0).contains(&cr) && r > g
}

/// (skin share, largest region, smooth share) of the grid; see the module's notes.
#[cfg(test)]
fn skin_measures(rgb: &[f32], w: usize, h: usize) -> (f64, f64, f64) {
    let m = SkinMap::new(rgb, w, h);
    (m.skin_share, m.largest_share, m.smooth_share)
}

/// What the skin measures found on the grid (see the module's notes).
pub(crate) struct SkinMap {
    /// Mean absolute Laplacian of the luma over the 5x5 neighbourhoods of the smooth skin
    /// pixels (0 when there is none).
    pub skin_texture: f64,
    /// Share of the frame's border pixels that belong to the largest region.
    pub region_border: f64,
    pub skin_share: f64,
    pub largest_share: f64,
    pub smooth_share: f64,
}

impl SkinMap {
    pub(crate) fn new(rgb: &[f32], w: usize, h: usize) -> SkinMap {
        let n = w * h;
        let luma: Vec<f32> = rgb
            .chunks_exact(3)
            .map(|p| 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2])
            .collect();
        // Absolute 4-neighbour Laplacian (0 on the border), then its 5x5 mean with the
        // window clipped at the border, through a summed-area table (exact in f64).
        let mut lap = vec![0f64; n];
        for y in 1..h.saturating_sub(1) {
            for x in 1..w - 1 {
                let i = y * w + x;
                lap[i] = (luma[i - 1] + luma[i + 1] + luma[i - w] + luma[i + w] - 4.0 * luma[i])
                    .abs() as f64;
            }
        }
        let mut sat = vec![0f64; (w + 1) * (h + 1)];
        for y in 0..h {
            let mut row = 0f64;
            for x in 0..w {
                row += lap[y * w + x];
                sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + row;
            }
        }
        let mut texture = vec![0f64; n];
        let mut skin = vec![false; n];
        let (mut n_coloured, mut n_smooth) = (0usize, 0usize);
        for y in 0..h {
            let (y0, y1) = (y.saturating_sub(2), (y + 3).min(h));
            for x in 0..w {
                let i = y * w + x;
                let (x0, x1) = (x.saturating_sub(2), (x + 3).min(w));
                let s = sat[y1 * (w + 1) + x1] - sat[y0 * (w + 1) + x1] - sat[y1 * (w + 1) + x0]
                    + sat[y0 * (w + 1) + x0];
                let mean = s / ((y1 - y0) * (x1 - x0)) as f64;
                texture[i] = mean;
                let p = &rgb[3 * i..3 * i + 3];
                if !skin_colour(p[0], p[1], p[2]) {
                    continue;
                }
                n_coloured += 1;
                if mean < SMOOTH_BELOW as f64 {
                    skin[i] = true;
                    n_smooth += 1;
                }
            }
        }
        // 4-connected regions, found in raster order with an explicit stack.
        let (mut counted, mut largest_size, mut largest_start) = (0usize, 0usize, None);
        let mut label = vec![usize::MAX; n];
        let mut stack = Vec::new();
        for start in 0..n {
            if !skin[start] || label[start] != usize::MAX {
                continue;
            }
            label[start] = start;
            stack.push(start);
            let mut size = 0usize;
            while let Some(i) = stack.pop() {
                size += 1;
                let (x, y) = (i % w, i / w);
                let mut visit = |j: usize| {
                    if skin[j] && label[j] == usize::MAX {
                        label[j] = start;
                        stack.push(j);
                    }
                };
                if x > 0 {
                    visit(i - 1);
                }
                if x + 1 < w {
                    visit(i + 1);
                }
                if y > 0 {
                    visit(i - w);
                }
                if y + 1 < h {
                    visit(i + w);
                }
            }
            if size > largest_size {
                largest_size = size;
                largest_start = Some(start);
            }
            if size as f64 >= MIN_REGION_SHARE * n as f64 {
                counted += size;
            }
        }
        let largest: Vec<bool> = label
            .iter()
            .map(|&l| largest_start.is_some_and(|s| l == s))
            .collect();
        let on_border = |i: usize| {
            let (x, y) = (i % w, i / w);
            x == 0 || y == 0 || x + 1 == w || y + 1 == h
        };
        let border = (0..n).filter(|&i| largest[i] && on_border(i)).count();
        let perimeter = (2 * (w + h)).saturating_sub(4).max(1);
        let skin_texture = if n_smooth == 0 {
            0.0
        } else {
            (0..n).filter(|&i| skin[i]).map(|i| texture[i]).sum::<f64>() / n_smooth as f64
        };
        let frame = n as f64;
        SkinMap {
            skin_texture,
            region_border: border as f64 / perimeter as f64,
            skin_share: counted as f64 / frame,
            largest_share: largest_size as f64 / frame,
            smooth_share: if n_coloured == 0 {
                0.0
            } else {
                n_smooth as f64 / n_coloured as f64
            },
        }
    }
}

/// Whether the hand models' answer on a photo with skin enough and no face is a foot:
/// they answer (hand presence at least [`MIN_FOOT_PRESENCE`]) with a palm smaller than
/// [`hands::HAND_PALM_FRAC`] of the photo's short side.
pub(crate) fn looks_like_feet(presence: f32, palm_frac: f64) -> bool {
    presence >= MIN_FOOT_PRESENCE && palm_frac < hands::HAND_PALM_FRAC
}

/// A flat-coloured drawing of skin (the smooth skin's mean texture below
/// [`DRAWN_SKIN_TEXTURE`]) with skin enough by the first version's measures.
fn drawn(skin: &SkinMap) -> bool {
    skin.skin_texture < DRAWN_SKIN_TEXTURE
        && skin.skin_share >= DRAWN_MIN_SKIN_SHARE
        && skin.smooth_share >= DRAWN_MIN_SMOOTH_SHARE
}

/// Every measure the check reads, by name (see `examples/feet_features.rs`), whatever
/// the gates decide.
pub(crate) fn explore(
    pyr: &Pyramid,
    grid: &[f32],
    gw: usize,
    gh: usize,
) -> Vec<(&'static str, f64)> {
    let skin = SkinMap::new(grid, gw, gh);
    let det = face::detect(pyr);
    let presence = det.map_or(0.0, |d| face::mesh(pyr, &face::roi(&d)).presence);
    let hand = hands::probe(pyr);
    let out = vec![
        ("skin_share", skin.skin_share),
        ("largest_share", skin.largest_share),
        ("smooth_share", skin.smooth_share),
        ("skin_texture", skin.skin_texture),
        ("region_border", skin.region_border),
        ("face_score", det.map_or(0.0, |d| d.score) as f64),
        ("face_presence", presence as f64),
        ("palm_score", hand.palm_score as f64),
        ("hand_presence", hand.presence as f64),
        ("hand_palm_px", hand.palm_frac),
    ];
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(w: usize, h: usize, f: impl Fn(usize, usize) -> [f32; 3]) -> Vec<f32> {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .flat_map(|(x, y)| f(x, y))
            .collect()
    }

    #[test]
    fn light_and_dark_skin_tones_are_skin_and_sky_wood_and_grey_are_not() {
        for (r, g, b) in [
            (240.0, 205.0, 185.0),
            (200.0, 150.0, 120.0),
            (95.0, 62.0, 45.0),
        ] {
            assert!(skin_colour(r, g, b), "{r} {g} {b}");
        }
        for (r, g, b) in [
            (90.0, 140.0, 220.0),
            (128.0, 128.0, 128.0),
            (30.0, 20.0, 15.0),
            (60.0, 160.0, 60.0),
        ] {
            assert!(!skin_colour(r, g, b), "{r} {g} {b}");
        }
    }

    #[test]
    fn a_smooth_skin_patch_counts_and_the_same_colour_as_fur_does_not() {
        let (w, h) = (100, 80);
        let skin = [200.0, 150.0, 120.0];
        let grey = [90.0, 90.0, 95.0];
        // A smooth skin rectangle on grey, a third of the frame.
        let patch = fill(w, h, |x, y| {
            if (20..70).contains(&x) && (15..70).contains(&y) {
                skin
            } else {
                grey
            }
        });
        let (share, largest, smooth) = skin_measures(&patch, w, h);
        assert!(share > 0.25 && share <= 50.0 * 55.0 / 8000.0, "{share}");
        assert_eq!(share, largest);
        assert!(smooth > 0.7, "{smooth}");
        // The same colour striped light and dark every other pixel: fur-like texture.
        let striped = fill(w, h, |x, _| {
            let k = if x % 2 == 0 { 1.15 } else { 0.85 };
            [skin[0] * k, skin[1] * k, skin[2] * k]
        });
        let (share, _, smooth) = skin_measures(&striped, w, h);
        assert_eq!(share, 0.0);
        assert_eq!(smooth, 0.0);
        // Specks smaller than a region of 1% do not count.
        let specks = fill(
            w,
            h,
            |x, y| if x % 10 < 2 && y % 10 < 2 { skin } else { grey },
        );
        let (share, _, _) = skin_measures(&specks, w, h);
        assert_eq!(share, 0.0);
    }
}
