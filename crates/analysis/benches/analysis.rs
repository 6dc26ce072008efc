//! Face analysis on a 1080p and a 12 MP JPEG, decode included. The JPEGs are made at
//! set-up from the astronaut test portrait (upscaled, on a wider canvas, quality 90) and
//! written to `$CARGO_TARGET_DIR/bench-images/` (or `target/bench-images/`) so
//! `scripts/bench-peer-mediapipe.sh` can time MediaPipe on the very same files.
//! Hands analysis on a 1080p JPEG of the test hand (scaled to 80% of the frame height on
//! a plain backdrop), written to the same folder as `hand-1080p.jpg`. Feet analysis on
//! 1080-px-high JPEGs of the feet drawing (accepted: every check runs) and of the coffee
//! photo (refused by the skin measures, no network runs), both written there too.
//! Screening (nsfwjs's classifier) against the face analysis on the same two JPEGs.
use criterion::{Criterion, criterion_group, criterion_main};
use image::{DynamicImage, RgbImage, imageops};
use std::path::PathBuf;

fn bench_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("bench-images")
}

/// The portrait scaled to the frame height, centred on a canvas of the frame's width
/// whose sides repeat the portrait's edge columns.
fn make_jpeg(w: u32, h: u32) -> Vec<u8> {
    let src = image::open(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/face/astronaut.png"),
    )
    .expect("astronaut test image")
    .to_rgb8();
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

fn bench(c: &mut Criterion) {
    let dir = bench_dir();
    std::fs::create_dir_all(&dir).expect("bench dir");
    for (name, w, h) in [("1080p", 1920, 1080), ("12mp", 4000, 3000)] {
        let path = dir.join(format!("astronaut-{name}.jpg"));
        let bytes = make_jpeg(w, h);
        std::fs::write(&path, &bytes).expect("write bench image");
        let r = prettyscore_analysis::analyze_face(&bytes).expect("bench image has a face");
        eprintln!(
            "{name}: {} ({} bytes), score {}",
            path.display(),
            bytes.len(),
            r.score
        );
        let mut g = c.benchmark_group("analyze_face");
        g.sample_size(30);
        g.bench_function(name, |b| {
            b.iter(|| prettyscore_analysis::analyze_face(std::hint::black_box(&bytes)).unwrap())
        });
        g.finish();
    }
}

/// The test hand (a cut-out) scaled to 80% of the frame's height, centred on a plain
/// backdrop, as a JPEG of quality 90.
fn make_hand_jpeg(w: u32, h: u32) -> Vec<u8> {
    let hand = image::open(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/hands/main_droite_dessus_0.webp"),
    )
    .expect("test hand")
    .to_rgba8();
    let th = h * 8 / 10;
    let tw = hand.width() * th / hand.height();
    let hand = imageops::resize(&hand, tw, th, imageops::FilterType::CatmullRom);
    let mut canvas = image::RgbaImage::from_pixel(w, h, image::Rgba([214, 210, 204, 255]));
    imageops::overlay(
        &mut canvas,
        &hand,
        ((w - tw) / 2).into(),
        ((h - th) / 2).into(),
    );
    let mut out = Vec::new();
    let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
    DynamicImage::ImageRgba8(canvas)
        .to_rgb8()
        .write_with_encoder(enc)
        .expect("encode");
    out
}

fn bench_hands(c: &mut Criterion) {
    let dir = bench_dir();
    std::fs::create_dir_all(&dir).expect("bench dir");
    let bytes = make_hand_jpeg(1920, 1080);
    std::fs::write(dir.join("hand-1080p.jpg"), &bytes).expect("write bench image");
    let r = prettyscore_analysis::analyze_hands(&bytes).expect("bench image has a hand");
    eprintln!("hands 1080p: {} bytes, score {}", bytes.len(), r.score);
    let mut g = c.benchmark_group("analyze_hands");
    g.sample_size(30);
    g.bench_function("1080p", |b| {
        b.iter(|| prettyscore_analysis::analyze_hands(std::hint::black_box(&bytes)).unwrap())
    });
    g.finish();
}

/// A test image scaled to 1080 px high (its own aspect ratio), flattened onto white, as
/// a JPEG of quality 90.
fn make_1080_high_jpeg(rel: &str) -> Vec<u8> {
    let src = image::open(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel))
        .expect("test image")
        .to_rgba8();
    let h = 1080u32;
    let w = src.width() * h / src.height();
    let src = imageops::resize(&src, w, h, imageops::FilterType::CatmullRom);
    let mut canvas = image::RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
    imageops::overlay(&mut canvas, &src, 0, 0);
    let mut out = Vec::new();
    let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
    DynamicImage::ImageRgba8(canvas)
        .to_rgb8()
        .write_with_encoder(enc)
        .expect("encode");
    out
}

