//! What the face and the hand pipelines share: MediaPipe's SSD detectors (anchors, box
//! and keypoint decoding, weighted non-maximum suppression, the mirrored second pass)
//! and the rotated square crop a landmark model looks at.

/// A detection in working-image pixels with `K` keypoints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detection<const K: usize> {
    pub score: f32,
    /// Centre x, centre y, width, height.
    pub bx: [f32; 4],
    pub kp: [[f32; 2]; K],
}

pub(crate) fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-v.clamp(-100.0, 100.0)))
}

/// SSD anchor centres of a square `size` input (MediaPipe's SsdAnchorsCalculator with
/// fixed anchor size and one aspect ratio: two anchors per cell and layer, layers of
/// the same stride sharing one grid).
pub(crate) fn anchors(size: usize, strides: &[usize]) -> Vec<[f32; 2]> {
    let mut out = Vec::new();
    let mut layer = 0;
    while layer < strides.len() {
        let mut last = layer;
        let mut per_cell = 0;
        while last < strides.len() && strides[last] == strides[layer] {
            per_cell += 2;
            last += 1;
        }
        let fm = size.div_ceil(strides[layer]);
        for y in 0..fm {
            for x in 0..fm {
                for _ in 0..per_cell {
                    out.push([(x as f32 + 0.5) / fm as f32, (y as f32 + 0.5) / fm as f32]);
                }
            }
        }
        layer = last;
    }
    out
}

/// The candidates above `min_score` of one detector pass over a square region
/// (`origin`, `side` in working-image pixels), in working-image pixels of the unmirrored
/// image (`mirrored`: the pass looked at the region's mirror image). `reg` holds
/// `stride` values per anchor: box centre and size, then the keypoints' x and y.
#[allow(clippy::too_many_arguments)]
pub(crate) fn decode<const K: usize>(
    reg: &[f32],
    cls: &[f32],
    anchors: &[[f32; 2]],
    size: usize,
    stride: usize,
    min_score: f32,
    (origin, side): ([f32; 2], f32),
    mirrored: bool,
) -> Vec<Detection<K>> {
    let mut cands = Vec::new();
    for (i, a) in anchors.iter().enumerate() {
        let score = sigmoid(cls[i]);
        if score < min_score {
            continue;
        }
        let r = &reg[i * stride..(i + 1) * stride];
        let s = size as f32;
        let mx = |x: f32| if mirrored { 1.0 - x } else { x };
        let to_px = |x: f32, y: f32| [origin[0] + mx(x) * side, origin[1] + y * side];
        let c = to_px(r[0] / s + a[0], r[1] / s + a[1]);
        let mut kp = [[0f32; 2]; K];
        for (k, p) in kp.iter_mut().enumerate() {
            *p = to_px(r[4 + 2 * k] / s + a[0], r[5 + 2 * k] / s + a[1]);
        }
        cands.push(Detection {
            score,
            bx: [c[0], c[1], r[2] / s * side, r[3] / s * side],
            kp,
        });
    }
    cands
}

pub(crate) fn iou<const K: usize>(a: &Detection<K>, b: &Detection<K>) -> f32 {
    let (ax0, ax1) = (a.bx[0] - a.bx[2] / 2.0, a.bx[0] + a.bx[2] / 2.0);
    let (ay0, ay1) = (a.bx[1] - a.bx[3] / 2.0, a.bx[1] + a.bx[3] / 2.0);
    let (bx0, bx1) = (b.bx[0] - b.bx[2] / 2.0, b.bx[0] + b.bx[2] / 2.0);
    let (by0, by1) = (b.bx[1] - b.bx[3] / 2.0, b.bx[1] + b.bx[3] / 2.0);
    let iw = (ax1.min(bx1) - ax0.max(bx0)).max(0.0);
    let ih = (ay1.min(by1) - ay0.max(by0)).max(0.0);
    let inter = iw * ih;
    let union = a.bx[2] * a.bx[3] + b.bx[2] * b.bx[3] - inter;
    if union > 0.0 { inter / union } else { 0.0 }
}

