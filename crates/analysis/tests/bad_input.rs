mod common;

use common::*;
use prettyscore_analysis::{
    AnalysisError, MAX_UPLOAD_BYTES, analyze_face, analyze_feet, analyze_hands, analyze_pet,
};

fn all_entry_points(b: &[u8]) -> Vec<Result<(), AnalysisError>> {
    vec![
        analyze_face(b).map(|_| ()),
        analyze_pet(b).map(|_| ()),
        analyze_feet(b).map(|_| ()),
        analyze_hands(b).map(|_| ()),
    ]
}

#[test]
fn a_text_file_is_not_an_image() {
    for r in all_entry_points(b"hello, this is not a photo at all") {
        let e = r.unwrap_err();
        assert_eq!(e, AnalysisError::NotAnImage);
        assert_eq!(e.code(), "not_an_image");
        assert_eq!(e.user_message(), "Please upload an image file");
    }
    assert_eq!(analyze_face(&[]).unwrap_err(), AnalysisError::NotAnImage);
}

#[test]
fn an_upload_over_10_mb_is_too_large() {
    let mut b = jpeg(&rgb("face/astronaut.png"), 90);
    b.resize(MAX_UPLOAD_BYTES + 1, 0);
    for r in all_entry_points(&b) {
        let e = r.unwrap_err();
        assert_eq!(e.code(), "too_large");
        assert_eq!(
            e.user_message(),
            "File too large! Please upload an image under 10MB."
        );
    }
}

/// The test photos whole and cut after 10 %, 33 %, 66 % and 99 % of their bytes (and
/// one byte short): JPEG baseline and progressive, PNG, WebP lossy (VP8) and extended
/// (VP8X). A cut-off JPEG used to decode with grey where its missing bytes were.
#[test]
fn cut_off_photos_are_refused_as_incomplete_at_every_cut() {
    let files = [
        "face/astronaut-baseline.jpg",
        "face/astronaut-progressive.jpg",
        "face/astronaut.png",
        "face/astronaut.webp",
        "hands/main_droite_dessus_0.webp",
    ];
    for file in files {
        let full = bytes(file);
        if file.starts_with("face/") {
            analyze_face(&full).unwrap_or_else(|e| panic!("{file} whole: {e:?}"));
        } else {
            analyze_hands(&full).unwrap_or_else(|e| panic!("{file} whole: {e:?}"));
        }
        let cuts = [10, 33, 66, 99].map(|percent| full.len() * percent / 100);
        for cut in cuts.into_iter().chain([full.len() - 1]) {
            for r in all_entry_points(&full[..cut]) {
                let e = r.expect_err(&format!("{file} cut at {cut} of {}", full.len()));
                assert!(
                    matches!(e, AnalysisError::CorruptImage(_)),
                    "{file} cut at {cut}: {e:?}"
                );
                assert_eq!(e.code(), "image_incomplete");
                assert_eq!(
                    e.user_message(),
                    "This photo looks damaged or incomplete. Please choose it again."
                );
            }
        }
    }
}

#[test]
fn truncated_files_give_a_clear_error_and_never_panic() {
    let img = rgb("face/astronaut.png");
    for full in [jpeg(&img, 90), png(&img)] {
        for cut in [
            10,
            100,
            400,
            full.len() / 3,
            full.len() / 2,
            full.len() - 10,
        ] {
            let e = analyze_face(&full[..cut]).unwrap_err();
            assert!(
                matches!(
                    e,
                    AnalysisError::CorruptImage(_) | AnalysisError::NotAnImage
                ),
                "{e:?} at {cut}"
            );
            assert!(!e.user_message().is_empty());
        }
    }
}

