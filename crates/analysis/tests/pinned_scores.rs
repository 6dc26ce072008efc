//! The score, tier and every sub-score of each test face and test hand, pinned, so a
//! speed-up that changes any arithmetic shows up here as a changed score (the
//! fingerprints in face.rs and hands.rs pin every number, but only of one photo each).
//! Also the 1080p and 12 MP JPEGs the benchmark and the MediaPipe comparison time
//! (made the same way as in benches/analysis.rs), decoded by libjpeg-turbo at 1/2 and
//! 1/4 of their size.
mod common;
use common::*;
use image::{DynamicImage, RgbImage, imageops};
use prettyscore_analysis::{analyze_face, analyze_hands};

/// (file, score, tier, symmetry, skinQuality, facialHarmony, overallBalance)
#[rustfmt::skip]
const FACES: &[(&str, f64, &str, f64, f64, f64, f64)] = &[
    ("face/astronaut.png", 8.7, "absolutelyStunning", 9.9, 7.5, 8.0, 9.1),
    ("face/astronaut.webp", 8.5, "absolutelyStunning", 9.6, 7.6, 7.8, 8.9),
    ("face/astronaut-baseline.jpg", 8.5, "absolutelyStunning", 9.5, 7.5, 8.0, 9.0),
    ("face/astronaut-progressive.jpg", 8.5, "absolutelyStunning", 9.5, 7.5, 8.0, 9.0),
    ("portraits/aksel-andersson.jpg", 6.5, "pretty", 3.2, 8.0, 8.9, 6.8),
    ("portraits/alimehemet.jpg", 5.5, "lovely", 3.1, 5.9, 7.2, 6.3),
    ("portraits/antoine-claudet.jpg", 4.7, "lovely", 1.5, 5.7, 5.0, 8.1),
    ("portraits/ew-dahlgren.jpg", 5.8, "lovely", 2.1, 7.0, 7.8, 7.3),
    ("portraits/grace-hopper.jpg", 7.3, "veryPretty", 6.7, 6.4, 8.6, 7.5),
];

/// (file, score, label, fingerProportions, skinQuality, nailAppearance, overallAesthetics)
#[rustfmt::skip]
const HANDS: &[(&str, f64, &str, f64, f64, f64, f64)] = &[
    ("hands/main_droite_dessus_0.webp", 8.8, "Beautiful", 9.0, 9.6, 8.8, 9.5),
    ("hands/main_gauche_paume_0.webp", 9.5, "Perfect Hands", 10.0, 10.0, 10.0, 10.0),
    ("hands/poing_droit_dessus_0.webp", 8.4, "Very Pretty", 8.7, 8.6, 8.3, 8.8),
];

fn face_row(bytes: &[u8]) -> (f64, String, [f64; 4]) {
    let r = analyze_face(bytes).expect("a face");
    let tier = serde_json::to_value(r.tier).unwrap();
    let b = &r.breakdown;
    (
        r.score,
        tier.as_str().unwrap().to_string(),
        [
            b.symmetry,
            b.skin_quality,
            b.facial_harmony,
            b.overall_balance,
        ],
    )
}

#[test]
fn every_test_face_keeps_its_score_tier_and_sub_scores() {
    // Every row compared at once, so a failure lists every face that moved.
    let mut got = Vec::new();
    let mut want = Vec::new();
    for &(rel, score, tier, s, k, h, o) in FACES {
        let row = face_row(&bytes(rel));
        eprintln!("{rel}: {row:?}");
        got.push((rel, row));
        want.push((rel, (score, tier.to_string(), [s, k, h, o])));
    }
    assert_eq!(got, want);
}

#[test]
fn every_test_hand_keeps_its_score_label_and_sub_scores() {
    for &(rel, score, label, p, s, n, o) in HANDS {
        let r = analyze_hands(&bytes(rel)).expect("a hand");
        let b = &r.breakdown;
        let got = (
            r.score,
            r.rating_label,
            [
                b.finger_proportions,
                b.skin_quality,
                b.nail_appearance,
                b.overall_aesthetics,
            ],
        );
        eprintln!("{rel}: {got:?}");
        assert_eq!(got, (score, label, [p, s, n, o]), "{rel}");
    }
}

/// The benchmark's JPEG: the portrait scaled to the frame height on a canvas of the
/// frame's width whose sides repeat its edge columns, quality 90.
fn bench_jpeg(w: u32, h: u32) -> Vec<u8> {
    let src = rgb("face/astronaut.png");
    let face = imageops::resize(&src, h, h, imageops::FilterType::CatmullRom);
    let x0 = (w - h) / 2;
    let canvas = RgbImage::from_fn(w, h, |x, y| {
        let fx = x.saturating_sub(x0).min(h - 1);
        *face.get_pixel(fx, y)
    });
    let mut out = Vec::new();
    let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
    DynamicImage::ImageRgb8(canvas)
        .write_with_encoder(enc)
        .expect("encode");
    out
}

#[test]
fn the_benchmark_photos_keep_their_scores() {
    let rows = [
        (
            // Issue 46 (libjpeg-turbo's half-size decode instead of a full-size decode
            // halved): 8.6 -> 8.7, symmetry 9.7 -> 9.8, overallBalance 9.2 -> 9.1.
            (1920, 1080),
            (8.7, "absolutelyStunning", [9.8, 7.6, 8.0, 9.1]),
        ),
        (
            (4000, 3000),
            (8.5, "absolutelyStunning", [9.3, 7.5, 8.0, 9.1]),
        ),
    ];
    let mut got = Vec::new();
    let mut want = Vec::new();
    for ((w, h), (score, tier, sub)) in rows {
        let row = face_row(&bench_jpeg(w, h));
        eprintln!("{w}x{h}: {row:?}");
        got.push(((w, h), row));
        want.push(((w, h), (score, tier.to_string(), sub)));
    }
    assert_eq!(got, want);
}