fn bench_feet(c: &mut Criterion) {
    let dir = bench_dir();
    std::fs::create_dir_all(&dir).expect("bench dir");
    let feet = make_1080_high_jpeg("../../testdata/feet/feet-in-sandals-drawing.png");
    let coffee = make_1080_high_jpeg("../../testdata/noface/coffee.png");
    std::fs::write(dir.join("feet-1080.jpg"), &feet).expect("write bench image");
    std::fs::write(dir.join("coffee-1080.jpg"), &coffee).expect("write bench image");
    let r = prettyscore_analysis::analyze_feet(&feet).expect("bench image has feet");
    eprintln!("feet 1170x1080: {} bytes, score {}", feet.len(), r.score);
    assert!(
        prettyscore_analysis::analyze_feet(&coffee).is_err(),
        "coffee is not feet"
    );
    let mut g = c.benchmark_group("analyze_feet");
    g.sample_size(30);
    g.bench_function("1170x1080 feet", |b| {
        b.iter(|| prettyscore_analysis::analyze_feet(std::hint::black_box(&feet)).unwrap())
    });
    g.bench_function("1440x1080 coffee (refused)", |b| {
        b.iter(|| prettyscore_analysis::analyze_feet(std::hint::black_box(&coffee)).unwrap_err())
    });
    g.finish();
}

/// Screening against the face analysis on the same photos (the 1080p and 12 MP astronaut
/// JPEGs above), decode included in both: criterion times each, and the ratio of their
/// medians over alternating runs is printed. Screening decodes every pixel (nsfwjs
/// samples the original), the face analysis a reduced image, so the ratio grows with
/// the photo.
fn bench_screening(c: &mut Criterion) {
    use prettyscore_analysis::{analyze_face, screen_image};
    use std::hint::black_box;
    use std::time::Instant;
    let mut g = c.benchmark_group("screening");
    g.sample_size(30);
    for (name, w, h) in [("1080p", 1920, 1080), ("12mp", 4000, 3000)] {
        let bytes = make_jpeg(w, h);
        let s = screen_image(&bytes).expect("screen the bench image");
        let median = |f: &dyn Fn()| {
            let mut t: Vec<f64> = (0..15)
                .map(|_| {
                    let t0 = Instant::now();
                    f();
                    t0.elapsed().as_secs_f64()
                })
                .collect();
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        };
        let screen = median(&|| {
            black_box(screen_image(black_box(&bytes)).unwrap());
        });
        let face = median(&|| {
            black_box(analyze_face(black_box(&bytes)).unwrap());
        });
        eprintln!(
            "screening {name}: {:.1} ms, face analysis {:.1} ms, ratio {:.2} (top class {})",
            screen * 1e3,
            face * 1e3,
            screen / face,
            s.top_class()
        );
        g.bench_function(format!("screen_image {name}"), |b| {
            b.iter(|| screen_image(black_box(&bytes)).unwrap())
        });
        g.bench_function(format!("analyze_face {name}"), |b| {
            b.iter(|| analyze_face(black_box(&bytes)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench, bench_hands, bench_feet, bench_screening);
criterion_main!(benches);
