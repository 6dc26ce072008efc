//! Person segmentation: MediaPipe's selfie segmentation model, for background edits.
//!
//! The photo is stretched (not letterboxed, as MediaPipe does) onto the model's input:
//! 256 x 256 for photos up to 1.4 times wider than high, the landscape model's 256 x 144
//! for wider ones (it was trained on 16:9 frames, and a wide photo squeezed into a
//! square loses the person's width). The input is an area average of the photo's pixels,
//! read straight from the caller's buffer (no copy of the photo). The model answers, per
//! input pixel, the probability that it shows a person.

use crate::tflite::Model;
use std::sync::OnceLock;

const SQUARE: &[u8] = include_bytes!("../../../models/selfie_segmentation.tflite");
const LANDSCAPE: &[u8] = include_bytes!("../../../models/selfie_segmentation_landscape.tflite");

/// From this width-to-height ratio on, the landscape model is used.
const LANDSCAPE_FROM: f32 = 1.4;
/// Below this share of the frame (pixels with a probability of at least one half) the
/// model has found no person.
const MIN_PERSON_SHARE: f32 = 0.01;

struct Models {
    square: Model,
    landscape: Model,
}

/// The two models, or None if they cannot be read (never with the embedded files, which
/// the tests check; callers then fall back to what they did without a model).
fn models() -> Option<&'static Models> {
    static M: OnceLock<Option<Models>> = OnceLock::new();
    M.get_or_init(|| {
        Some(Models {
            square: Model::parse(SQUARE).ok()?,
            landscape: Model::parse(LANDSCAPE).ok()?,
        })
    })
    .as_ref()
}

/// Parse the models ahead of the first use.
pub(crate) fn warm_up() {
    let _ = models();
}

/// Where the person is: the probability that each cell shows a person, on a grid
/// stretched over the whole photo (cell `(x, y)` covers the photo's pixels from
/// `x * width / grid_w` to `(x + 1) * width / grid_w`, and likewise down).
#[derive(Clone, Debug, PartialEq)]
pub struct PersonMask {
    /// Grid size: 256 x 256, or 256 x 144 for wide photos.
    pub width: usize,
    pub height: usize,
    /// Row-major probabilities, 0..1.
    pub data: Vec<f32>,
}

impl PersonMask {
    /// Share of the grid that is more likely person than not.
    pub fn person_share(&self) -> f32 {
        let n = self.data.iter().filter(|&&p| p >= 0.5).count();
        n as f32 / self.data.len().max(1) as f32
    }
}

/// Find the person in a photo given as 8-bit RGB rows (`rgb.len() == width * height * 3`).
/// None when the input is empty or inconsistent, when the model cannot run, or when it
/// finds no person (less than 1% of the frame).
pub fn segment_person(rgb: &[u8], width: usize, height: usize) -> Option<PersonMask> {
    if width == 0 || height == 0 || rgb.len() != width * height * 3 {
        return None;
    }
    let m = models()?;
    let landscape = width as f32 >= LANDSCAPE_FROM * height as f32;
    let model = if landscape { &m.landscape } else { &m.square };
    let (gh, gw, _) = model.input_hwc();
    let input = area_average(rgb, width, height, gw, gh);
    let data = model.run(&input).into_iter().next()?;
    if data.len() != gw * gh {
        return None;
    }
    let mask = PersonMask {
        width: gw,
        height: gh,
        data,
    };
    (mask.person_share() >= MIN_PERSON_SHARE).then_some(mask)
}

/// The photo reduced to `gw` x `gh` by averaging each cell's pixels (cells with integer
/// bounds; a photo smaller than the grid repeats its pixels), as 0..1 floats.
fn area_average(rgb: &[u8], w: usize, h: usize, gw: usize, gh: usize) -> Vec<f32> {
    let bounds = |i: usize, n: usize, g: usize| {
        let lo = (i * n / g).min(n - 1);
        (lo, ((i + 1) * n / g).max(lo + 1))
    };
    let cols: Vec<(usize, usize)> = (0..gw).map(|x| bounds(x, w, gw)).collect();
    let mut out = Vec::with_capacity(gw * gh * 3);
    let mut sums = vec![0u32; gw * 3];
    for gy in 0..gh {
        let (y0, y1) = bounds(gy, h, gh);
        sums.fill(0);
        for row in rgb[y0 * w * 3..y1 * w * 3].chunks_exact(w * 3) {
            for (s, &(x0, x1)) in sums.chunks_exact_mut(3).zip(&cols) {
                for px in row[x0 * 3..x1 * 3].chunks_exact(3) {
                    s[0] += px[0] as u32;
                    s[1] += px[1] as u32;
                    s[2] += px[2] as u32;
                }
            }
        }
        for (s, &(x0, x1)) in sums.chunks_exact(3).zip(&cols) {
            let n = ((x1 - x0) * (y1 - y0)) as f32 * 255.0;
            out.extend(s.iter().map(|&v| v as f32 / n));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_average_averages_whole_cells_and_repeats_small_photos() {
        // 4 x 2 photo onto a 2 x 1 grid: each cell averages a 2 x 2 block.
        let rgb: Vec<u8> = (0..8u8).flat_map(|i| [i * 10, 255, 0]).collect();
        let got = area_average(&rgb, 4, 2, 2, 1);
        let want = [
            (0.0 + 10.0 + 40.0 + 50.0) / 4.0 / 255.0,
            1.0,
            0.0,
            (20.0 + 30.0 + 60.0 + 70.0) / 4.0 / 255.0,
            1.0,
            0.0,
        ];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{got:?}");
        }
        // 1 x 1 photo onto a 3 x 2 grid: every cell is that pixel.
        let got = area_average(&[255, 0, 51], 1, 1, 3, 2);
        assert_eq!(got.len(), 18);
        assert!(got.chunks_exact(3).all(|p| p == [1.0, 0.0, 0.2]));
    }

    #[test]
    fn inconsistent_input_is_refused() {
        assert_eq!(segment_person(&[0; 5], 2, 1), None);
        assert_eq!(segment_person(&[], 0, 0), None);
    }

    #[test]
    fn a_flat_grey_picture_has_no_person() {
        assert_eq!(segment_person(&vec![128; 300 * 200 * 3], 300, 200), None);
    }
}
