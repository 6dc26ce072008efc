//! Face detection (MediaPipe BlazeFace, short range) and the 468-point Face Mesh, run
//! on the face and on its mirror image and combined, so every landmark-based measure is
//! mirror-symmetric by construction.

use crate::detect::{self, Roi, flip_rows, largest, sigmoid};
use crate::raster::Pyramid;
use crate::tflite::Model;
use std::sync::OnceLock;

const DETECTOR: &[u8] = include_bytes!("../../../models/face_detection_short_range.tflite");
const MESH: &[u8] = include_bytes!("../../../models/face_landmark.tflite");
const MIRROR: &str = include_str!("../../../models/face_landmark_mirror.txt");

/// Number of mesh landmarks.
pub const LANDMARKS: usize = 468;
const DET_SIZE: usize = 128;
const MESH_SIZE: usize = 192;
const MIN_DETECTION_SCORE: f32 = 0.5;
const MIN_PRESENCE: f32 = 0.5;

pub(crate) struct Models {
    detector: Model,
    mesh: Model,
    anchors: Vec<[f32; 2]>,
    pub mirror: Vec<usize>,
}

pub(crate) fn models() -> &'static Models {
    static M: OnceLock<Models> = OnceLock::new();
    M.get_or_init(|| Models {
        detector: Model::parse(DETECTOR).expect("embedded detector model is valid"),
        mesh: Model::parse(MESH).expect("embedded mesh model is valid"),
        anchors: detect::anchors(DET_SIZE, &[8, 16, 16, 16]),
        mirror: parse_mirror(MIRROR),
    })
}

fn parse_mirror(text: &str) -> Vec<usize> {
    let v: Vec<usize> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.parse().ok())
        .collect();
    if v.len() == LANDMARKS {
        v
    } else {
        (0..LANDMARKS).collect()
    }
}

/// A detected face: right eye, left eye, nose tip, mouth, right ear, left ear (the
/// subject's sides).
pub(crate) type Detection = detect::Detection<6>;

/// The detector's input for a square region of the image (outside the image reads as
/// black: letterboxing), scaled to -1..1.
fn detector_input(pyr: &Pyramid, origin: [f32; 2], side: f32) -> Vec<f32> {
    let step = side / DET_SIZE as f32;
    let mut input = pyr.warp(DET_SIZE, DET_SIZE, origin, [step, 0.0], [0.0, step]);
    for v in input.iter_mut() {
        *v = *v / 127.5 - 1.0;
    }
    input
}

/// The faces in the detector's outputs on a region's input (`mirrored`: the region's
/// mirror image) after weighted non-maximum suppression, in working-image pixels of the
/// unmirrored image.
fn detect_in(out: &[Vec<f32>], origin: [f32; 2], side: f32, mirrored: bool) -> Vec<Detection> {
    let m = models();
    let mut cands = detect::decode::<6>(
        &out[0],
        &out[1],
        &m.anchors,
        DET_SIZE,
        16,
        MIN_DETECTION_SCORE,
        (origin, side),
        mirrored,
    );
    if mirrored {
        // The mirror's right eye is the subject's left eye, and so on.
        for d in cands.iter_mut() {
            d.kp.swap(0, 1);
            d.kp.swap(4, 5);
        }
    }
    detect::weighted_nms(cands)
}

/// Faces smaller than this share of the letterboxed image are detected again on a crop
/// three face-widths wide around them, where they fill the detector's view (BlazeFace
/// short-range is made for faces that fill a good part of the frame).
const REFINE_BELOW: f32 = 0.4;

/// Find the largest face. Every detection used is the average of the detector's answer
/// on a region and on its mirror image, so the face region is mirror-symmetric by
/// construction; small faces are first located on the whole image that way and then
/// detected again (the same way) on a crop around them.
pub(crate) fn detect(pyr: &Pyramid) -> Option<Detection> {
    let img = pyr.base();
    let (w, h) = (img.w as f32, img.h as f32);
    let side = w.max(h);
    let origin = [w / 2.0 - side / 2.0, h / 2.0 - side / 2.0];
    let first = detect_symmetric(pyr, origin, side)?;
    if first.bx[2].max(first.bx[3]) >= REFINE_BELOW * side {
        return Some(first);
    }
    let s = first.bx[2].max(first.bx[3]) * 3.0;
    let o = [first.bx[0] - s / 2.0, first.bx[1] - s / 2.0];
    Some(detect_symmetric(pyr, o, s).unwrap_or(first))
}

/// The largest face in a region, averaged with the largest face found in the region's
/// mirror image (when they are the same face).
fn detect_symmetric(pyr: &Pyramid, origin: [f32; 2], side: f32) -> Option<Detection> {
    // The mirror image's input is the region's input flipped (one resample, not two).
    let input = detector_input(pyr, origin, side);
    let mut flipped = input.clone();
    flip_rows(&mut flipped, DET_SIZE, DET_SIZE);
    let (out_a, out_b) = models().detector.run_pair(&input, &flipped);
    let a = largest(&detect_in(&out_a, origin, side, false));
    let b = largest(&detect_in(&out_b, origin, side, true));
    detect::symmetric(a, b)
}

