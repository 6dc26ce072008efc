//! Hands: MediaPipe's palm detector and 21-point hand landmark model (the "full"
//! variants of the mediapipe 0.10.14 wheel), each run on its input and on the input's
//! mirror image and combined, so the landmarks of a mirrored photo are the mirrored
//! landmarks (as for the face).
//!
//! Landmark order (MediaPipe): 0 wrist; thumb 1 CMC, 2 MCP, 3 IP, 4 tip; then index
//! 5-8, middle 9-12, ring 13-16 and little finger 17-20, each MCP, PIP, DIP, tip.

use crate::NormBox;
use crate::body::{body_score, breakdown_item};
use crate::decode;
use crate::detect::{self, Roi, flip_rows, largest};
use crate::error::AnalysisError;
use crate::measures::{luma_patch, mean_abs_laplacian, smoothed_spread};
use crate::raster::Pyramid;
use crate::score::{g, hands_label};
use crate::tflite::Model;
use serde::Serialize;
use std::sync::OnceLock;

const PALM: &[u8] = include_bytes!("../../../models/palm_detection_full.tflite");
const LANDMARK: &[u8] = include_bytes!("../../../models/hand_landmark_full.tflite");

/// Number of hand landmarks.
pub const HAND_LANDMARKS: usize = 21;
const PALM_SIZE: usize = 192;
const LANDMARK_SIZE: usize = 224;
/// MediaPipe Hands' defaults: detection and hand presence confidence 0.5.
const MIN_PALM_SCORE: f32 = 0.5;
pub(crate) const MIN_PRESENCE: f32 = 0.5;
/// The share of the photo's short side from which the palm the hand models found
/// (wrist to middle knuckle) is a hand's; shorter, it is a foot's (`crate::feet`).
pub(crate) const HAND_PALM_FRAC: f64 = 0.30;

/// Whether the hand models found a hand, not a foot: a hand presence of at least one
/// half (MediaPipe's default) with a palm of at least [`HAND_PALM_FRAC`] of the short
/// side.
pub(crate) fn looks_like_a_hand(presence: f32, palm_frac: f64) -> bool {
    presence >= MIN_PRESENCE && palm_frac >= HAND_PALM_FRAC
}

struct Models {
    palm: Model,
    landmark: Model,
    anchors: Vec<[f32; 2]>,
}

fn models() -> &'static Models {
    static M: OnceLock<Models> = OnceLock::new();
    M.get_or_init(|| Models {
        palm: Model::parse(PALM).expect("embedded palm model is valid"),
        landmark: Model::parse(LANDMARK).expect("embedded hand landmark model is valid"),
        // 24x24 cells of stride 8 with 2 anchors, 12x12 of stride 16 with 6: 2016.
        anchors: detect::anchors(PALM_SIZE, &[8, 16, 16, 16]),
    })
}

pub(crate) fn warm_up() {
    let _ = models();
}

/// A palm: wrist centre, then the MCP joints of the index, middle, ring and little
/// fingers, then two thumb points.
pub(crate) type Palm = detect::Detection<7>;

/// The detector's answers (its outputs on a square region's input), in working-image
/// pixels.
fn palms_in(out: &[Vec<f32>], origin: [f32; 2], side: f32, mirrored: bool) -> Vec<Palm> {
    let m = models();
    let cands = detect::decode::<7>(
        &out[0],
        &out[1],
        &m.anchors,
        PALM_SIZE,
        18,
        MIN_PALM_SCORE,
        (origin, side),
        mirrored,
    );
    detect::weighted_nms(cands)
}

/// The largest palm in the letterboxed photo, averaged with the largest palm of its
/// mirror image (the keypoints keep their meaning in a mirror: a wrist is a wrist).
pub(crate) fn detect_palm(pyr: &Pyramid) -> Option<Palm> {
    let img = pyr.base();
    let (w, h) = (img.w as f32, img.h as f32);
    let side = w.max(h);
    let origin = [w / 2.0 - side / 2.0, h / 2.0 - side / 2.0];
    let step = side / PALM_SIZE as f32;
    let mut input = pyr.warp(PALM_SIZE, PALM_SIZE, origin, [step, 0.0], [0.0, step]);
    for v in input.iter_mut() {
        *v /= 255.0;
    }
    let mut flipped = input.clone();
    flip_rows(&mut flipped, PALM_SIZE, PALM_SIZE);
    // One pair run: the two passes share each layer's weights while they are cached.
    let (out_a, out_b) = models().palm.run_pair(&input, &flipped);
    let a = largest(&palms_in(&out_a, origin, side, false));
    let b = largest(&palms_in(&out_b, origin, side, true));
    detect::symmetric(a, b)
}

