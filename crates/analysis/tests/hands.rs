//! Hands: palm detector and 21 landmarks on real hand photos (GCompris' left/right
//! activity, see testdata/README.md), invariances, and the refusals.
mod common;
use common::*;
use image::{Rgb, RgbImage, imageops};
use prettyscore_analysis::{AnalysisError, HandsAnalysis, analyze_hands, hands_label};

const BACK: &str = "hands/main_droite_dessus_0.webp";
const PALM: &str = "hands/main_gauche_paume_0.webp";
const FIST: &str = "hands/poing_droit_dessus_0.webp";

/// A test hand as a photo: the cut-out (transparent around the hand) laid on a plain
/// light backdrop, on a canvas a little larger than the cut-out.
fn photo(rel: &str) -> RgbImage {
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

fn analyse(img: &RgbImage) -> HandsAnalysis {
    analyze_hands(&png(img)).expect("a hand")
}

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

#[test]
fn a_hand_photo_scores_in_the_spec_range_with_its_landmarks() {
    let img = photo(BACK);
    let r = analyse(&img);
    assert!((7.0..=10.0).contains(&r.score), "{}", r.score);
    assert_eq!(r.rating_label, hands_label(r.score));
    let b = r.breakdown;
    for v in [
        b.finger_proportions,
        b.skin_quality,
        b.nail_appearance,
        b.overall_aesthetics,
    ] {
        assert!(
            (v - r.score).abs() <= 1.0 + 1e-9 && v <= 10.0,
            "{v} vs {}",
            r.score
        );
    }
    assert_eq!(r.landmarks.len(), 21);
    assert_eq!((r.image_width, r.image_height), img.dimensions());
    // The fingers point right in this photo: every fingertip is right of its knuckle and
    // farther from the wrist; the middle finger is the longest.
    let p = &r.landmarks;
    for (mcp, tip) in [(5, 8), (9, 12), (13, 16), (17, 20)] {
        assert!(
            p[tip][0] > p[mcp][0] + 0.1,
            "finger {tip}: {:?} {:?}",
            p[mcp],
            p[tip]
        );
        assert!(dist(p[tip], p[0]) > dist(p[mcp], p[0]));
    }
    let m = r.measures;
    assert!(m.index_to_middle < 1.0 && m.ring_to_middle < 1.0 && m.little_to_middle < 0.85);
    assert!(m.palm_length_px > 60.0, "{}", m.palm_length_px);
    let v = serde_json::to_value(&r).unwrap();
    for k in [
        "fingerProportions",
        "skinQuality",
        "nailAppearance",
        "overallAesthetics",
    ] {
        assert!(v["breakdown"][k].is_number(), "missing {k}");
    }
    for k in ["ratingLabel", "handBox", "landmarks", "imageWidth"] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert!(v["measures"]["fingerSpreadDeg"].is_number());
}

#[test]
fn the_palm_side_and_a_fist_are_hands_and_the_fist_bends_its_fingers() {
    let open = analyse(&photo(PALM));
    let fist = analyse(&photo(FIST));
    assert!((7.0..=10.0).contains(&open.score) && (7.0..=10.0).contains(&fist.score));
    assert!(
        fist.measures.finger_bend_deg > open.measures.finger_bend_deg + 10.0,
        "fist {} vs open {}",
        fist.measures.finger_bend_deg,
        open.measures.finger_bend_deg
    );
}

#[test]
fn the_file_itself_is_read_as_it_is() {
    // The WebP cut-out straight from testdata (its transparent pixels read as whatever
    // colour they hold): still one hand.
    let r = analyze_hands(&bytes(BACK)).unwrap();
    assert!((7.0..=10.0).contains(&r.score));
}

#[test]
fn the_same_bytes_give_a_bit_identical_result_pinned_across_machines() {
    let bytes = png(&photo(BACK));
    let a = analyze_hands(&bytes).unwrap();
    assert_eq!(a, analyze_hands(&bytes).unwrap());
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bits: u64| {
        for b in bits.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(a.score.to_bits());
    for p in &a.landmarks {
        eat(p[0].to_bits() as u64);
        eat(p[1].to_bits() as u64);
    }
    let m = serde_json::to_value(a.measures).unwrap();
    for (_, v) in m.as_object().unwrap() {
        eat(v.as_f64().unwrap().to_bits());
    }
    eprintln!("hands fingerprint {h:#018x}");
    assert_eq!(h, PINNED_FINGERPRINT, "hands fingerprint {h:#018x}");
}

/// Update only together with a deliberate change to the engine.
const PINNED_FINGERPRINT: u64 = 0xb84b_0cfb_7d9d_221a;

#[test]
fn a_mirrored_photo_gets_the_same_score_and_mirrored_landmarks() {
    for rel in [BACK, PALM, FIST] {
        let img = photo(rel);
        let a = analyse(&img);
        let b = analyse(&imageops::flip_horizontal(&img));
        eprintln!("{rel}: {} mirrored {}", a.score, b.score);
        assert!(
            (a.score - b.score).abs() <= 0.1,
            "{rel}: {} vs {}",
            a.score,
            b.score
        );
        for (p, q) in a.landmarks.iter().zip(&b.landmarks) {
            assert!(
                (p[0] - (1.0 - q[0])).abs() < 2e-3 && (p[1] - q[1]).abs() < 2e-3,
                "{rel}: {p:?} vs mirrored {q:?}"
            );
        }
    }
}

#[test]
fn a_half_size_copy_scores_within_three_tenths() {
    for rel in [BACK, PALM] {
        let img = photo(rel);
        let (w, h) = img.dimensions();
        let a = analyse(&img);
        let b = analyse(&resized(&img, w / 2, h / 2));
        eprintln!("{rel}: {} half size {}", a.score, b.score);
        assert!(
            (a.score - b.score).abs() <= 0.3,
            "{rel}: {} vs {}",
            a.score,
            b.score
        );
    }
}

#[test]
fn a_jpeg_re_encode_at_quality_85_scores_within_three_tenths() {
    for rel in [BACK, PALM] {
        let img = photo(rel);
        let a = analyse(&img);
        let b = analyze_hands(&jpeg(&img, 85)).unwrap();
        eprintln!("{rel}: {} jpeg q85 {}", a.score, b.score);
        assert!(
            (a.score - b.score).abs() <= 0.3,
            "{rel}: {} vs {}",
            a.score,
            b.score
        );
    }
}

#[test]
fn photos_without_a_hand_get_no_hand_with_advice() {
    for rel in [
        "face/astronaut.png",
        "face/cameraman-gray.png",
        "noface/rocket.jpg",
        "noface/coffee.png",
        "pet/cat-chelsea.png",
    ] {
        let err = analyze_hands(&bytes(rel)).unwrap_err();
        assert_eq!(err, AnalysisError::NoHand, "{rel}");
        assert_eq!(err.code(), "no_hand");
        assert!(
            err.user_message().contains("Please upload"),
            "{}",
            err.user_message()
        );
    }
}

#[test]
fn a_tiny_hand_or_one_cut_off_by_the_border_is_refused() {
    let img = photo(BACK);
    let (w, h) = img.dimensions();
    // The hand at a fifth of its size in a corner of a large canvas.
    let small = resized(&img, w / 5, h / 5);
    let mut canvas = RgbImage::from_pixel(800, 600, Rgb([214, 210, 204]));
    imageops::replace(&mut canvas, &small, 40, 40);
    assert_eq!(
        analyze_hands(&png(&canvas)).unwrap_err(),
        AnalysisError::NoHand
    );
    // Only the wrist and the knuckles: the fingers are cut off at the right.
    let cut = imageops::crop_imm(&img, 0, 0, w * 55 / 100, h).to_image();
    assert_eq!(
        analyze_hands(&png(&cut)).unwrap_err(),
        AnalysisError::NoHand
    );
}
