//! Feet: the check that refuses what is not feet (a cup, a rocket, a cat, a face, a hand)
//! and the score of what passes. See `src/feet.rs` and the README's "Feet" section: no
//! registry package carries a photo of bare feet under a public-domain or CC0 licence,
//! so the accepted image is a public-domain drawing of feet (testdata/README.md), and the
//! real photographed skin of the hand photos shows that the skin measures take real skin.
mod common;
use common::*;
use image::{Rgb, RgbImage, imageops};
use prettyscore_analysis::{
    AnalysisError, FeetAnalysis, NOT_FEET, analyze_feet, feet_evidence, feet_label,
};

const FEET: &str = "feet/feet-in-sandals-drawing.png";
const HANDS: [&str; 3] = [
    "hands/main_droite_dessus_0.webp",
    "hands/main_gauche_paume_0.webp",
    "hands/poing_droit_dessus_0.webp",
];

/// A hand cut-out laid on a plain light backdrop (as in tests/hands.rs).
fn hand_photo(rel: &str) -> RgbImage {
    let hand = image::load_from_memory(&bytes(rel))
        .expect("decode test hand")
        .to_rgba8();
    let (w, h) = hand.dimensions();
    let mut out = RgbImage::from_pixel(w + 40, h + 40, Rgb([214, 210, 204]));
    for (x, y, p) in hand.enumerate_pixels() {
        let a = p[3] as f32 / 255.0;
        let bg = out.get_pixel(x + 20, y + 20).0;
        let mix = |c: usize| (p[c] as f32 * a + bg[c] as f32 * (1.0 - a)).round() as u8;
        out.put_pixel(x + 20, y + 20, Rgb([mix(0), mix(1), mix(2)]));
    }
    out
}

fn assert_not_feet(photo: &[u8], what: &str) {
    let err = analyze_feet(photo).expect_err(what);
    assert_eq!(err, AnalysisError::NotFeet, "{what}");
    assert_eq!(err.code(), "not_feet");
    assert_eq!(
        err.user_message(),
        "We could not find feet in this photo. Please try another one."
    );
    assert_eq!(err.user_message(), NOT_FEET);
}

fn assert_scored(r: &FeetAnalysis, what: &str) {
    assert!((7.0..=10.0).contains(&r.score), "{what}: {}", r.score);
    assert_eq!(r.score, (r.score * 10.0).round() / 10.0, "one decimal");
    assert_eq!(r.rating_label, feet_label(r.score));
    let b = r.breakdown;
    for v in [
        b.toe_symmetry,
        b.arch_quality,
        b.skin_appearance,
        b.overall_aesthetics,
    ] {
        assert!(
            (v - r.score).abs() <= 1.0 + 1e-9 && v <= 10.0,
            "{what}: {v} vs {}",
            r.score
        );
    }
}

#[test]
fn a_coffee_cup_and_a_rocket_are_refused_for_want_of_bare_skin() {
    for f in ["noface/coffee.png", "noface/rocket.jpg"] {
        assert_not_feet(&bytes(f), f);
        let ev = feet_evidence(&bytes(f)).unwrap();
        assert!(ev.skin_share < 0.05, "{f}: {ev:?}");
        assert_eq!(ev.face, None, "{f}: the networks need not run");
        // Mirrored, half size and re-encoded copies are refused too.
        let img = rgb(f);
        let (w, h) = img.dimensions();
        for (variant, photo) in [
            ("mirror", png(&imageops::flip_horizontal(&img))),
            ("half", png(&resized(&img, w / 2, h / 2))),
            ("jpeg q85", jpeg(&img, 85)),
        ] {
            assert_not_feet(&photo, &format!("{f} {variant}"));
        }
    }
}