/// Whatever follows a JPEG's end (an MPF secondary image, a Motion Photo's video) is
/// not part of the photo: the photo is whole and scores as without it.
#[test]
fn data_after_a_jpegs_end_does_not_make_it_incomplete() {
    let full = bytes("face/astronaut-baseline.jpg");
    let mut with_trailer = full.clone();
    with_trailer.extend_from_slice(&bytes("face/astronaut-progressive.jpg")[..1000]);
    assert_eq!(
        analyze_face(&with_trailer).unwrap().score,
        analyze_face(&full).unwrap().score
    );
}

#[test]
fn corrupted_bytes_give_a_clear_error_and_never_panic() {
    let mut b = jpeg(&rgb("face/astronaut.png"), 90);
    for i in (200..b.len()).step_by(97) {
        b[i] ^= 0x5a;
    }
    let _ = analyze_face(&b);
    let mut p = png(&rgb("face/astronaut.png"));
    for i in (60..p.len()).step_by(101) {
        p[i] ^= 0x5a;
    }
    match analyze_face(&p) {
        Err(AnalysisError::CorruptImage(_)) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn decompression_bombs_are_refused_before_allocating() {
    // A JPEG whose frame header declares 60000 x 60000 pixels.
    let mut j = jpeg(&rgb("face/astronaut.png"), 80);
    let sof = j
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("baseline SOF0");
    j[sof + 5..sof + 7].copy_from_slice(&60000u16.to_be_bytes());
    j[sof + 7..sof + 9].copy_from_slice(&60000u16.to_be_bytes());
    let e = analyze_face(&j).unwrap_err();
    assert_eq!(e.code(), "bad_dimensions", "{e:?}");

    // A PNG declaring 100000 x 100000 (with a valid header checksum).
    let mut p = png(&image::RgbImage::new(32, 32));
    p[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    p[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32(&p[12..29]);
    p[29..33].copy_from_slice(&crc.to_be_bytes());
    let e = analyze_face(&p).unwrap_err();
    assert!(matches!(e, AnalysisError::BadDimensions(..)), "{e:?}");

    // Within the pixel limit but a 1 x 40000 strip: refused as unsupported dimensions.
    let mut p = png(&image::RgbImage::new(32, 32));
    p[16..20].copy_from_slice(&1u32.to_be_bytes());
    p[20..24].copy_from_slice(&40_000u32.to_be_bytes());
    let crc = crc32(&p[12..29]);
    p[29..33].copy_from_slice(&crc.to_be_bytes());
    assert!(analyze_face(&p).is_err());
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn every_error_has_a_stable_code_and_a_message() {
    let all = [
        AnalysisError::TooLarge(1),
        AnalysisError::NotAnImage,
        AnalysisError::CorruptImage("x".into()),
        AnalysisError::BadDimensions(1, 1),
        AnalysisError::NoFace,
        AnalysisError::FaceTooSmall,
    ];
    let codes: Vec<&str> = all.iter().map(|e| e.code()).collect();
    assert_eq!(
        codes,
        [
            "too_large",
            "not_an_image",
            "image_incomplete",
            "bad_dimensions",
            "no_face",
            "face_too_small"
        ]
    );
    assert!(all.iter().all(|e| !e.user_message().is_empty()));
}

/// A small deterministic stand-in for the cargo-fuzz target (fuzz/), run on every
/// `cargo test`: mutated JPEG and PNG bytes give a result or a typed error, never a panic.
#[test]
fn mutated_images_never_panic() {
    let img = resized(&rgb("face/astronaut.png"), 128, 128);
    let seeds = [jpeg(&img, 80), png(&img)];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..40 {
        let mut b = seeds[i % 2].clone();
        for _ in 0..1 + next() % 8 {
            let pos = (next() as usize) % b.len();
            match next() % 3 {
                0 => b[pos] = next() as u8,
                1 => b.truncate(pos.max(1)),
                _ => b.insert(pos, next() as u8),
            }
        }
        match analyze_face(&b) {
            Ok(r) => assert!((1.0..=10.0).contains(&r.score)),
            Err(e) => assert!(!e.user_message().is_empty()),
        }
        let _ = analyze_pet(&b);
    }
}