/// Palm length (wrist to middle knuckle, working-image pixels) over the short side (so
/// that a hand framed alike gets the same share in a portrait and a landscape photo).
fn palm_frac(pyr: &Pyramid, pts: &[[f32; 3]; HAND_LANDMARKS]) -> f64 {
    let (dx, dy) = (
        (pts[9][0] - pts[0][0]) as f64,
        (pts[9][1] - pts[0][1]) as f64,
    );
    libm::sqrt(dx * dx + dy * dy) / pyr.base().w.min(pyr.base().h) as f64
}

/// What the hand models see on a photo, for the feet check: the palm detector's score
/// (0 when it finds no palm), the landmark model's hand presence (0 when not run) and
/// the size of the palm in the frame.
pub(crate) struct HandProbe {
    pub palm_score: f32,
    pub presence: f32,
    /// Palm length (wrist to middle knuckle) over the photo's short side; 0 without a palm.
    pub palm_frac: f64,
}

pub(crate) fn probe(pyr: &Pyramid) -> HandProbe {
    match detect_palm(pyr) {
        None => HandProbe {
            palm_score: 0.0,
            presence: 0.0,
            palm_frac: 0.0,
        },
        Some(p) => {
            let lm = landmarks(pyr, &roi(&p));
            HandProbe {
                palm_score: p.score,
                presence: lm.presence,
                palm_frac: palm_frac(pyr, &lm.points),
            }
        }
    }
}

/// MediaPipe's palm-to-hand rule: rotated so the wrist-to-middle-finger line points up,
/// moved half a box towards the fingers, square on the long side, scaled 2.6x.
pub(crate) fn roi(p: &Palm) -> Roi {
    let (w0, m0) = (p.kp[0], p.kp[2]);
    let angle = std::f32::consts::FRAC_PI_2 + libm::atan2f(m0[1] - w0[1], m0[0] - w0[0]);
    let (sn, cs) = (libm::sinf(angle), libm::cosf(angle));
    let h = p.bx[3];
    Roi {
        center: [p.bx[0] + 0.5 * h * sn, p.bx[1] - 0.5 * h * cs],
        side: p.bx[2].max(p.bx[3]) * 2.6,
        angle,
    }
}

/// The landmark model's answer, combined from the crop and its mirror image.
pub(crate) struct HandLandmarks {
    /// Working-image pixels (x, y) and relative depth in the same unit.
    pub points: [[f32; 3]; HAND_LANDMARKS],
    /// Metric 3D landmarks (metres, origin at the hand's centre), in the crop's frame.
    pub world: [[f32; 3]; HAND_LANDMARKS],
    /// Probability that the crop shows a hand.
    pub presence: f32,
}

pub(crate) fn landmarks(pyr: &Pyramid, roi: &Roi) -> HandLandmarks {
    let m = models();
    let f = roi.frame(LANDMARK_SIZE);
    let mut input = pyr.warp(LANDMARK_SIZE, LANDMARK_SIZE, f.origin, f.ux, f.uy);
    for v in input.iter_mut() {
        *v /= 255.0;
    }
    let mut mirrored = input.clone();
    flip_rows(&mut mirrored, LANDMARK_SIZE, LANDMARK_SIZE);
    let (a, b) = m.landmark.run_pair(&input, &mirrored);
    let size = LANDMARK_SIZE as f32;
    let mut points = [[0f32; 3]; HAND_LANDMARKS];
    let mut world = [[0f32; 3]; HAND_LANDMARKS];
    for i in 0..HAND_LANDMARKS {
        let (p, q) = (&a[0][i * 3..i * 3 + 3], &b[0][i * 3..i * 3 + 3]);
        let x = (p[0] + (size - q[0])) / 2.0;
        let y = (p[1] + q[1]) / 2.0;
        let z = (p[2] + q[2]) / 2.0;
        let [ix, iy] = f.to_image(x, y);
        points[i] = [ix, iy, z * f.scale];
        let (p, q) = (&a[3][i * 3..i * 3 + 3], &b[3][i * 3..i * 3 + 3]);
        world[i] = [
            (p[0] - q[0]) / 2.0,
            (p[1] + q[1]) / 2.0,
            (p[2] + q[2]) / 2.0,
        ];
    }
    HandLandmarks {
        points,
        world,
        presence: (a[1][0] + b[1][0]) / 2.0,
    }
}

