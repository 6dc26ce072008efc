//! The score of a body photo (feet, hands) from its measured quality, and each
//! breakdown item around that score: shared by `photo` (feet) and `hands`, so
//! neither imports the other for it.

use crate::score::round1;

/// 7.0 + 3 * quality^1.5, one decimal: 9.5 needs a quality of about 0.89.
pub(crate) fn body_score(quality: f64) -> f64 {
    let o = quality.clamp(0.0, 1.0);
    round1(7.0 + 3.0 * o * libm::sqrt(o))
}

/// A breakdown item: the score moved by up to one point by one quality, within 1..10.
pub(crate) fn breakdown_item(score: f64, quality: f64) -> f64 {
    round1((score + 2.0 * quality.clamp(0.0, 1.0) - 1.0).clamp(1.0, 10.0))
}
