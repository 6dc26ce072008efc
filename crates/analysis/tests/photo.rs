mod common;

use common::*;
use prettyscore_analysis::{AnalysisError, analyze_feet, analyze_pet, feet_label, pet_title};

const IMAGES: [&str; 4] = [
    "pet/cat-chelsea.png",
    "face/astronaut.png",
    "noface/coffee.png",
    "noface/rocket.jpg",
];

#[test]
fn pet_scores_are_whole_numbers_from_7_to_10_with_the_spec_titles() {
    for f in IMAGES {
        let r = analyze_pet(&bytes(f)).unwrap();
        assert!((7..=10).contains(&r.score), "{f}: {}", r.score);
        assert_eq!(r.title, pet_title(r.score));
        assert_eq!(r, analyze_pet(&bytes(f)).unwrap(), "deterministic");
    }
}

/// Photos without a face (feet photos are scored from measured image properties).
const NO_FACE: [&str; 3] = [
    "pet/cat-chelsea.png",
    "noface/coffee.png",
    "noface/rocket.jpg",
];

#[test]
fn feet_scores_stay_in_range_with_the_spec_keys() {
    for f in NO_FACE {
        let feet = analyze_feet(&bytes(f)).unwrap();
        assert!((7.0..=10.0).contains(&feet.score), "{f}: {}", feet.score);
        assert_eq!(feet.rating_label, feet_label(feet.score));
        let b = feet.breakdown;
        for v in [
            b.toe_symmetry,
            b.arch_quality,
            b.skin_appearance,
            b.overall_aesthetics,
        ] {
            assert!(
                (v - feet.score).abs() <= 1.0 + 1e-9 && v <= 10.0,
                "{f}: {v} vs {}",
                feet.score
            );
        }
        assert_eq!(feet, analyze_feet(&bytes(f)).unwrap(), "deterministic");
        let v = serde_json::to_value(&feet).unwrap();
        for k in [
            "toeSymmetry",
            "archQuality",
            "skinAppearance",
            "overallAesthetics",
        ] {
            assert!(v["breakdown"].get(k).is_some(), "missing {k}");
        }
    }
}

/// The face detector finds a face: not a photo of feet, whatever its qualities.
#[test]
fn feet_refuse_a_photo_with_a_face() {
    for photo in [
        bytes("face/astronaut.png"),
        jpeg(&rgb("face/astronaut.png"), 85),
    ] {
        let err = analyze_feet(&photo).unwrap_err();
        assert_eq!(err, AnalysisError::NotFeet);
        assert_eq!(err.code(), "not_feet");
        assert!(
            err.user_message().contains("not of feet"),
            "{}",
            err.user_message()
        );
    }
}

#[test]
fn a_blurred_dark_copy_never_scores_higher() {
    let img = rgb("pet/cat-chelsea.png");
    let worse = image::imageops::blur(&image::imageops::colorops::brighten(&img, -90), 4.0);
    let a = analyze_pet(&png(&img)).unwrap();
    let b = analyze_pet(&png(&worse)).unwrap();
    assert!(b.score <= a.score, "{} vs {}", b.score, a.score);
    let a = analyze_feet(&png(&img)).unwrap();
    let b = analyze_feet(&png(&worse)).unwrap();
    assert!(b.score < a.score, "{} vs {}", b.score, a.score);
}
