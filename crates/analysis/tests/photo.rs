mod common;

use common::*;
use prettyscore_analysis::{
    analyze_feet, analyze_hands, analyze_pet, feet_label, hands_label, pet_title,
};

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

#[test]
fn feet_and_hands_scores_stay_in_range_with_the_spec_keys() {
    for f in IMAGES {
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
        let hands = analyze_hands(&bytes(f)).unwrap();
        assert!((7.0..=10.0).contains(&hands.score));
        assert_eq!(hands.rating_label, hands_label(hands.score));
        let v = serde_json::to_value(&hands).unwrap();
        for k in [
            "fingerProportions",
            "skinQuality",
            "nailAppearance",
            "overallAesthetics",
        ] {
            assert!(v["breakdown"].get(k).is_some(), "missing {k}");
        }
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