/// The rotated square the mesh looks at (MediaPipe's detection-to-ROI rule: box scaled
/// 1.5x, square on the long side, rotated so the eyes are level).
pub(crate) fn roi(d: &Detection) -> Roi {
    let (r, l) = (d.kp[0], d.kp[1]);
    let angle = libm::atan2f(l[1] - r[1], l[0] - r[0]);
    Roi {
        center: [d.bx[0], d.bx[1]],
        side: d.bx[2].max(d.bx[3]) * 1.5,
        angle,
    }
}

/// Mesh output: landmarks in working-image pixels (x, y, z), and the face presence score.
pub(crate) struct Mesh {
    pub points: Vec<[f32; 3]>,
    pub presence: f32,
}

/// Run the mesh on the ROI crop and on its mirror and average the two (with the mirrored
/// run's points re-indexed through the mesh's left/right pairing).
pub(crate) fn mesh(pyr: &Pyramid, roi: &Roi) -> Mesh {
    let m = models();
    let f = roi.frame(MESH_SIZE);
    let mut input = pyr.warp(MESH_SIZE, MESH_SIZE, f.origin, f.ux, f.uy);
    for v in input.iter_mut() {
        *v /= 255.0;
    }
    let mut mirrored = input.clone();
    flip_rows(&mut mirrored, MESH_SIZE, MESH_SIZE);
    let (a, b) = m.mesh.run_pair(&input, &mirrored);
    let size = MESH_SIZE as f32;
    let mut points = Vec::with_capacity(LANDMARKS);
    for i in 0..LANDMARKS {
        let j = m.mirror[i];
        let p = &a[0][i * 3..i * 3 + 3];
        let q = &b[0][j * 3..j * 3 + 3];
        let x = (p[0] + (size - q[0])) / 2.0;
        let y = (p[1] + q[1]) / 2.0;
        let z = (p[2] + q[2]) / 2.0;
        let [ix, iy] = f.to_image(x, y);
        points.push([ix, iy, z * f.scale]);
    }
    let presence = (sigmoid(a[1][0]) + sigmoid(b[1][0])) / 2.0;
    Mesh { points, presence }
}

pub(crate) fn min_presence() -> f32 {
    MIN_PRESENCE
}

/// Derive the left/right pairing of the mesh from the network itself: run it on a
/// perfectly symmetric face crop (a face averaged with its mirror) and pair every point
/// with the point nearest to its reflection. Used by `examples/derive_mirror_table.rs`
/// to regenerate `models/face_landmark_mirror.txt`.
#[doc(hidden)]
pub fn derive_mirror_table(pyr: &Pyramid) -> Option<Vec<usize>> {
    let m = models();
    let d = detect(pyr)?;
    let f = roi(&d).frame(MESH_SIZE);
    let input = pyr.warp(MESH_SIZE, MESH_SIZE, f.origin, f.ux, f.uy);
    let mut flipped = input.clone();
    flip_rows(&mut flipped, MESH_SIZE, MESH_SIZE);
    let sym: Vec<f32> = input
        .iter()
        .zip(&flipped)
        .map(|(a, b)| (a + b) / 2.0 / 255.0)
        .collect();
    let out = m.mesh.run(&sym);
    let p: Vec<[f32; 3]> = out[0].chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    // Minimum-cost assignment (not greedy nearest neighbours, which collide in the dense
    // eye and lip contours), with a symmetric cost so the result is an involution.
    let cost: Vec<Vec<f64>> = (0..LANDMARKS)
        .map(|i| {
            (0..LANDMARKS)
                .map(|j| {
                    let qi = [MESH_SIZE as f32 - p[i][0], p[i][1], p[i][2]];
                    let qj = [MESH_SIZE as f32 - p[j][0], p[j][1], p[j][2]];
                    (libm::sqrtf(dist3(&qi, &p[j])) + libm::sqrtf(dist3(&qj, &p[i]))) as f64
                })
                .collect()
        })
        .collect();
    Some(assignment(&cost))
}

/// Hungarian algorithm (potentials, O(n^3)): the permutation minimising total cost.
fn assignment(c: &[Vec<f64>]) -> Vec<usize> {
    let n = c.len();
    let inf = f64::INFINITY;
    let (mut u, mut v) = (vec![0f64; n + 1], vec![0f64; n + 1]);
    let (mut p, mut way) = (vec![0usize; n + 1], vec![0usize; n + 1]);
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=n {
                if !used[j] {
                    let cur = c[i0 - 1][j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut ans = vec![0usize; n];
    for j in 1..=n {
        ans[p[j] - 1] = j - 1;
    }
    ans
}

fn dist3(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])
}
