//! The public `apply`: decoding (formats, EXIF orientation, refusals), the output cap,
//! the encoded result and determinism.

use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use prettyscore_imaging::{
    Adjustments, Backdrop, EditError, Operation, Style, UpscaleTarget, apply,
};
use std::io::Cursor;
use std::path::PathBuf;

fn testdata(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn encode(img: &RgbImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    DynamicImage::ImageRgb8(img.clone())
        .write_to(&mut out, format)
        .unwrap();
    out.into_inner()
}

fn decode(jpeg: &[u8]) -> RgbImage {
    image::load_from_memory(jpeg).unwrap().to_rgb8()
}

/// Left half red, right half blue.
fn two_tone(w: u32, h: u32) -> RgbImage {
    RgbImage::from_fn(w, h, |x, _| {
        if x < w / 2 {
            Rgb([220, 20, 20])
        } else {
            Rgb([20, 20, 220])
        }
    })
}

/// A JPEG with an APP1 EXIF block carrying `orientation`.
fn jpeg_with_orientation(img: &RgbImage, orientation: u16) -> Vec<u8> {
    let jpeg = encode(img, ImageFormat::Jpeg);
    let mut tiff = Vec::new();
    tiff.extend_from_slice(b"II*\0");
    tiff.extend_from_slice(&8u32.to_le_bytes());
    tiff.extend_from_slice(&1u16.to_le_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_le_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_le_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_le_bytes());
    tiff.extend_from_slice(&orientation.to_le_bytes());
    tiff.extend_from_slice(&[0, 0]);
    tiff.extend_from_slice(&0u32.to_le_bytes()); // no next IFD
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = jpeg[..2].to_vec(); // SOI
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG whose header declares `w` x `h` pixels, followed by a tiny data chunk.
fn png_declaring(w: u32, h: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    chunk(b"IEND", &[]);
    out
}

/// A real JPEG whose frame header is rewritten to claim `w` x `h`.
fn jpeg_declaring(w: u16, h: u16) -> Vec<u8> {
    let mut jpeg = encode(&two_tone(16, 16), ImageFormat::Jpeg);
    let sof = jpeg
        .windows(2)
        .position(|m| m[0] == 0xFF && (m[1] == 0xC0 || m[1] == 0xC2))
        .expect("frame header");
    jpeg[sof + 5..sof + 7].copy_from_slice(&h.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&w.to_be_bytes());
    jpeg
}

#[test]
fn reads_every_upload_format() {
    let img = two_tone(64, 48);
    for format in [
        ImageFormat::Png,
        ImageFormat::Jpeg,
        ImageFormat::WebP,
        ImageFormat::Gif,
        ImageFormat::Bmp,
    ] {
        let out = apply(&encode(&img, format), &[]).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        assert_eq!((out.width, out.height), (64, 48), "{format:?}");
        let back = decode(&out.jpeg);
        assert!(
            back.get_pixel(5, 24).0[0] > 150,
            "{format:?} kept its colours"
        );
    }
}

#[test]
fn the_result_is_a_jpeg_without_metadata() {
    let upload = jpeg_with_orientation(&two_tone(40, 20), 1);
    assert!(upload.windows(4).any(|w| w == b"Exif"));
    let out = apply(&upload, &[Operation::Enhance]).unwrap();
    assert_eq!(&out.jpeg[..3], &[0xFF, 0xD8, 0xFF]);
    assert!(
        !out.jpeg.windows(4).any(|w| w == b"Exif"),
        "no EXIF in the result"
    );
    assert_eq!(image::guess_format(&out.jpeg).unwrap(), ImageFormat::Jpeg);
}

#[test]
fn exif_orientation_is_applied() {
    // Orientation 6: stored sideways, shown turned 90 degrees clockwise, so the stored
    // left (red) half is shown at the top.
    let upload = jpeg_with_orientation(&two_tone(40, 20), 6);
    let out = apply(&upload, &[]).unwrap();
    assert_eq!((out.width, out.height), (20, 40));
    let img = decode(&out.jpeg);
    assert!(img.get_pixel(10, 5).0[0] > 150, "red on top");
    assert!(img.get_pixel(10, 35).0[2] > 150, "blue below");
    // Orientation 3 (upside down): red ends up on the right.
    let out = apply(&jpeg_with_orientation(&two_tone(40, 20), 3), &[]).unwrap();
    assert_eq!((out.width, out.height), (40, 20));
    assert!(decode(&out.jpeg).get_pixel(35, 10).0[0] > 150);
}

/// Photos cut after 10 %, 33 %, 66 % and 99 % of their bytes: decoders pad a cut-off
/// JPEG with grey, so without the completeness check an edit would keep the grey.
#[test]
fn cut_off_photos_are_refused_as_incomplete() {
    for file in [
        "face/astronaut-baseline.jpg",
        "face/astronaut-progressive.jpg",
        "face/astronaut.png",
        "face/astronaut.webp",
    ] {
        let full = testdata(file);
        assert!(apply(&full, &[]).is_ok(), "{file} whole");
        for percent in [10, 33, 66, 99] {
            let cut = full.len() * percent / 100;
            let err = apply(&full[..cut], &[]).unwrap_err();
            assert_eq!(err, EditError::Corrupt, "{file} cut at {percent} %");
            assert_eq!(err.code(), "image_incomplete");
            assert_eq!(
                err.user_message(),
                "This photo looks damaged or incomplete. Please choose it again."
            );
        }
    }
}

#[test]
fn bad_uploads_get_the_right_error() {
    assert_eq!(apply(b"", &[]).unwrap_err(), EditError::NotAnImage);
    assert_eq!(
        apply(b"hello, this is text", &[]).unwrap_err(),
        EditError::NotAnImage
    );
    assert_eq!(
        apply(b"%PDF-1.7\n", &[]).unwrap_err(),
        EditError::NotAnImage
    );

    let png = testdata("face/astronaut.png");
    assert_eq!(
        apply(&png[..png.len() / 2], &[]).unwrap_err(),
        EditError::Corrupt
    );
    assert_eq!(apply(&png[..40], &[]).unwrap_err(), EditError::Corrupt);
    let jpeg = testdata("noface/rocket.jpg");
    assert_eq!(
        apply(&jpeg[..jpeg.len() / 3], &[]).unwrap_err(),
        EditError::Corrupt
    );
    assert_eq!(apply(&jpeg[..200], &[]).unwrap_err(), EditError::Corrupt);

    // Decompression bombs: tiny files declaring huge images, refused from the header
    // as out-of-range dimensions (not as a file too large: the file is small).
    assert_eq!(
        apply(&png_declaring(100_000, 100_000), &[]).unwrap_err(),
        EditError::BadDimensions
    );
    assert_eq!(
        apply(&png_declaring(10_000, 10_000), &[]).unwrap_err(),
        EditError::BadDimensions
    );
    assert_eq!(
        apply(&jpeg_declaring(60_000, 60_000), &[]).unwrap_err(),
        EditError::BadDimensions
    );
    assert_eq!(
        apply(&jpeg_declaring(15_000, 15_000), &[]).unwrap_err(),
        EditError::BadDimensions
    );

    // More than 10 MB.
    let mut big = png.clone();
    big.resize(10 * 1024 * 1024 + 1, 0);
    assert_eq!(apply(&big, &[]).unwrap_err(), EditError::TooLarge);
}

#[test]
fn errors_have_stable_codes_and_user_messages() {
    assert_eq!(EditError::NoFace.code(), "no_face");
    assert_eq!(
        EditError::NoFace.user_message(),
        "We couldn't find a face to retouch. Try a front-facing, well-lit photo."
    );
    assert_eq!(
        EditError::TooLarge.user_message(),
        "File too large! Please upload an image under 10MB."
    );
}

#[test]
fn retouch_needs_a_face() {
    let coffee = testdata("noface/coffee.png");
    assert_eq!(
        apply(&coffee, &[Operation::Retouch]).unwrap_err(),
        EditError::NoFace
    );
    // The other edits work without one.
    apply(
        &coffee,
        &[
            Operation::Enhance,
            Operation::Background {
                backdrop: Backdrop::Blur,
            },
        ],
    )
    .unwrap();
}

#[test]
fn nothing_over_3840_on_the_long_side_leaves_the_engine() {
    let wide = RgbImage::from_fn(4400, 1100, |x, y| Rgb([(x / 20) as u8, (y / 5) as u8, 128]));
    let png = encode(&wide, ImageFormat::Png);
    for ops in [
        vec![],
        vec![Operation::Upscale {
            target: UpscaleTarget::Double,
        }],
        vec![Operation::Upscale {
            target: UpscaleTarget::FourK,
        }],
        vec![
            Operation::Enhance,
            Operation::Upscale {
                target: UpscaleTarget::Double,
            },
        ],
    ] {
        let out = apply(&png, &ops).unwrap();
        assert_eq!((out.width, out.height), (3840, 960), "{ops:?}");
        assert_eq!(decode(&out.jpeg).dimensions(), (3840, 960));
    }
    // Upscaling a phone-sized photo twice still stops at the cap.
    let small = encode(&two_tone(1200, 900), ImageFormat::Png);
    let double = Operation::Upscale {
        target: UpscaleTarget::Double,
    };
    let out = apply(&small, &[double.clone(), double]).unwrap();
    assert_eq!((out.width, out.height), (3840, 2880));
}

#[test]
fn upscale_to_4k_gives_3840_on_the_long_side() {
    let out = apply(
        &testdata("face/astronaut.png"),
        &[Operation::Upscale {
            target: UpscaleTarget::FourK,
        }],
    )
    .unwrap();
    assert_eq!((out.width, out.height), (3840, 3840));
    let out = apply(
        &testdata("noface/rocket.jpg"),
        &[Operation::Upscale {
            target: UpscaleTarget::Double,
        }],
    )
    .unwrap();
    assert_eq!((out.width, out.height), (1280, 854));
}

#[test]
fn the_same_photo_and_edits_give_the_same_bytes() {
    let photo = testdata("face/astronaut.png");
    let ops = [
        Operation::Enhance,
        Operation::Retouch,
        Operation::Background {
            backdrop: Backdrop::Blur,
        },
        Operation::Style {
            style: Style::Cinematic,
        },
        Operation::Adjust(Adjustments {
            brightness: 110.0,
            contrast: 90.0,
            saturation: 120.0,
            blur_px: 0.5,
        }),
        Operation::Sharpen,
        Operation::Upscale {
            target: UpscaleTarget::Double,
        },
    ];
    let a = apply(&photo, &ops).unwrap();
    let b = apply(&photo, &ops).unwrap();
    assert_eq!(a.jpeg, b.jpeg);
    // And the edits did something.
    let plain = apply(
        &photo,
        &[Operation::Upscale {
            target: UpscaleTarget::Double,
        }],
    )
    .unwrap();
    assert_ne!(a.jpeg, plain.jpeg);
}

#[test]
fn operations_serialise_as_the_api_documents_them() {
    let json = |op: &Operation| serde_json::to_value(op).unwrap();
    assert_eq!(
        json(&Operation::Enhance),
        serde_json::json!({"op": "enhance"})
    );
    assert_eq!(
        json(&Operation::Sharpen),
        serde_json::json!({"op": "sharpen"})
    );
    assert_eq!(
        json(&Operation::Upscale {
            target: UpscaleTarget::FourK
        }),
        serde_json::json!({"op": "upscale", "target": "fourK"})
    );
    assert_eq!(
        json(&Operation::Background {
            backdrop: Backdrop::Solid { rgb: [1, 2, 3] }
        }),
        serde_json::json!({"op": "background", "backdrop": {"kind": "solid", "rgb": [1, 2, 3]}})
    );
    assert_eq!(
        json(&Operation::Style {
            style: Style::BlackAndWhite
        }),
        serde_json::json!({"op": "style", "style": "blackAndWhite"})
    );
    let adjust = Operation::Adjust(Adjustments::default());
    assert_eq!(
        json(&adjust),
        serde_json::json!({"op": "adjust", "brightness": 100.0, "contrast": 100.0, "saturation": 100.0, "blurPx": 0.0})
    );
    for op in [
        adjust,
        Operation::Soften,
        Operation::Background {
            backdrop: Backdrop::Gradient {
                top: [1, 2, 3],
                bottom: [4, 5, 6],
            },
        },
    ] {
        let back: Operation = serde_json::from_value(json(&op)).unwrap();
        assert_eq!(back, op);
    }
}
