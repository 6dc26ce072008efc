//! Whole edits as the server runs them (decode, operations, JPEG encode) on a 12 MP
//! JPEG and a 1080p JPEG made at set-up from the astronaut test portrait (scaled up on a
//! wider canvas whose sides repeat the portrait's edge columns, quality 90).
use criterion::{Criterion, criterion_group, criterion_main};
use image::{DynamicImage, RgbImage, imageops};
use prettyscore_imaging::{Backdrop, Operation, UpscaleTarget, apply};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

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
    let photos = [
        ("12mp", make_jpeg(4000, 3000)),
        ("1080p", make_jpeg(1920, 1080)),
    ];
    let cases: Vec<(&str, Vec<Operation>)> = vec![
        ("decode+encode", vec![]),
        ("enhance", vec![Operation::Enhance]),
        (
            "upscale_4k",
            vec![Operation::Upscale {
                target: UpscaleTarget::FourK,
            }],
        ),
        ("retouch", vec![Operation::Retouch]),
        (
            "background_blur",
            vec![Operation::Background {
                backdrop: Backdrop::Blur,
            }],
        ),
    ];
    for (name, bytes) in &photos {
        let out = apply(bytes, &[]).expect("bench photo decodes");
        eprintln!(
            "{name}: {} bytes in, works at {}x{}",
            bytes.len(),
            out.width,
            out.height
        );
        let mut g = c.benchmark_group(*name);
        g.sample_size(10);
        g.warm_up_time(Duration::from_secs(2));
        g.measurement_time(Duration::from_secs(12));
        for (op, ops) in &cases {
            g.bench_function(*op, |b| {
                b.iter(|| apply(black_box(bytes), black_box(ops)).unwrap())
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
