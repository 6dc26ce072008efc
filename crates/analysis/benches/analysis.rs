//! Face analysis on a 1080p and a 12 MP JPEG, decode included. The JPEGs are made at
//! set-up from the astronaut test portrait (upscaled, on a wider canvas, quality 90) and
//! written to `$CARGO_TARGET_DIR/bench-images/` (or `target/bench-images/`) so
//! `scripts/bench-peer-mediapipe.sh` can time MediaPipe on the very same files.
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

criterion_group!(benches, bench);
criterion_main!(benches);
