//! From measures to scores, and the spec's tiers and labels.
//!
//! Every measure becomes a "deviation" `d >= 0` from its ideal (0 for symmetry error,
//! 1 for the ratio of lower to middle third, the golden ratio for golden proportions,
//! ...). A deviation turns into a goodness in (0, 1] with `g(d, s) = 1 / (1 + (d/s)^2)`:
//! 1 at the ideal, 0.8 at half the tolerance `s`, 0.5 at the tolerance. `g` only falls as
//! `d` grows, and every sub-score is 10 times a weighted sum of goodnesses with positive
//! weights, and the total a weighted sum of sub-scores, so the score is monotonic in every
//! measure's deviation. Tolerances are set so that a well-lit, sharp, frontal portrait with
//! ordinary proportions sits around 7.5 to 8.5; 9.5 needs every measure close to ideal,
//! and 10.0 needs practically all of them at it.

use crate::measures::{FaceMeasures, PHI};
use serde::Serialize;

/// The four breakdown items of the results screen, each out of 10 with one decimal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FaceBreakdown {
    /// Left/right symmetry of the mesh about the facial midline, level eyes and mouth.
    pub symmetry: f64,
    /// Smooth, even skin, good exposure and a sharp photo.
    pub skin_quality: f64,
    /// Facial thirds and fifths.
    pub facial_harmony: f64,
    /// Golden-ratio proportions.
    pub overall_balance: f64,
}

/// Goodness of a deviation `d` with tolerance `s`: 1 at 0, 0.5 at `s`, falling.
pub(crate) fn g(d: f64, s: f64) -> f64 {
    let r = d.max(0.0) / s;
    1.0 / (1.0 + r * r)
}

/// Round to one decimal (half away from zero).
pub(crate) fn round1(v: f64) -> f64 {
    libm::round(v * 10.0) / 10.0
}

// Tolerances (the deviation at which a measure's goodness halves).
const TOL_SYMMETRY: f64 = 0.02; // eye distances
const TOL_TILT_DEG: f64 = 3.0;
const TOL_NOSE_OFFSET: f64 = 0.05; // eye distances
const TOL_THIRDS: f64 = 0.25; // relative
const TOL_LOWER_FACE: f64 = 0.35; // relative
const TOL_FIFTHS: f64 = 0.25; // relative
const TOL_GOLDEN: f64 = 0.2; // relative
const TOL_EXPOSURE: f64 = 55.0; // grey levels from the ideal
const IDEAL_EXPOSURE: f64 = 150.0;
const TOL_CLIPPING: f64 = 0.08; // share of samples
const SHARP_REFERENCE: f64 = 14.0; // eye-band detail that counts as fully sharp
const TOL_TEXTURE: f64 = 14.0; // skin high-frequency energy
const TOL_UNEVENNESS: f64 = 0.25;

/// Score and breakdown for a face. Plain words:
/// - symmetry: how well each landmark's mirrored partner lands on it when reflected
///   about the facial midline (60%), level eye line (15%), mouth parallel to the eyes
///   (15%) and nose on the midline (10%).
/// - facialHarmony: lower third as long as the middle third (35%), chin twice the upper
///   lip (30%), eyes and the gap between them each a fifth of the face width (35%).
/// - overallBalance: mouth width / nose width and nose-to-chin / mouth-to-chin at the
///   golden ratio 1.618 (50% each).
/// - skinQuality: fine skin texture (30%), evenness of tone (25%), sharpness of the eye
///   region (25%), exposure and absence of clipping (20%).
/// - score: 30% symmetry, 25% skin quality, 25% facial harmony, 20% overall balance,
///   rounded to one decimal and kept within 1.0 to 10.0.
pub(crate) fn face_score(m: &FaceMeasures) -> (f64, FaceBreakdown) {
    let symmetry = 10.0
        * (0.60 * g(m.symmetry_error, TOL_SYMMETRY)
            + 0.15 * g(m.eye_line_tilt_deg, TOL_TILT_DEG)
            + 0.15 * g(m.mouth_tilt_deg, TOL_TILT_DEG)
            + 0.10 * g(m.nose_offset, TOL_NOSE_OFFSET));
    let harmony = 10.0
        * (0.35 * g((m.thirds_ratio - 1.0).abs(), TOL_THIRDS)
            + 0.30 * g((m.lower_face_ratio / 2.0 - 1.0).abs(), TOL_LOWER_FACE)
            + 0.35 * g(m.fifths_deviation, TOL_FIFTHS));
    let balance = 10.0
        * (0.5 * g((m.mouth_nose_ratio / PHI - 1.0).abs(), TOL_GOLDEN)
            + 0.5 * g((m.nose_chin_ratio / PHI - 1.0).abs(), TOL_GOLDEN));
    let sharp_dev = (1.0 - m.sharpness / SHARP_REFERENCE).max(0.0);
    let skin = 10.0
        * (0.30 * g(m.skin_texture, TOL_TEXTURE)
            + 0.25 * g(m.skin_unevenness, TOL_UNEVENNESS)
            + 0.25 * g(sharp_dev, 0.5)
            + 0.10 * g((m.exposure - IDEAL_EXPOSURE).abs(), TOL_EXPOSURE)
            + 0.10 * g(m.clipping, TOL_CLIPPING));
    let total = 0.30 * symmetry + 0.25 * skin + 0.25 * harmony + 0.20 * balance;
    let score = round1(total.clamp(1.0, 10.0));
    (
        score,
        FaceBreakdown {
            symmetry: round1(symmetry),
            skin_quality: round1(skin),
            facial_harmony: round1(harmony),
            overall_balance: round1(balance),
        },
    )
}