#[test]
fn a_cat_is_refused_for_its_fur() {
    let f = "pet/cat-chelsea.png";
    assert_not_feet(&bytes(f), f);
    let img = rgb(f);
    let (w, h) = img.dimensions();
    for (variant, photo) in [
        ("as it is", png(&img)),
        ("mirror", png(&imageops::flip_horizontal(&img))),
        ("half", png(&resized(&img, w / 2, h / 2))),
        ("double", png(&resized(&img, w * 2, h * 2))),
        ("jpeg q85", jpeg(&img, 85)),
    ] {
        assert_not_feet(&photo, &format!("cat {variant}"));
        // Nearly the whole photo has a skin colour, but most of it is fur, not smooth
        // skin.
        let ev = feet_evidence(&photo).unwrap();
        assert!(ev.smooth_share < 0.38, "cat {variant}: {ev:?}");
    }
}

#[test]
fn a_face_is_refused() {
    for photo in [
        bytes("face/astronaut.png"),
        jpeg(&rgb("face/astronaut.png"), 85),
        bytes("face/cameraman-gray.png"),
    ] {
        assert_not_feet(&photo, "a face");
    }
    // A close crop of the face has skin enough for the skin measures: the face
    // analysis refuses it.
    let close = imageops::crop_imm(&rgb("face/astronaut.png"), 140, 40, 240, 280).to_image();
    for (variant, photo) in [
        ("close", png(&close)),
        ("close, mirrored", png(&imageops::flip_horizontal(&close))),
    ] {
        assert_not_feet(&photo, variant);
        let ev = feet_evidence(&photo).unwrap();
        assert!(
            ev.skin_share >= 0.10 && ev.smooth_share >= 0.40,
            "{variant}: {ev:?}"
        );
        assert_eq!(ev.face, Some(true), "{variant}: {ev:?}");
    }
}

#[test]
fn a_hand_is_refused_though_its_skin_passes_the_skin_measures() {
    for f in HANDS {
        let photo = png(&hand_photo(f));
        assert_not_feet(&photo, f);
        // Real photographed skin is taken as bare smooth skin; the hand models refuse it.
        let ev = feet_evidence(&photo).unwrap();
        assert!(
            ev.skin_share >= 0.2 && ev.smooth_share >= 0.6,
            "{f}: {ev:?}"
        );
        assert_eq!((ev.face, ev.hand), (Some(false), Some(true)), "{f}: {ev:?}");
    }
}

#[test]
fn feet_pass_and_score_in_the_spec_range_with_the_spec_keys() {
    let r = analyze_feet(&bytes(FEET)).expect("feet");
    assert_scored(&r, FEET);
    let ev = feet_evidence(&bytes(FEET)).unwrap();
    assert!(ev.is_feet(), "{ev:?}");
    let v = serde_json::to_value(&r).unwrap();
    for k in [
        "toeSymmetry",
        "archQuality",
        "skinAppearance",
        "overallAesthetics",
    ] {
        assert!(v["breakdown"].get(k).is_some(), "missing {k}");
    }
}

#[test]
fn feet_results_are_deterministic_and_stable_under_mirror_rescale_and_reencoding() {
    let r = analyze_feet(&bytes(FEET)).unwrap();
    assert_eq!(r, analyze_feet(&bytes(FEET)).unwrap(), "bit-identical");
    let img = rgb(FEET);
    let (w, h) = img.dimensions();
    for (variant, photo) in [
        ("mirror", png(&imageops::flip_horizontal(&img))),
        ("half", png(&resized(&img, w / 2, h / 2))),
        ("double", jpeg(&resized(&img, w * 2, h * 2), 90)),
        ("jpeg q85", jpeg(&img, 85)),
    ] {
        let v = analyze_feet(&photo).unwrap_or_else(|e| panic!("{variant}: {e:?}"));
        assert_scored(&v, variant);
        assert!(
            (v.score - r.score).abs() <= 0.3,
            "{variant}: {} vs {}",
            v.score,
            r.score
        );
    }
}

#[test]
fn a_blurred_copy_of_feet_scores_lower() {
    let img = rgb(FEET);
    let worse = imageops::blur(&img, 3.0);
    let a = analyze_feet(&png(&img)).unwrap();
    let b = analyze_feet(&png(&worse)).unwrap();
    assert!(b.score < a.score, "{} vs {}", b.score, a.score);
}