// ---------------------------------------------------------------------------
// Measures

/// The four fingers (index, middle, ring, little) as their MCP, PIP, DIP and tip.
const FINGERS: [[usize; 4]; 4] = [
    [5, 6, 7, 8],
    [9, 10, 11, 12],
    [13, 14, 15, 16],
    [17, 18, 19, 20],
];
const THUMB_TIP: usize = 4;
const THUMB_IP: usize = 3;

/// What is measured on a hand, all unitless or in degrees / grey levels.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HandMeasures {
    /// Palm length (wrist to middle-finger knuckle) in pixels of the original photo.
    pub palm_length_px: f64,
    /// Finger lengths (knuckle to tip along the three bones, in 3D) over the middle
    /// finger's.
    pub index_to_middle: f64,
    pub ring_to_middle: f64,
    pub little_to_middle: f64,
    /// Middle finger over palm length (3D).
    pub middle_to_palm: f64,
    /// Mean angle between neighbouring fingers' first bones, degrees.
    pub finger_spread_deg: f64,
    /// Standard deviation of the three neighbouring-finger angles, degrees.
    pub spread_unevenness_deg: f64,
    /// Mean bend of the finger joints (0 = straight), degrees.
    pub finger_bend_deg: f64,
    /// Fingertips: mean absolute Laplacian of luma (fine texture), the spread of their
    /// smoothed luma relative to its mean, and how much the five tips' brightness differs.
    pub fingertip_texture: f64,
    pub fingertip_unevenness: f64,
    pub fingertip_contrast: f64,
    /// The back of the hand (or the palm, whichever faces the camera): texture and
    /// unevenness as for the fingertips.
    pub skin_texture: f64,
    pub skin_unevenness: f64,
    /// Mean absolute Laplacian over the whole hand: how crisp its outline and detail are.
    pub sharpness: f64,
    /// Mean luma of the hand (0..255) and the share of clipped samples.
    pub exposure: f64,
    pub clipping: f64,
}

type V3 = [f64; 3];