/// The spec's score tiers (1 to 10 scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum Tier {
    Lovely,
    Pretty,
    VeryPretty,
    Beautiful,
    Gorgeous,
    AbsolutelyStunning,
    Exceptional,
    EliteBeauty,
    WorldsMostBeautiful,
}

impl Tier {
    /// The tier of a score: exactly 10, then >= 9.5, 9, 8.5, 8, 7.5, 7, 6, else Lovely.
    pub fn of(score: f64) -> Tier {
        if score >= 10.0 {
            Tier::WorldsMostBeautiful
        } else if score >= 9.5 {
            Tier::EliteBeauty
        } else if score >= 9.0 {
            Tier::Exceptional
        } else if score >= 8.5 {
            Tier::AbsolutelyStunning
        } else if score >= 8.0 {
            Tier::Gorgeous
        } else if score >= 7.5 {
            Tier::Beautiful
        } else if score >= 7.0 {
            Tier::VeryPretty
        } else if score >= 6.0 {
            Tier::Pretty
        } else {
            Tier::Lovely
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Tier::WorldsMostBeautiful => "WORLD'S MOST BEAUTIFUL",
            Tier::EliteBeauty => "Elite Beauty",
            Tier::Exceptional => "Exceptional",
            Tier::AbsolutelyStunning => "Absolutely Stunning",
            Tier::Gorgeous => "Gorgeous",
            Tier::Beautiful => "Beautiful",
            Tier::VeryPretty => "Very Pretty",
            Tier::Pretty => "Pretty",
            Tier::Lovely => "Lovely",
        }
    }

    pub fn emoji(self) -> &'static str {
        match self {
            Tier::WorldsMostBeautiful => "👑",
            Tier::EliteBeauty => "💎",
            Tier::Exceptional => "🌟",
            Tier::AbsolutelyStunning => "✨",
            Tier::Gorgeous => "🔥",
            Tier::Beautiful => "💖",
            Tier::VeryPretty => "😍",
            Tier::Pretty => "😊",
            Tier::Lovely => "🌸",
        }
    }
}

/// The spec's rating label for a face score.
pub fn rating_label(score: f64) -> &'static str {
    Tier::of(score).label()
}

/// The emoji shown with a face score's tier.
pub fn rating_emoji(score: f64) -> &'static str {
    Tier::of(score).emoji()
}

/// The spec's pet title for a whole-number pet score.
pub fn pet_title(score: u8) -> &'static str {
    match score {
        9.. => "Absolutely Adorable!",
        8 => "Super Cute!",
        7 => "Very Sweet!",
        6 => "Quite Charming!",
        _ => "Uniquely Lovable!",
    }
}

fn body_label(score: f64, perfect: &'static str) -> &'static str {
    if score >= 9.5 {
        perfect
    } else if score >= 9.0 {
        "Exceptional"
    } else if score >= 8.5 {
        "Beautiful"
    } else if score >= 8.0 {
        "Very Pretty"
    } else if score >= 7.0 {
        "Pretty"
    } else {
        "Lovely"
    }
}

/// The spec's label for a feet score.
pub fn feet_label(score: f64) -> &'static str {
    body_label(score, "Perfect Feet")
}

/// The spec's label for a hands score.
pub fn hands_label(score: f64) -> &'static str {
    body_label(score, "Perfect Hands")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_labels_match_the_spec_at_every_boundary() {
        let cases = [
            (10.0, "WORLD'S MOST BEAUTIFUL"),
            (9.9, "Elite Beauty"),
            (9.5, "Elite Beauty"),
            (9.4, "Exceptional"),
            (9.0, "Exceptional"),
            (8.9, "Absolutely Stunning"),
            (8.5, "Absolutely Stunning"),
            (8.4, "Gorgeous"),
            (8.0, "Gorgeous"),
            (7.9, "Beautiful"),
            (7.5, "Beautiful"),
            (7.4, "Very Pretty"),
            (7.0, "Very Pretty"),
            (6.9, "Pretty"),
            (6.0, "Pretty"),
            (5.9, "Lovely"),
            (1.0, "Lovely"),
        ];
        for (s, l) in cases {
            assert_eq!(rating_label(s), l, "score {s}");
        }
    }

    #[test]
    fn pet_feet_and_hands_labels_match_the_spec() {
        assert_eq!(pet_title(10), "Absolutely Adorable!");
        assert_eq!(pet_title(9), "Absolutely Adorable!");
        assert_eq!(pet_title(8), "Super Cute!");
        assert_eq!(pet_title(7), "Very Sweet!");
        assert_eq!(feet_label(9.5), "Perfect Feet");
        assert_eq!(hands_label(9.6), "Perfect Hands");
        assert_eq!(feet_label(9.0), "Exceptional");
        assert_eq!(hands_label(8.5), "Beautiful");
        assert_eq!(feet_label(8.0), "Very Pretty");
        assert_eq!(hands_label(7.0), "Pretty");
        assert_eq!(feet_label(6.9), "Lovely");
    }

    #[test]
    fn goodness_falls_monotonically_with_deviation() {
        let mut last = 2.0;
        for i in 0..100 {
            let v = g(i as f64 * 0.01, 0.1);
            assert!(v < last);
            last = v;
        }
        assert_eq!(g(0.0, 0.3), 1.0);
        assert_eq!(g(0.3, 0.3), 0.5);
    }
}
