//! Person segmentation (MediaPipe selfie segmentation) on the test photos.
mod common;
use common::*;
use prettyscore_analysis::{PersonMask, segment_person};

fn mask_of(img: &image::RgbImage) -> Option<PersonMask> {
    segment_person(img.as_raw(), img.width() as usize, img.height() as usize)
}

/// The mask's value at a point of the photo (`x`, `y` as fractions of its size).
fn at(m: &PersonMask, x: f32, y: f32) -> f32 {
    let gx = ((x * m.width as f32) as usize).min(m.width - 1);
    let gy = ((y * m.height as f32) as usize).min(m.height - 1);
    m.data[gy * m.width + gx]
}

#[test]
fn the_astronaut_is_found_with_her_hair_and_the_helmet_she_holds() {
    let m = mask_of(&rgb("face/astronaut.png")).expect("a person");
    assert_eq!((m.width, m.height), (256, 256));
    // Points of the 512 x 512 portrait: face, both sides of the hair, the held helmet.
    for (x, y) in [
        (225, 110),
        (160, 75),
        (295, 70),
        (440, 400),
        (470, 440),
        (410, 355),
    ] {
        let p = at(&m, x as f32 / 512.0, y as f32 / 512.0);
        assert!(p > 0.9, "({x}, {y}): {p}");
    }
    // The wall, the flag, the model shuttle.
    for (x, y) in [(480, 40), (25, 30), (430, 150), (450, 250)] {
        let p = at(&m, x as f32 / 512.0, y as f32 / 512.0);
        assert!(p < 0.1, "({x}, {y}): {p}");
    }
    let share = m.person_share();
    assert!((0.4..0.7).contains(&share), "{share}");
}

#[test]
fn a_wide_photo_uses_the_landscape_model() {
    // The portrait on a 16:9 canvas (edge columns repeated), as a 1080p photo would be.
    let face = resized(&rgb("face/astronaut.png"), 360, 360);
    let wide = image::RgbImage::from_fn(640, 360, |x, y| {
        *face.get_pixel(x.saturating_sub(140).min(359), y)
    });
    let m = mask_of(&wide).expect("a person");
    assert_eq!((m.width, m.height), (256, 144));
    assert!(at(&m, 320.0 / 640.0, 110.0 / 512.0) > 0.9, "her face");
    assert!(at(&m, 0.03, 0.1) < 0.1, "the far left");
}

#[test]
fn photos_without_a_person_give_none_or_their_subject() {
    assert!(mask_of(&rgb("noface/rocket.jpg")).is_none());
    // No person, but the network takes the cup for the subject: its middle, not the
    // table's corners.
    let cup = mask_of(&rgb("noface/coffee.png")).expect("the cup");
    assert!(at(&cup, 0.5, 0.4) > 0.5);
    assert!(at(&cup, 0.02, 0.95) < 0.1 && at(&cup, 0.98, 0.05) < 0.1);
}

#[test]
fn the_same_pixels_give_a_bit_identical_mask_pinned_across_machines() {
    let img = rgb("face/astronaut.png");
    let a = mask_of(&img).unwrap();
    let b = mask_of(&img).unwrap();
    let bits = |m: &PersonMask| m.data.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a), bits(&b));
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for v in &a.data {
        for byte in v.to_bits().to_le_bytes() {
            h ^= byte as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    eprintln!("mask fingerprint {h:#018x}");
    assert_eq!(h, PINNED_MASK, "mask fingerprint {h:#018x}");
}

/// Update only together with a deliberate change to the interpreter or the model.
const PINNED_MASK: u64 = 0xe58a_3c13_8538_812f;

#[test]
fn a_mirrored_photo_gives_nearly_the_mirrored_mask() {
    let img = rgb("face/astronaut.png");
    let a = mask_of(&img).unwrap();
    let b = mask_of(&image::imageops::flip_horizontal(&img)).unwrap();
    let mut diff = 0.0f64;
    for y in 0..a.height {
        for x in 0..a.width {
            let p = a.data[y * a.width + x];
            let q = b.data[y * b.width + (b.width - 1 - x)];
            diff += (p - q).abs() as f64;
        }
    }
    let mean = diff / a.data.len() as f64;
    assert!(mean < 0.03, "mean difference {mean}");
}