/// MediaPipe's weighted non-maximum suppression (overlap 0.3): each group of
/// overlapping candidates becomes their score-weighted average.
pub(crate) fn weighted_nms<const K: usize>(mut cands: Vec<Detection<K>>) -> Vec<Detection<K>> {
    // Stable order: score, then position, so ties never depend on anything else.
    cands.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.bx[0].total_cmp(&b.bx[0]))
    });
    let mut out = Vec::new();
    while let Some(first) = cands.first().copied() {
        let (group, rest): (Vec<Detection<K>>, Vec<Detection<K>>) =
            cands.into_iter().partition(|c| iou(&first, c) > 0.3);
        cands = rest;
        let total: f32 = group.iter().map(|d| d.score).sum();
        let mut merged = Detection {
            score: first.score,
            bx: [0.0; 4],
            kp: [[0.0; 2]; K],
        };
        for d in &group {
            let wgt = d.score / total;
            for k in 0..4 {
                merged.bx[k] += d.bx[k] * wgt;
            }
            for k in 0..K {
                merged.kp[k][0] += d.kp[k][0] * wgt;
                merged.kp[k][1] += d.kp[k][1] * wgt;
            }
        }
        out.push(merged);
    }
    out
}

pub(crate) fn largest<const K: usize>(dets: &[Detection<K>]) -> Option<Detection<K>> {
    dets.iter()
        .copied()
        .max_by(|a, b| (a.bx[2] * a.bx[3]).total_cmp(&(b.bx[2] * b.bx[3])))
}

/// The answer of a pass over a region and of the pass over its mirror image combined:
/// their average when they found the same object, else the more confident one.
pub(crate) fn symmetric<const K: usize>(
    a: Option<Detection<K>>,
    b: Option<Detection<K>>,
) -> Option<Detection<K>> {
    match (a, b) {
        (Some(a), Some(b)) if iou(&a, &b) > 0.3 => {
            let mut d = a;
            d.score = (a.score + b.score) / 2.0;
            for k in 0..4 {
                d.bx[k] = (a.bx[k] + b.bx[k]) / 2.0;
            }
            for k in 0..K {
                d.kp[k] = [
                    (a.kp[k][0] + b.kp[k][0]) / 2.0,
                    (a.kp[k][1] + b.kp[k][1]) / 2.0,
                ];
            }
            Some(d)
        }
        (Some(a), Some(b)) => Some(if a.score >= b.score { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// Mirror an interleaved RGB `w` x `h` float image left to right, in place.
pub(crate) fn flip_rows(data: &mut [f32], w: usize, h: usize) {
    for y in 0..h {
        let row = &mut data[y * w * 3..(y + 1) * w * 3];
        for x in 0..w / 2 {
            for c in 0..3 {
                row.swap(x * 3 + c, (w - 1 - x) * 3 + c);
            }
        }
    }
}

/// A rotated square of the image that a landmark model looks at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Roi {
    pub center: [f32; 2],
    pub side: f32,
    /// Radians; the crop's x axis is `(cos, sin)` in the image.
    pub angle: f32,
}

/// A `size` x `size` sampling grid over a [`Roi`]: crop pixel `(x, y)` is at
/// `origin + x * ux + y * uy` in the image.
pub(crate) struct Frame {
    pub origin: [f32; 2],
    pub ux: [f32; 2],
    pub uy: [f32; 2],
    /// Image pixels per crop pixel.
    pub scale: f32,
}

impl Roi {
    pub fn frame(&self, size: usize) -> Frame {
        let s = self.side / size as f32;
        let (cs, sn) = (libm::cosf(self.angle), libm::sinf(self.angle));
        let ux = [s * cs, s * sn];
        let uy = [-s * sn, s * cs];
        let half = size as f32 / 2.0;
        let origin = [
            self.center[0] - half * ux[0] - half * uy[0],
            self.center[1] - half * ux[1] - half * uy[1],
        ];
        Frame {
            origin,
            ux,
            uy,
            scale: s,
        }
    }
}

impl Frame {
    /// Crop coordinates to image coordinates.
    pub fn to_image(&self, x: f32, y: f32) -> [f32; 2] {
        [
            self.origin[0] + x * self.ux[0] + y * self.uy[0],
            self.origin[1] + x * self.ux[1] + y * self.uy[1],
        ]
    }
}
