//! The most single-precision multiply-adds one core of this machine can do a second, for
//! the speed figures in the README: a bound that no kernel, ours or XNNPACK's, can beat.
//! Independent chains (12 of 16 registers at 256 bits, 24 of 32 at 512, enough to cover
//! the latency), each `acc = acc * y + c` in registers (no memory traffic; it settles at
//! 2, so no infinities or denormals slow it),
//! as separate multiply and add (what our kernels do, for the same bits everywhere) and
//! as fused multiply-add (what XNNPACK does), 256 and 512 bits wide where the CPU has
//! them. Best of five runs of about 0.2 s each.
//!
//! Then it divides each analysis's multiply-adds (every network pass it runs, counted
//! from the models) by that rate.
//!
//! `cargo run --release --example peak_macs`

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;
    use std::hint::black_box;

    macro_rules! peak {
        ($name:ident, $feature:literal, $vec:ty, $set1:ident, $add:ident, $mul:ident, $fma:ident, $lanes:expr, $sums:expr) => {
            /// Multiply-adds done in `iters` rounds of `$sums` chains, separate or fused.
            #[target_feature(enable = $feature)]
            pub unsafe fn $name(iters: u64, fused: bool) -> u64 {
                let y: $vec = $set1(black_box(0.5));
                let c: $vec = $set1(black_box(1.0));
                let mut acc: [$vec; $sums] = black_box([$set1(0.0); $sums]);
                if fused {
                    for _ in 0..iters {
                        for a in acc.iter_mut() {
                            *a = $fma(*a, y, c);
                        }
                    }
                } else {
                    for _ in 0..iters {
                        for a in acc.iter_mut() {
                            *a = $add($mul(*a, y), c);
                        }
                    }
                }
                black_box(acc);
                iters * $sums * $lanes
            }
        };
    }

    peak!(
        avx2,
        "avx2,fma",
        __m256,
        _mm256_set1_ps,
        _mm256_add_ps,
        _mm256_mul_ps,
        _mm256_fmadd_ps,
        8,
        12
    );
    peak!(
        avx512,
        "avx512f",
        __m512,
        _mm512_set1_ps,
        _mm512_add_ps,
        _mm512_mul_ps,
        _mm512_fmadd_ps,
        16,
        24
    );
}

#[cfg(target_arch = "x86_64")]
fn main() {
    let mut peaks = Vec::new();
    let best = |f: &dyn Fn(u64) -> u64| {
        let iters = 20_000_000;
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                let macs = f(iters);
                macs as f64 / t.elapsed().as_secs_f64() / 1e9
            })
            .fold(0.0, f64::max)
    };
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA (checked above).
        let separate = best(&|n| unsafe { x86::avx2(n, false) });
        let fused = best(&|n| unsafe { x86::avx2(n, true) });
        println!("256-bit: {separate:.1} G multiply-adds/s separate, {fused:.1} G fused");
        peaks.push((separate, fused));
    }
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked above).
        let separate = best(&|n| unsafe { x86::avx512(n, false) });
        let fused = best(&|n| unsafe { x86::avx512(n, true) });
        println!("512-bit: {separate:.1} G multiply-adds/s separate, {fused:.1} G fused");
        peaks.push((separate, fused));
    }
    let separate = peaks.iter().map(|p| p.0).fold(0.0, f64::max);
    let fused = peaks.iter().map(|p| p.1).fold(0.0, f64::max);
    let count = |bytes: &[u8]| {
        prettyscore_analysis::tflite::Model::parse(bytes)
            .expect("embedded model")
            .multiply_adds() as f64
    };
    let detector = count(include_bytes!(
        "../../../models/face_detection_short_range.tflite"
    ));
    let mesh = count(include_bytes!("../../../models/face_landmark.tflite"));
    let palm = count(include_bytes!("../../../models/palm_detection_full.tflite"));
    let hand = count(include_bytes!("../../../models/hand_landmark_full.tflite"));
    // Each model's kernels against that peak: the best of 20 passes on a fixed input
    // (the arithmetic does not depend on the values), multiply-adds over time.
    let models: [(&str, &[u8]); 4] = [
        (
            "face detector",
            include_bytes!("../../../models/face_detection_short_range.tflite"),
        ),
        (
            "face mesh",
            include_bytes!("../../../models/face_landmark.tflite"),
        ),
        (
            "palm detector",
            include_bytes!("../../../models/palm_detection_full.tflite"),
        ),
        (
            "hand landmarks",
            include_bytes!("../../../models/hand_landmark_full.tflite"),
        ),
    ];
    for (name, bytes) in models {
        let m = prettyscore_analysis::tflite::Model::parse(bytes).expect("embedded model");
        let (h, w, c) = m.input_hwc();
        let input: Vec<f32> = (0..h * w * c)
            .map(|i| (i.wrapping_mul(2_654_435_761) % 1000) as f32 / 1000.0)
            .collect();
        let mut mirrored = input.clone();
        for row in mirrored.chunks_exact_mut(w * c) {
            let px: Vec<f32> = row.chunks_exact(c).rev().flatten().copied().collect();
            row.copy_from_slice(&px);
        }
        let time = |f: &dyn Fn()| {
            f();
            (0..20)
                .map(|_| {
                    let t = std::time::Instant::now();
                    f();
                    t.elapsed().as_secs_f64()
                })
                .fold(f64::MAX, f64::min)
        };
        let one = time(&|| {
            std::hint::black_box(m.run(&input));
        });
        let pair = time(&|| {
            std::hint::black_box(m.run_pair(&input, &mirrored));
        });
        let macs = m.multiply_adds() as f64;
        println!(
            "{name}: {:.1} M multiply-adds a pass; one pass {:.2} ms = {:.1} G/s = {:.0}% of \
             the separate peak; a pair (photo and mirror) {:.2} ms = {:.1} G/s = {:.0}%",
            macs / 1e6,
            one * 1e3,
            macs / one / 1e9,
            100.0 * macs / one / 1e9 / separate,
            pair * 1e3,
            2.0 * macs / pair / 1e9,
            100.0 * 2.0 * macs / pair / 1e9 / separate,
        );
    }
    // The passes each analysis runs (README, "Pipeline"): every network on the input and
    // on its mirror image, and the face detector twice more on a crop when the face is
    // small in the frame (as in the benchmark photos).
    for (name, macs) in [
        (
            "face (4 detector + 2 mesh passes)",
            4.0 * detector + 2.0 * mesh,
        ),
        (
            "hands (2 palm + 2 landmark passes)",
            2.0 * palm + 2.0 * hand,
        ),
    ] {
        println!(
            "{name}: {:.1} M multiply-adds, at least {:.1} ms separate, {:.1} ms fused",
            macs / 1e6,
            macs / separate / 1e6,
            macs / fused / 1e6
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("peak_macs measures x86-64 only");
}
