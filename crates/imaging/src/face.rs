//! The face, found once per edit by the analysis crate on the original upload.
//!
//! The analysis reports the face box and the 468 mesh landmarks normalised to the
//! upright image, and every geometric operation here only rescales the whole photo, so
//! the same normalised positions hold for the working image at any step.

/// A face in normalised coordinates (0..1 of the upright image).
#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    /// x, y, width, height.
    pub bbox: [f32; 4],
    /// MediaPipe Face Mesh order.
    pub landmarks: Vec<[f32; 2]>,
}

impl Face {
    /// The landmarks in pixels of a `w` x `h` image.
    pub fn points_px(&self, w: usize, h: usize) -> Vec<[f32; 2]> {
        self.landmarks
            .iter()
            .map(|p| [p[0] * w as f32, p[1] * h as f32])
            .collect()
    }

    /// The box in pixels of a `w` x `h` image: x0, y0, x1, y1.
    pub fn bbox_px(&self, w: usize, h: usize) -> [f32; 4] {
        let [x, y, bw, bh] = self.bbox;
        [
            x * w as f32,
            y * h as f32,
            (x + bw) * w as f32,
            (y + bh) * h as f32,
        ]
    }
}

/// Runs the analysis at most once, only if an operation needs the face.
pub struct FaceLookup<'a> {
    bytes: &'a [u8],
    found: Option<Option<Face>>,
}

impl<'a> FaceLookup<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        FaceLookup { bytes, found: None }
    }

    /// A lookup that already knows the answer (tests, callers with their own analysis).
    #[cfg(test)]
    pub fn known(face: Option<Face>) -> FaceLookup<'static> {
        FaceLookup {
            bytes: &[],
            found: Some(face),
        }
    }

    /// The largest face, or None when there is none (or it is too small or cut off to
    /// be measured, which for an edit means the same).
    pub fn face(&mut self) -> Option<&Face> {
        let bytes = self.bytes;
        self.found
            .get_or_insert_with(|| {
                prettyscore_analysis::analyze_face(bytes)
                    .ok()
                    .map(|a| Face {
                        bbox: [
                            a.face_box.x,
                            a.face_box.y,
                            a.face_box.width,
                            a.face_box.height,
                        ],
                        landmarks: a.landmarks,
                    })
            })
            .as_ref()
    }
}
