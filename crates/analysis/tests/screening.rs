//! Screening: the classifier's verdicts on the test images (its agreement with nsfwjs
//! itself is scripts/screening-parity.sh's job), its determinism, and its refusals.
mod common;
use common::*;
use prettyscore_analysis::{AnalysisError, screen_image};

#[test]
fn the_test_photos_are_neutral_and_the_nude_is_not() {
    for rel in [
        "face/astronaut.png",
        "portraits/grace-hopper.jpg",
        "pet/cat-chelsea.png",
    ] {
        let s = screen_image(&bytes(rel)).unwrap();
        assert_eq!(s.top_class(), "Neutral", "{rel}: {s:?}");
        assert!(s.unsafe_share() < 0.1, "{rel}: {s:?}");
    }
    let nude = screen_image(&bytes("screening/birth-of-venus-detail.png")).unwrap();
    assert!(nude.unsafe_share() > 0.8, "{nude:?}");
    assert_eq!(nude.top_class(), "Hentai");
}

#[test]
fn the_same_bytes_give_the_same_scores_and_a_reencoding_nearly_the_same() {
    let a = screen_image(&bytes("face/astronaut.png")).unwrap();
    assert_eq!(screen_image(&bytes("face/astronaut.png")).unwrap(), a);
    let b = screen_image(&jpeg(&rgb("face/astronaut.png"), 92)).unwrap();
    for (x, y) in a.as_array().into_iter().zip(b.as_array()) {
        assert!((x - y).abs() < 0.05, "{a:?} vs {b:?}");
    }
}

#[test]
fn what_is_not_an_image_is_refused_as_the_analyses_refuse_it() {
    assert_eq!(
        screen_image(b"not an image at all"),
        Err(AnalysisError::NotAnImage)
    );
    let png = bytes("face/astronaut.png");
    assert_eq!(
        screen_image(&png[..png.len() / 2]).unwrap_err().code(),
        "image_incomplete"
    );
}