fn sub3(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn norm3(a: V3) -> f64 {
    libm::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
}

/// Angle between two vectors, degrees.
fn angle3(a: V3, b: V3) -> f64 {
    let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let c = (d / (norm3(a) * norm3(b)).max(1e-12)).clamp(-1.0, 1.0);
    libm::acos(c).to_degrees()
}

/// Geometry from the metric 3D landmarks (so foreshortening does not change lengths):
/// length ratios, spread, bend.
fn geometry(world: &[[f32; 3]; HAND_LANDMARKS]) -> [f64; 7] {
    let w: Vec<V3> = world
        .iter()
        .map(|p| [p[0] as f64, p[1] as f64, p[2] as f64])
        .collect();
    let length = |f: &[usize; 4]| {
        norm3(sub3(w[f[1]], w[f[0]]))
            + norm3(sub3(w[f[2]], w[f[1]]))
            + norm3(sub3(w[f[3]], w[f[2]]))
    };
    let lens: Vec<f64> = FINGERS.iter().map(length).collect();
    let middle = lens[1].max(1e-9);
    let palm = norm3(sub3(w[9], w[0])).max(1e-9);
    // Spread: angles between neighbouring fingers' first bones (knuckle to PIP).
    let bone = |f: &[usize; 4]| sub3(w[f[1]], w[f[0]]);
    let gaps: Vec<f64> = (0..3)
        .map(|i| angle3(bone(&FINGERS[i]), bone(&FINGERS[i + 1])))
        .collect();
    let spread = gaps.iter().sum::<f64>() / 3.0;
    let spread_sd = libm::sqrt(
        gaps.iter()
            .map(|g| (g - spread) * (g - spread))
            .sum::<f64>()
            / 3.0,
    );
    // Bend: the angle between consecutive bones at the PIP and DIP joints (and the
    // thumb's IP joint), 0 when straight.
    let mut bends = Vec::with_capacity(9);
    for f in &FINGERS {
        for j in 1..3 {
            bends.push(angle3(
                sub3(w[f[j]], w[f[j - 1]]),
                sub3(w[f[j + 1]], w[f[j]]),
            ));
        }
    }
    bends.push(angle3(
        sub3(w[THUMB_IP], w[2]),
        sub3(w[THUMB_TIP], w[THUMB_IP]),
    ));
    let bend = bends.iter().sum::<f64>() / bends.len() as f64;
    [
        lens[0] / middle,
        lens[2] / middle,
        lens[3] / middle,
        middle / palm,
        spread,
        spread_sd,
        bend,
    ]
}

/// Samples along a fingertip patch's side, and per palm length on the hand patches.
const TIP_GRID: usize = 12;
const HAND_GRID: f32 = 40.0;

/// Photometric measures on patches laid along the hand (resolution independent: a fixed
/// number of samples per bone or per palm length).
fn photometry(pyr: &Pyramid, pts: &[[f64; 2]]) -> [f64; 8] {
    let p = |i: usize| pts[i];
    // Fingertips: a square over each distal bone (DIP to tip, the thumb's IP to tip),
    // centred 60% of the way to the tip, along the bone.
    let mut tips = Vec::with_capacity(5);
    for (dip, tip) in FINGERS
        .iter()
        .map(|f| (f[2], f[3]))
        .chain(std::iter::once((THUMB_IP, THUMB_TIP)))
    {
        let (a, b) = (p(dip), p(tip));
        let d = [b[0] - a[0], b[1] - a[1]];
        let len = libm::sqrt(d[0] * d[0] + d[1] * d[1]).max(1e-6);
        let step = (len / TIP_GRID as f64) as f32;
        let ey = [(d[0] / len) as f32 * step, (d[1] / len) as f32 * step];
        let ex = [-ey[1], ey[0]];
        let c = [(a[0] + 0.6 * d[0]) as f32, (a[1] + 0.6 * d[1]) as f32];
        tips.push(luma_patch(pyr, c, ex, ey, TIP_GRID, TIP_GRID));
    }
    let tip_texture = tips
        .iter()
        .map(|t| mean_abs_laplacian(t, TIP_GRID, TIP_GRID))
        .sum::<f64>()
        / tips.len() as f64;
    let (tip_mean, tip_unevenness) = smoothed_spread(&tips, TIP_GRID);
    let tip_means: Vec<f64> = tips
        .iter()
        .map(|t| t.iter().map(|&v| v as f64).sum::<f64>() / t.len() as f64)
        .collect();
    let tip_contrast = libm::sqrt(
        tip_means
            .iter()
            .map(|m| (m - tip_mean) * (m - tip_mean))
            .sum::<f64>()
            / tip_means.len() as f64,
    ) / tip_mean.max(1.0);

    // The hand's own frame: y from the wrist to the middle knuckle.
    let (w0, m0) = (p(0), p(9));
    let axis = [m0[0] - w0[0], m0[1] - w0[1]];
    let palm = libm::sqrt(axis[0] * axis[0] + axis[1] * axis[1]).max(1e-6);
    let step = (palm / HAND_GRID as f64) as f32;
    let uy = [
        (axis[0] / palm) as f32 * step,
        (axis[1] / palm) as f32 * step,
    ];
    let ux = [-uy[1], uy[0]];
    // Back of the hand: 0.5 palm lengths square at the centre of the wrist and the four
    // knuckles.
    let centre = [5usize, 9, 13, 17].iter().fold([w0[0], w0[1]], |acc, &i| {
        [acc[0] + p(i)[0], acc[1] + p(i)[1]]
    });
    let centre = [(centre[0] / 5.0) as f32, (centre[1] / 5.0) as f32];
    let side = HAND_GRID as usize / 2;
    let back = luma_patch(pyr, centre, ux, uy, side, side);
    let skin_texture = mean_abs_laplacian(&back, side, side);
    let (_, skin_unevenness) = smoothed_spread(std::slice::from_ref(&back), side);

    // The whole hand: 1.6 palm lengths square around the middle finger's knuckle.
    let whole = HAND_GRID as usize * 16 / 10;
    let hand = luma_patch(pyr, [m0[0] as f32, m0[1] as f32], ux, uy, whole, whole);
    let sharpness = mean_abs_laplacian(&hand, whole, whole);
    // Exposure and clipping on the skin itself (fingertips and back of the hand).
    let skin: Vec<f32> = tips.iter().flatten().chain(back.iter()).copied().collect();
    let exposure = skin.iter().map(|&v| v as f64).sum::<f64>() / skin.len() as f64;
    let clipping = skin
        .iter()
        .filter(|&&v| !(6.0..=249.0).contains(&v))
        .count() as f64
        / skin.len() as f64;
    [
        tip_texture,
        tip_unevenness,
        tip_contrast,
        skin_texture,
        skin_unevenness,
        sharpness,
        exposure,
        clipping,
    ]
}

// ---------------------------------------------------------------------------
// Score

/// Hands breakdown (the spec's keys), each out of 10.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HandsBreakdown {
    pub finger_proportions: f64,
    pub skin_quality: f64,
    pub nail_appearance: f64,
    pub overall_aesthetics: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HandsAnalysis {
    /// 7.0 to 10.0, one decimal.
    pub score: f64,
    pub rating_label: &'static str,
    pub breakdown: HandsBreakdown,
    /// Size of the upright original image in pixels.
    pub image_width: u32,
    pub image_height: u32,
    /// The hand's bounding box (landmarks), normalised to the upright image.
    pub hand_box: NormBox,
    /// The 21 landmarks (x, y) normalised to the upright image, in MediaPipe's order.
    pub landmarks: Vec<[f32; 2]>,
    pub measures: HandMeasures,
}

// Ideals and tolerances (the deviation at which a measure's goodness halves). Length
// ratios: typical proportions measured from the knuckles along the model's 3D landmarks
// (index and ring a little shorter than the middle finger, the little finger about 0.7
// of it, the middle finger about as long as the palm; the test hands measure 0.83-0.88,
// 0.86-0.96, 0.68-0.73 and 1.02-1.12).
const IDEAL_INDEX: f64 = 0.88;
const IDEAL_RING: f64 = 0.92;
const IDEAL_LITTLE: f64 = 0.71;
const IDEAL_MIDDLE_PALM: f64 = 1.0;
const TOL_RATIO: f64 = 0.08;
const TOL_MIDDLE_PALM: f64 = 0.15;
/// A relaxed, gently spread hand.
const IDEAL_SPREAD_DEG: f64 = 10.0;
const TOL_SPREAD_DEG: f64 = 8.0;
const TOL_SPREAD_SD_DEG: f64 = 5.0;
const IDEAL_BEND_DEG: f64 = 15.0;
const TOL_BEND_DEG: f64 = 25.0;
const TOL_TIP_TEXTURE: f64 = 10.0;
const TOL_TIP_UNEVENNESS: f64 = 0.25;
const TOL_SKIN_UNEVENNESS: f64 = 0.15;
const TOL_TIP_CONTRAST: f64 = 0.12;
const TOL_SKIN_TEXTURE: f64 = 8.0;
const SHARP_REFERENCE: f64 = 6.0;
const IDEAL_EXPOSURE: f64 = 150.0;
const TOL_EXPOSURE: f64 = 55.0;
const TOL_CLIPPING: f64 = 0.08;

/// Sub-qualities in 0..1: finger proportions, nails, skin, overall.
fn qualities(m: &HandMeasures) -> [f64; 4] {
    let proportions = 0.20 * g((m.index_to_middle - IDEAL_INDEX).abs(), TOL_RATIO)
        + 0.20 * g((m.ring_to_middle - IDEAL_RING).abs(), TOL_RATIO)
        + 0.15 * g((m.little_to_middle - IDEAL_LITTLE).abs(), TOL_RATIO)
        + 0.15
            * g(
                (m.middle_to_palm - IDEAL_MIDDLE_PALM).abs(),
                TOL_MIDDLE_PALM,
            )
        + 0.15
            * g(
                (m.finger_spread_deg - IDEAL_SPREAD_DEG).abs(),
                TOL_SPREAD_DEG,
            )
        + 0.15 * g(m.spread_unevenness_deg, TOL_SPREAD_SD_DEG);
    let nails = 0.4 * g(m.fingertip_texture, TOL_TIP_TEXTURE)
        + 0.4 * g(m.fingertip_unevenness, TOL_TIP_UNEVENNESS)
        + 0.2 * g(m.fingertip_contrast, TOL_TIP_CONTRAST);
    let skin =
        0.5 * g(m.skin_texture, TOL_SKIN_TEXTURE) + 0.5 * g(m.skin_unevenness, TOL_SKIN_UNEVENNESS);
    let sharp_dev = (1.0 - m.sharpness / SHARP_REFERENCE).max(0.0);
    let overall = 0.35 * g((m.finger_bend_deg - IDEAL_BEND_DEG).abs(), TOL_BEND_DEG)
        + 0.35 * g(sharp_dev, 0.5)
        + 0.15 * g((m.exposure - IDEAL_EXPOSURE).abs(), TOL_EXPOSURE)
        + 0.15 * g(m.clipping, TOL_CLIPPING);
    [proportions, nails, skin, overall]
}

/// Score a hands photo. In plain words: the hand is found (palm detector, then 21
/// landmarks on the hand and on its mirror image); each sub-score is a quality in 0..1
/// from its measures (each measure's goodness is 1 at its ideal and halves at its
/// tolerance); the overall quality is 30% finger proportions, 20% nails, 20% skin and
/// 30% overall aesthetics; the score is `7 + 3 x quality^1.5`, and each breakdown item
/// is the score moved by up to one point by its own quality.
pub fn analyze_hands(bytes: &[u8]) -> Result<HandsAnalysis, AnalysisError> {
    let decoded = decode::decode(bytes)?;
    let (img_w, img_h) = (decoded.image.w as f64, decoded.image.h as f64);
    let px_scale = decoded.original_size.0 as f64 / img_w;
    let pyr = Pyramid::new(decoded.image);
    let palm = detect_palm(&pyr).ok_or(AnalysisError::NoHand)?;
    let lm = landmarks(&pyr, &roi(&palm));
    if lm.presence < MIN_PRESENCE {
        return Err(AnalysisError::NoHand);
    }
    // The hand models also answer on feet, with a small "palm" in a photo of feet and
    // legs (crate::feet): a hand must be photographed close.
    if !looks_like_a_hand(lm.presence, palm_frac(&pyr, &lm.points)) {
        return Err(AnalysisError::NoHand);
    }
    let pts: Vec<[f64; 2]> = lm
        .points
        .iter()
        .map(|p| [p[0] as f64, p[1] as f64])
        .collect();
    // A hand cut off by the border (more than two landmarks outside) or too small to
    // measure is no whole hand to score.
    let outside = pts
        .iter()
        .filter(|p| p[0] < 0.0 || p[1] < 0.0 || p[0] > img_w || p[1] > img_h)
        .count();
    let palm_px = libm::sqrt((pts[9][0] - pts[0][0]).powi(2) + (pts[9][1] - pts[0][1]).powi(2));
    if outside > 2 || palm_px * px_scale < MIN_PALM_PX {
        return Err(AnalysisError::NoHand);
    }
    let geo = geometry(&lm.world);
    let ph = photometry(&pyr, &pts);
    let measures = HandMeasures {
        palm_length_px: palm_px * px_scale,
        index_to_middle: geo[0],
        ring_to_middle: geo[1],
        little_to_middle: geo[2],
        middle_to_palm: geo[3],
        finger_spread_deg: geo[4],
        spread_unevenness_deg: geo[5],
        finger_bend_deg: geo[6],
        fingertip_texture: ph[0],
        fingertip_unevenness: ph[1],
        fingertip_contrast: ph[2],
        skin_texture: ph[3],
        skin_unevenness: ph[4],
        sharpness: ph[5],
        exposure: ph[6],
        clipping: ph[7],
    };
    let [proportions, nails, skin, overall] = qualities(&measures);
    let quality = 0.30 * proportions + 0.20 * nails + 0.20 * skin + 0.30 * overall;
    let score = body_score(quality);
    let nx = |p: [f64; 2]| [(p[0] / img_w) as f32, (p[1] / img_h) as f32];
    let hand_box = NormBox::around(&pts, img_w, img_h);
    Ok(HandsAnalysis {
        score,
        rating_label: hands_label(score),
        breakdown: HandsBreakdown {
            finger_proportions: breakdown_item(score, proportions),
            skin_quality: breakdown_item(score, skin),
            nail_appearance: breakdown_item(score, nails),
            overall_aesthetics: breakdown_item(score, overall),
        },
        image_width: decoded.original_size.0,
        image_height: decoded.original_size.1,
        hand_box,
        landmarks: pts.iter().map(|&p| nx(p)).collect(),
        measures,
    })
}

/// Below this palm length (wrist to middle knuckle, pixels of the original photo) the
/// fingertips are a few pixels wide: nothing to measure.
const MIN_PALM_PX: f64 = 40.0;
