//! Pixel-level tests of the operations: each checks, before JPEG encoding, that an
//! operation changes the pixels the way it claims. Test images are the project's
//! testdata/ photos and variants made here.

use crate::face::{Face, FaceLookup};
use crate::raster::{RgbImage, luma};
use crate::{Adjustments, Backdrop, Style, UpscaleTarget, codec, mask, ops};
use image::Rgb;
use std::path::PathBuf;

pub fn testdata(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn astronaut_bytes() -> Vec<u8> {
    testdata("face/astronaut.png")
}

fn astronaut() -> RgbImage {
    codec::decode(&astronaut_bytes()).unwrap()
}

fn astronaut_face() -> Face {
    let bytes = astronaut_bytes();
    let mut lookup = FaceLookup::new(&bytes);
    lookup.face().expect("the astronaut has a face").clone()
}

/// Mean absolute Laplacian of the luma over a rectangle: high-frequency energy.
fn hf_energy(img: &RgbImage, x0: u32, y0: u32, x1: u32, y1: u32) -> f64 {
    let l = |x: u32, y: u32| luma(&img.get_pixel(x, y).0) as f64;
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in y0.max(1)..y1.min(img.height() - 1) {
        for x in x0.max(1)..x1.min(img.width() - 1) {
            sum += (4.0 * l(x, y) - l(x - 1, y) - l(x + 1, y) - l(x, y - 1) - l(x, y + 1)).abs();
            n += 1.0;
        }
    }
    sum / n
}

fn channel_means(img: &RgbImage) -> [f64; 3] {
    let mut s = [0.0; 3];
    for p in img.pixels() {
        for (acc, v) in s.iter_mut().zip(p.0) {
            *acc += v as f64;
        }
    }
    let n = (img.width() * img.height()) as f64;
    s.map(|v| v / n)
}

fn mean_saturation(img: &RgbImage) -> f64 {
    let n = (img.width() * img.height()) as f64;
    img.pixels()
        .map(|p| {
            let max = p.0.iter().max().copied().unwrap() as f64;
            let min = p.0.iter().min().copied().unwrap() as f64;
            if max > 0.0 { (max - min) / max } else { 0.0 }
        })
        .sum::<f64>()
        / n
}

/// The given percentile of luma (0..255).
fn luma_percentile(img: &RgbImage, q: f64) -> f64 {
    let mut v: Vec<f32> = img.pixels().map(|p| luma(&p.0) * 255.0).collect();
    v.sort_by(f32::total_cmp);
    v[((v.len() - 1) as f64 * q) as usize] as f64
}

fn mapped(img: &RgbImage, f: impl Fn([u8; 3]) -> [u8; 3]) -> RgbImage {
    RgbImage::from_fn(img.width(), img.height(), |x, y| {
        Rgb(f(img.get_pixel(x, y).0))
    })
}

// --- enhance -------------------------------------------------------------------------

#[test]
fn enhance_stretches_a_low_contrast_histogram() {
    // The astronaut squeezed into 100..150.
    let flat = mapped(&astronaut(), |p| {
        p.map(|v| 100 + (v as u32 * 50 / 255) as u8)
    });
    let spread_before = luma_percentile(&flat, 0.99) - luma_percentile(&flat, 0.01);
    let mut out = flat.clone();
    ops::enhance(&mut out);
    let spread_after = luma_percentile(&out, 0.99) - luma_percentile(&out, 0.01);
    assert!(
        spread_after > 3.0 * spread_before,
        "spread {spread_before:.1} -> {spread_after:.1}"
    );
}

#[test]
fn enhance_removes_most_of_a_colour_cast() {
    // A blue cast: red and green dimmed.
    let cast = mapped(&astronaut(), |p| {
        [(p[0] as f32 * 0.8) as u8, (p[1] as f32 * 0.9) as u8, p[2]]
    });
    let before = channel_means(&cast);
    let mut out = cast.clone();
    ops::enhance(&mut out);
    let after = channel_means(&out);
    let imbalance = |m: [f64; 3]| (m[2] / m[0] - 1.0).abs();
    assert!(
        imbalance(after) < 0.7 * imbalance(before),
        "B/R {:.3} -> {:.3}",
        before[2] / before[0],
        after[2] / after[0]
    );
}

#[test]
fn enhance_adds_local_contrast_and_keeps_a_flat_image_flat() {
    let img = astronaut();
    let mut out = img.clone();
    ops::enhance(&mut out);
    assert!(hf_energy(&out, 0, 0, 512, 512) > hf_energy(&img, 0, 0, 512, 512));
    let mut grey = RgbImage::from_pixel(64, 48, Rgb([120, 120, 120]));
    ops::enhance(&mut grey);
    let first = *grey.get_pixel(0, 0);
    assert!(grey.pixels().all(|p| *p == first), "no texture invented");
    assert!(
        first.0[0] == first.0[1] && first.0[1] == first.0[2],
        "grey stays grey"
    );
}

#[test]
fn enhance_keeps_black_black_and_white_white() {
    for v in [0u8, 255] {
        let mut img = RgbImage::from_pixel(32, 32, Rgb([v; 3]));
        ops::enhance(&mut img);
        let out = img.get_pixel(16, 16).0[0] as i32;
        assert!((out - v as i32).abs() <= 4, "{v} -> {out}");
    }
}

#[test]
fn every_operation_copes_with_tiny_images() {
    let face = astronaut_face();
    for (w, h) in [(1, 1), (1, 7), (5, 2), (3, 3)] {
        let img = RgbImage::from_fn(w, h, |x, y| Rgb([(x * 40) as u8, (y * 30) as u8, 99]));
        let all = [
            crate::Operation::Enhance,
            crate::Operation::Upscale {
                target: UpscaleTarget::Double,
            },
            crate::Operation::Upscale {
                target: UpscaleTarget::FourK,
            },
            crate::Operation::Retouch,
            crate::Operation::Background {
                backdrop: Backdrop::Blur,
            },
            crate::Operation::Background {
                backdrop: Backdrop::Solid { rgb: [1, 2, 3] },
            },
            crate::Operation::Style {
                style: Style::Vintage,
            },
            crate::Operation::Adjust(Adjustments {
                brightness: 150.0,
                contrast: 50.0,
                saturation: 0.0,
                blur_px: 10.0,
            }),
            crate::Operation::Sharpen,
            crate::Operation::Soften,
        ];
        for op in all {
            // With a face (landmarks far outside such an image) and without.
            for known in [Some(face.clone()), None] {
                let mut faces = FaceLookup::known(known);
                let r = ops::run_all(img.clone(), std::slice::from_ref(&op), &mut faces);
                if let Ok(out) = r {
                    assert!(out.width() >= 1 && out.height() >= 1);
                }
            }
        }
    }
}

// --- upscale -------------------------------------------------------------------------

#[test]
fn upscale_double_doubles_the_dimensions() {
    let img = RgbImage::from_fn(300, 200, |x, y| Rgb([x as u8, y as u8, 90]));
    let out = ops::upscale(&img, UpscaleTarget::Double);
    assert_eq!(out.dimensions(), (600, 400));
}

#[test]
fn upscale_four_k_gives_3840_on_the_long_side() {
    let landscape = RgbImage::from_pixel(640, 480, Rgb([10, 20, 30]));
    assert_eq!(
        ops::upscale(&landscape, UpscaleTarget::FourK).dimensions(),
        (3840, 2880)
    );
    let portrait = RgbImage::from_pixel(480, 640, Rgb([10, 20, 30]));
    assert_eq!(
        ops::upscale(&portrait, UpscaleTarget::FourK).dimensions(),
        (2880, 3840)
    );
}

#[test]
fn upscale_double_is_capped_at_3840() {
    let big = RgbImage::from_pixel(3000, 2000, Rgb([1, 2, 3]));
    assert_eq!(
        ops::upscale(&big, UpscaleTarget::Double).dimensions(),
        (3840, 2560)
    );
    let at_cap = RgbImage::from_pixel(3840, 100, Rgb([1, 2, 3]));
    assert_eq!(
        ops::upscale(&at_cap, UpscaleTarget::Double).dimensions(),
        (3840, 100)
    );
}

#[test]
fn upscale_keeps_the_picture() {
    // Upscaled and reduced back, the photo is nearly what it was (a poor resampler, or
    // one that shifts by half a pixel, fails this).
    let img = astronaut();
    let up = ops::upscale(&img, UpscaleTarget::Double);
    let back = crate::resample::resize(&up, 512, 512);
    let mut diff = 0.0f64;
    for (a, b) in img.as_raw().iter().zip(back.as_raw()) {
        diff += (*a as f64 - *b as f64).abs();
    }
    let mad = diff / img.as_raw().len() as f64;
    assert!(mad < 3.0, "mean abs difference {mad:.2}");
}

// --- styles --------------------------------------------------------------------------

#[test]
fn black_and_white_leaves_no_colour() {
    let mut img = astronaut();
    ops::style(&mut img, Style::BlackAndWhite);
    assert!(img.pixels().all(|p| p.0[0] == p.0[1] && p.0[1] == p.0[2]));
    // ... but keeps the picture.
    assert!(hf_energy(&img, 0, 0, 512, 512) > 0.5 * hf_energy(&astronaut(), 0, 0, 512, 512));
}

#[test]
fn warm_raises_and_cool_lowers_the_red_to_blue_ratio() {
    let img = astronaut();
    let ratio = |i: &RgbImage| {
        let m = channel_means(i);
        m[0] / m[2]
    };
    let mut warm = img.clone();
    ops::style(&mut warm, Style::Warm);
    let mut cool = img.clone();
    ops::style(&mut cool, Style::Cool);
    assert!(ratio(&warm) > ratio(&img) * 1.1);
    assert!(ratio(&cool) < ratio(&img) / 1.1);
}

#[test]
fn vintage_fades_the_blacks_mutes_the_colours_and_darkens_the_corners() {
    let img = astronaut();
    let mut v = img.clone();
    ops::style(&mut v, Style::Vintage);
    assert!(mean_saturation(&v) < mean_saturation(&img));
    let mut black = RgbImage::from_pixel(100, 100, Rgb([0, 0, 0]));
    ops::style(&mut black, Style::Vintage);
    assert!(black.get_pixel(50, 50).0[0] >= 15, "faded blacks");
    let mut grey = RgbImage::from_pixel(100, 100, Rgb([128, 128, 128]));
    ops::style(&mut grey, Style::Vintage);
    assert!(luma(&grey.get_pixel(0, 0).0) < luma(&grey.get_pixel(50, 50).0) - 0.05);
    let c = grey.get_pixel(50, 50).0;
    assert!(c[0] > c[2], "sepia tint");
}

#[test]
fn cinematic_pushes_shadows_to_teal_highlights_to_orange_and_adds_contrast() {
    let ramp = RgbImage::from_fn(256, 4, |x, _| Rgb([x as u8; 3]));
    let mut out = ramp.clone();
    ops::style(&mut out, Style::Cinematic);
    let dark = out.get_pixel(40, 0).0;
    let light = out.get_pixel(215, 0).0;
    assert!(dark[2] > dark[0], "teal shadows {dark:?}");
    assert!(light[0] > light[2], "orange highlights {light:?}");
    let spread = |i: &RgbImage| luma(&i.get_pixel(200, 0).0) - luma(&i.get_pixel(55, 0).0);
    assert!(spread(&out) > spread(&ramp));
}

#[test]
fn vivid_raises_saturation() {
    let img = astronaut();
    let mut v = img.clone();
    ops::style(&mut v, Style::Vivid);
    assert!(mean_saturation(&v) > mean_saturation(&img) * 1.1);
}

// --- adjust --------------------------------------------------------------------------

#[test]
fn adjust_at_defaults_is_the_identity() {
    let img = astronaut();
    let mut out = img.clone();
    ops::adjust(&mut out, &Adjustments::default());
    assert_eq!(out, img);
}

#[test]
fn adjust_follows_the_css_filter_formulas() {
    let px = |a: Adjustments, p: [u8; 3]| {
        let mut img = RgbImage::from_pixel(3, 3, Rgb(p));
        ops::adjust(&mut img, &a);
        img.get_pixel(1, 1).0
    };
    let base = Adjustments::default();
    // brightness(1.5): times 1.5, clamped.
    assert_eq!(
        px(
            Adjustments {
                brightness: 150.0,
                ..base
            },
            [100, 50, 200]
        ),
        [150, 75, 255]
    );
    // contrast(0.5): (v - 0.5) * 0.5 + 0.5.
    assert_eq!(
        px(
            Adjustments {
                contrast: 50.0,
                ..base
            },
            [0, 255, 128]
        ),
        [64, 191, 128]
    );
    // saturate(0): the spec's matrix gives the same value in every channel.
    let grey = px(
        Adjustments {
            saturation: 0.0,
            ..base
        },
        [200, 100, 50],
    );
    assert_eq!(grey, [grey[0]; 3]);
    assert_eq!(
        grey[0],
        (0.213f32 * 200.0 + 0.715 * 100.0 + 0.072 * 50.0).round() as u8
    );
    // saturate(2) on a grey pixel changes nothing.
    assert_eq!(
        px(
            Adjustments {
                saturation: 200.0,
                ..base
            },
            [90, 90, 90]
        ),
        [90, 90, 90]
    );
    // brightness(0) is black; out-of-range values are clamped to 200 %.
    assert_eq!(
        px(
            Adjustments {
                brightness: 0.0,
                ..base
            },
            [90, 120, 200]
        ),
        [0, 0, 0]
    );
    assert_eq!(
        px(
            Adjustments {
                brightness: 900.0,
                ..base
            },
            [50, 60, 70]
        ),
        px(
            Adjustments {
                brightness: 200.0,
                ..base
            },
            [50, 60, 70]
        )
    );
    // A non-finite value is the default.
    assert_eq!(
        px(
            Adjustments {
                contrast: f32::NAN,
                ..base
            },
            [12, 34, 56]
        ),
        [12, 34, 56]
    );
}

#[test]
fn adjust_blur_softens_in_proportion_to_the_radius() {
    let img = astronaut();
    let hf = |px: f32| {
        let mut out = img.clone();
        ops::adjust(
            &mut out,
            &Adjustments {
                blur_px: px,
                ..Adjustments::default()
            },
        );
        hf_energy(&out, 0, 0, 512, 512)
    };
    let (h0, h1, h5) = (hf(0.0), hf(1.0), hf(5.0));
    assert!(h1 < h0 * 0.7 && h5 < h1 * 0.5, "{h0:.3} {h1:.3} {h5:.3}");
}

// --- sharpen / soften ----------------------------------------------------------------

#[test]
fn sharpen_adds_and_soften_removes_high_frequencies() {
    let img = astronaut();
    let base = hf_energy(&img, 0, 0, 512, 512);
    let mut s = img.clone();
    ops::sharpen(&mut s);
    let mut f = img.clone();
    ops::soften(&mut f);
    assert!(hf_energy(&s, 0, 0, 512, 512) > base * 1.2);
    assert!(hf_energy(&f, 0, 0, 512, 512) < base * 0.8);
}

// --- retouch -------------------------------------------------------------------------

#[test]
fn retouch_smooths_skin_inside_the_face_and_leaves_the_rest_alone() {
    let img = astronaut();
    let face = astronaut_face();
    let (w, h) = (img.width() as usize, img.height() as usize);
    let skin = mask::skin(&face, w, h).expect("skin mask");
    let mut out = img.clone();
    assert!(ops::retouch(&mut out, &face));

    // High frequencies weighted by the skin mask.
    let weighted_hf = |i: &RgbImage| {
        let l = |x: usize, y: usize| luma(&i.get_pixel(x as u32, y as u32).0) as f64;
        let (mut s, mut n) = (0.0, 0.0);
        for y in 1..skin.rect.h - 1 {
            for x in 1..skin.rect.w - 1 {
                let a = skin.alpha.at(x, y) as f64;
                let (gx, gy) = (skin.rect.x + x, skin.rect.y + y);
                let lap =
                    4.0 * l(gx, gy) - l(gx - 1, gy) - l(gx + 1, gy) - l(gx, gy - 1) - l(gx, gy + 1);
                s += a * lap.abs();
                n += a;
            }
        }
        s / n
    };
    let (before, after) = (weighted_hf(&img), weighted_hf(&out));
    assert!(after < 0.75 * before, "skin HF {before:.4} -> {after:.4}");

    // Nothing outside the face rectangle changed, not one pixel.
    let r = skin.rect;
    for (x, y, p) in out.enumerate_pixels() {
        let inside = (x as usize) >= r.x
            && (x as usize) < r.x + r.w
            && (y as usize) >= r.y
            && (y as usize) < r.y + r.h;
        if !inside {
            assert_eq!(p, img.get_pixel(x, y), "({x},{y}) outside the face changed");
        }
    }
    // The eyes are excluded from the mask.
    let pts = face.points_px(w, h);
    for eye in [159usize, 386] {
        let (ex, ey) = (pts[eye][0] as usize - r.x, pts[eye][1] as usize - r.y);
        assert!(
            skin.alpha.at(ex, ey) < 0.3,
            "eye landmark {eye} is masked out"
        );
    }
    // The cheek is in it.
    let cheek = pts[205];
    assert!(
        skin.alpha
            .at(cheek[0] as usize - r.x, cheek[1] as usize - r.y)
            > 0.8
    );
}

// --- background ----------------------------------------------------------------------

/// The face box and a background patch of the astronaut (top-right corner region,
/// which is behind her).
fn face_and_background_rects(face: &Face, w: u32, h: u32) -> ([u32; 4], [u32; 4]) {
    let [x0, y0, x1, y1] = face.bbox_px(w as usize, h as usize);
    let f = [x0 as u32, y0 as u32, x1 as u32, y1 as u32];
    let bg = [(w as f32 * 0.78) as u32, 0, w, (h as f32 * 0.25) as u32];
    (f, bg)
}

#[test]
fn background_blur_keeps_the_face_sharper_than_the_background() {
    let bytes = astronaut_bytes();
    let img = astronaut();
    let face = astronaut_face();
    let mut out = img.clone();
    ops::background(&mut out, Backdrop::Blur, &mut FaceLookup::new(&bytes));
    let (f, bg) = face_and_background_rects(&face, 512, 512);
    let hf = |i: &RgbImage, r: [u32; 4]| hf_energy(i, r[0], r[1], r[2], r[3]);
    let face_kept = hf(&out, f) / hf(&img, f);
    let bg_kept = hf(&out, bg) / hf(&img, bg);
    assert!(face_kept > 0.8, "face keeps its detail ({face_kept:.2})");
    assert!(bg_kept < 0.4, "background loses its detail ({bg_kept:.2})");
    assert!(hf(&out, f) > 2.0 * hf(&out, bg));
}

/// Points of the astronaut portrait (512 x 512), read off the photo: on the helmet she
/// holds (its white rim and its dark shell out to the right edge), on both sides and the
/// top of her hair; and background well away from her (the wall, the flag, the model
/// shuttle, the dark table).
const ASTRONAUT_PERSON: [(u32, u32); 9] = [
    (410, 355),
    (440, 400),
    (470, 440),
    (490, 430),
    (160, 75),
    (165, 90),
    (290, 85),
    (295, 70),
    (225, 25),
];
const WHITE: [u8; 3] = [255, 255, 255];
const ASTRONAUT_BACKGROUND: [(u32, u32); 7] = [
    (480, 40),
    (380, 30),
    (430, 150),
    (450, 250),
    (470, 300),
    (25, 30),
    (60, 200),
];

/// 'White background' keeps what the old heuristic cut away (the right part of the
/// helmet, the sides of the hair: it turned (410, 355), (440, 400), (470, 440),
/// (490, 430) and (295, 70) white) and whitens the background far from her.
#[test]
fn white_background_keeps_the_held_helmet_and_both_sides_of_the_hair() {
    let bytes = astronaut_bytes();
    let img = astronaut();
    let mut out = img.clone();
    ops::background(
        &mut out,
        crate::WHITE_BACKDROP,
        &mut FaceLookup::new(&bytes),
    );
    for (x, y) in ASTRONAUT_PERSON {
        assert_eq!(out.get_pixel(x, y), img.get_pixel(x, y), "({x}, {y}) kept");
    }
    for (x, y) in ASTRONAUT_BACKGROUND {
        assert_eq!(out.get_pixel(x, y).0, WHITE, "({x}, {y}) white");
    }
}

/// 'Blur background' changes the background far from her and leaves her untouched.
#[test]
fn blur_background_changes_the_far_background_and_not_the_person() {
    let bytes = astronaut_bytes();
    let img = astronaut();
    let mut out = img.clone();
    ops::background(&mut out, Backdrop::Blur, &mut FaceLookup::new(&bytes));
    for (x, y) in ASTRONAUT_PERSON {
        assert_eq!(out.get_pixel(x, y), img.get_pixel(x, y), "({x}, {y}) kept");
    }
    // The flag's stars and stripes and the model shuttle's outline are smeared: 5 x 5
    // patches there change by more than a level on average.
    for (x, y) in [
        (25, 30),
        (40, 120),
        (60, 200),
        (395, 80),
        (430, 150),
        (450, 250),
    ] {
        let mut diff = 0.0;
        for dy in 0..5 {
            for dx in 0..5 {
                let (a, b) = (
                    out.get_pixel(x + dx - 2, y + dy - 2),
                    img.get_pixel(x + dx - 2, y + dy - 2),
                );
                diff += (luma(&a.0) - luma(&b.0)).abs() as f64 * 255.0 / 25.0;
            }
        }
        assert!(diff > 1.0, "({x}, {y}) changed by {diff:.2} levels");
    }
}

/// The man in profile (his face is refused as too small by the analysis, so the old
/// heuristic fell back to the centre of the frame: it whitened his back and kept the
/// grass): his coat and head stay, the sky and the grass go.
#[test]
fn white_background_keeps_the_cameramans_back_and_replaces_the_grass() {
    let bytes = testdata("face/cameraman-gray.png");
    let img = codec::decode(&bytes).unwrap();
    let mut out = img.clone();
    ops::background(
        &mut out,
        crate::WHITE_BACKDROP,
        &mut FaceLookup::new(&bytes),
    );
    for (x, y) in [
        (30, 250),
        (60, 200),
        (100, 150),
        (60, 450),
        (120, 350),
        (210, 100),
    ] {
        assert_eq!(out.get_pixel(x, y), img.get_pixel(x, y), "({x}, {y}) kept");
    }
    for (x, y) in [(450, 50), (20, 60), (450, 400), (400, 300), (440, 470)] {
        assert_eq!(out.get_pixel(x, y).0, WHITE, "({x}, {y}) white");
    }
}

/// Where the network finds no one (the rocket launch), the edit is the heuristic's,
/// exactly, and still replaces the corners.
#[test]
fn without_a_person_background_edits_fall_back_to_the_heuristic() {
    let bytes = testdata("noface/rocket.jpg");
    let img = codec::decode(&bytes).unwrap();
    let (w, h) = img.dimensions();
    assert!(prettyscore_analysis::segment_person(img.as_raw(), w as usize, h as usize).is_none());
    let blue = Backdrop::Solid { rgb: [0, 0, 255] };
    let mut out = img.clone();
    ops::background(&mut out, blue, &mut FaceLookup::new(&bytes));
    let mut fallback = img.clone();
    ops::background_behind(&mut fallback, blue, &mask::subject_heuristic(&img, None));
    assert!(out == fallback);
    assert_eq!(out.get_pixel(2, 2).0, [0, 0, 255]);
}

#[test]
fn the_subject_mask_is_the_same_every_time() {
    let bytes = astronaut_bytes();
    let img = astronaut();
    let a = mask::subject(&img, &mut FaceLookup::new(&bytes)).alpha_map(&img);
    let b = mask::subject(&img, &mut FaceLookup::new(&bytes)).alpha_map(&img);
    assert!(a == b);
    // Neither all person nor all background.
    let person = a.iter().filter(|&&v| v >= 128).count() as f64 / a.len() as f64;
    assert!((0.3..0.8).contains(&person), "{person:.2}");
}

/// The heuristic fallback with a face: solid and studio backdrops replace the corner and
/// keep the face.
#[test]
fn the_heuristic_replaces_the_background_not_the_face() {
    let img = astronaut();
    let face = astronaut_face();
    let (f, _) = face_and_background_rects(&face, 512, 512);
    let centre = ((f[0] + f[2]) / 2, (f[1] + f[3]) / 2);

    let mut white = img.clone();
    let heuristic = mask::subject_heuristic(&img, Some(&face));
    ops::background_behind(
        &mut white,
        Backdrop::Solid {
            rgb: [255, 255, 255],
        },
        &heuristic,
    );
    assert!(
        white.get_pixel(505, 10).0.iter().all(|&v| v >= 250),
        "corner is white"
    );
    assert_eq!(
        white.get_pixel(centre.0, centre.1),
        img.get_pixel(centre.0, centre.1)
    );

    let (top, bottom) = ([200, 200, 210], [40, 40, 50]);
    let mut studio = img.clone();
    ops::background_behind(&mut studio, Backdrop::Gradient { top, bottom }, &heuristic);
    let corner = studio.get_pixel(505, 5).0;
    assert!(
        corner
            .iter()
            .zip(top)
            .all(|(&a, b)| (a as i32 - b as i32).abs() <= 3),
        "{corner:?}"
    );
    let lower = studio.get_pixel(505, 300).0;
    assert!(lower[0] < corner[0], "darker lower down");
    assert_eq!(
        studio.get_pixel(centre.0, centre.1),
        img.get_pixel(centre.0, centre.1)
    );
}

#[test]
fn the_heuristic_without_a_face_uses_the_centre_of_the_frame() {
    let coffee = codec::decode(&testdata("noface/coffee.png")).unwrap();
    let mut out = coffee.clone();
    ops::background_behind(
        &mut out,
        Backdrop::Solid { rgb: [0, 0, 255] },
        &mask::subject_heuristic(&coffee, None),
    );
    let (w, h) = out.dimensions();
    // Corners replaced, the middle kept.
    let corner = out.get_pixel(2, 2).0;
    assert!(
        corner[0] <= 3 && corner[1] <= 3 && corner[2] >= 252,
        "{corner:?}"
    );
    assert_eq!(
        out.get_pixel(w / 2, h * 6 / 10),
        coffee.get_pixel(w / 2, h * 6 / 10)
    );
}

// --- pipeline ------------------------------------------------------------------------

#[test]
fn retouch_without_a_face_is_a_clear_error() {
    let coffee = codec::decode(&testdata("noface/coffee.png")).unwrap();
    let mut none = FaceLookup::known(None);
    let r = ops::run_all(coffee, &[crate::Operation::Retouch], &mut none);
    assert_eq!(r.unwrap_err(), crate::EditError::NoFace);
}
