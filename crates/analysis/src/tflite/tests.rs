//! The kernels against plain loops and definitions, bit for bit where the kernel
//! promises the same arithmetic; the loader's errors.

use super::Model;
use super::kernels::conv::transpose_conv;
use super::kernels::depthwise::depthwise;
use super::kernels::elementwise::{hard_swish, logistic, softmax_rows};
use super::kernels::matmul::{matmul, matmul_blocked};
use super::kernels::pad_before;
use super::kernels::pool::{maxpool, maxpool_portable, spatial_mean};
use super::kernels::shape::resize_bilinear;
use super::ops::{Act, Pool};
use super::schema::f16_to_f32;

/// The wide (AVX, AVX-512) and portable paths must agree bit for bit.
#[test]
fn matmul_paths_are_bit_identical() {
    for n in [43, 45] {
        matmul_paths_agree(37, 29, n);
    }
    // A weight matrix large enough for the columns-first order (16, 8, 4 and 1 outputs;
    // 8, 4 and 1 rows).
    matmul_paths_agree(37, 300, 237);
}

/// Rows and outputs chosen to reach every block shape (8, 4 and 1 rows; 32, 16, 8, 4
/// and 1 outputs). Each wide path this CPU has is run, as well as the dispatching one.
fn matmul_paths_agree(rows: usize, k: usize, n: usize) {
    let mut seed = 12345u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    };
    let x: Vec<f32> = (0..rows * k).map(|_| rnd()).collect();
    let w: Vec<f32> = (0..k * n).map(|_| rnd()).collect();
    let b: Vec<f32> = (0..n).map(|_| rnd()).collect();
    let mut a = vec![0f32; rows * n];
    let mut c = vec![0f32; rows * n];
    matmul(&x, k, &w, &b, n, &mut a);
    matmul_blocked::<8, 4>(&x, k, &w, &b, n, &mut c);
    let mut naive = vec![0f32; rows * n];
    for p in 0..rows {
        for o in 0..n {
            let mut acc = b[o];
            for i in 0..k {
                acc += x[p * k + i] * w[i * n + o];
            }
            naive[p * n + o] = acc;
        }
    }
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a), bits(&c));
    assert_eq!(bits(&a), bits(&naive));
    #[cfg(target_arch = "x86_64")]
    {
        use super::kernels::matmul::{matmul_avx, matmul_avx512};
        use super::kernels::{has_avx, has_avx512};
        if has_avx() {
            let mut v = vec![0f32; rows * n];
            // SAFETY: AVX is present.
            unsafe { matmul_avx(&x, k, &w, &b, n, &mut v) };
            assert_eq!(bits(&v), bits(&naive), "AVX");
        }
        if has_avx512() {
            let mut v = vec![0f32; rows * n];
            // SAFETY: AVX-512F is present.
            unsafe { matmul_avx512(&x, k, &w, &b, n, &mut v) };
            assert_eq!(bits(&v), bits(&naive), "AVX-512");
        }
    }
}

/// The register-blocked depthwise kernel adds in the same order as a naive loop.
#[test]
fn depthwise_matches_a_naive_loop_bit_for_bit() {
    let (ih, iw, ch) = (7usize, 15usize, 45usize);
    let mut seed = 777u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    };
    let src: Vec<f32> = (0..ih * iw * ch).map(|_| rnd()).collect();
    let w: Vec<f32> = (0..9 * ch).map(|_| rnd()).collect();
    let b: Vec<f32> = (0..ch).map(|_| rnd()).collect();
    for stride in [1, 2] {
        let (oh, ow) = (ih.div_ceil(stride), iw.div_ceil(stride));
        let got = depthwise(
            &src,
            (ih, iw, ch),
            (oh, ow),
            &w,
            &b,
            (3, 3),
            (stride, stride),
            true,
            Act::None,
        );
        let pt = pad_before(ih, oh, 3, stride, true);
        let pl = pad_before(iw, ow, 3, stride, true);
        for r in 0..oh {
            for c in 0..ow {
                for q in 0..ch {
                    let mut v = b[q];
                    for a in 0..3 {
                        for bb in 0..3 {
                            let y = (r * stride + a) as isize - pt as isize;
                            let x = (c * stride + bb) as isize - pl as isize;
                            if y >= 0 && x >= 0 && y < ih as isize && x < iw as isize {
                                v += src[(y as usize * iw + x as usize) * ch + q]
                                    * w[(a * 3 + bb) * ch + q];
                            }
                        }
                    }
                    assert_eq!(v.to_bits(), got[(r * ow + c) * ch + q].to_bits());
                }
            }
        }
    }
}

/// TFLite's half-pixel bilinear resize: a two-pixel ramp doubled is the ramp sampled
/// at the new pixel centres (edges clamped), in every channel and row.
#[test]
fn resize_bilinear_follows_tflite_half_pixel_centres() {
    // 2 x 2 pixels, 2 channels: channel 0 a left-right ramp, channel 1 constant.
    let src = [0.0, 5.0, 1.0, 5.0, 0.0, 5.0, 1.0, 5.0];
    let out = resize_bilinear(&src, (2, 2, 2), (4, 4, 2), false, true);
    for row in out.chunks_exact(8) {
        let ch0: Vec<f32> = row.iter().step_by(2).copied().collect();
        assert_eq!(ch0, [0.0, 0.25, 0.75, 1.0]);
        assert!(row.iter().skip(1).step_by(2).all(|&v| v == 5.0));
    }
    // Align corners: the corners map onto the corners.
    let out = resize_bilinear(&[0.0, 3.0], (1, 2, 1), (1, 4, 1), true, false);
    assert_eq!(out, [0.0, 1.0, 2.0, 3.0]);
}

/// The gather-form transposed convolution equals the textbook scatter form (every
/// input pixel spreads its kernel over the output), with overlapping taps.
#[test]
fn transpose_conv_matches_the_scatter_definition() {
    let (ih, iw, ic, oc, k, s) = (3usize, 4usize, 2usize, 3usize, 3usize, 2usize);
    let (oh, ow) = (ih * s, iw * s);
    let mut seed = 99u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    };
    let src: Vec<f32> = (0..ih * iw * ic).map(|_| rnd()).collect();
    let w: Vec<f32> = (0..oc * k * k * ic).map(|_| rnd()).collect();
    let b: Vec<f32> = (0..oc).map(|_| rnd()).collect();
    let got = transpose_conv(
        &src,
        (ih, iw, ic),
        (oh, ow, oc),
        &w,
        &b,
        (k, k),
        (s, s),
        true,
    );
    let pad = ((ih - 1) * s + k - oh) / 2;
    let mut want = vec![0f64; oh * ow * oc];
    for y in 0..ih {
        for x in 0..iw {
            for a in 0..k {
                for c in 0..k {
                    let (oy, ox) = (
                        (y * s + a) as isize - pad as isize,
                        (x * s + c) as isize - pad as isize,
                    );
                    if oy < 0 || ox < 0 || oy >= oh as isize || ox >= ow as isize {
                        continue;
                    }
                    for o in 0..oc {
                        for i in 0..ic {
                            want[(oy as usize * ow + ox as usize) * oc + o] +=
                                src[(y * iw + x) * ic + i] as f64
                                    * w[((o * k + a) * k + c) * ic + i] as f64;
                        }
                    }
                }
            }
        }
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let w = w + b[i % oc] as f64;
        assert!((*g as f64 - w).abs() < 1e-5, "{i}: {g} vs {w}");
    }
}

#[test]
fn spatial_mean_averages_each_channel() {
    let src = [1.0, 10.0, 2.0, 20.0, 3.0, 30.0, 6.0, 60.0];
    assert_eq!(spatial_mean(&src, 4, 2), [3.0, 30.0]);
    assert_eq!(hard_swish(-4.0), 0.0);
    assert_eq!(hard_swish(4.0), 4.0);
    assert_eq!(hard_swish(1.0), 1.0 * 4.0 / 6.0);
    assert_eq!(logistic(0.0), 0.5);
}

/// SOFTMAX against its definition: each row sums to 1, keeps the order of its inputs,
/// does not overflow on large inputs (the row's maximum is subtracted first), and
/// `beta` scales the inputs.
#[test]
fn softmax_normalises_each_row_and_scales_by_beta() {
    let mut v = [1.0f32, 2.0, 3.0, 1000.0, 1000.0, 999.0];
    softmax_rows(&mut v, 3, 1.0);
    let e = [1f64.exp(), 2f64.exp(), 3f64.exp()];
    let s: f64 = e.iter().sum();
    for (got, want) in v[..3].iter().zip(e.iter().map(|x| x / s)) {
        assert!((*got as f64 - want).abs() < 1e-7, "{got} vs {want}");
    }
    let (a, b) = (
        1.0 / (2.0 + (-1f64).exp()),
        (-1f64).exp() / (2.0 + (-1f64).exp()),
    );
    assert!((v[3] as f64 - a).abs() < 1e-7 && v[3] == v[4]);
    assert!((v[5] as f64 - b).abs() < 1e-7);
    let mut w = [0.0f32, 2.0];
    softmax_rows(&mut w, 2, 0.5);
    assert!((w[1] as f64 - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-7);
    assert_eq!(w[0] + w[1], 1.0);
}

#[test]
fn half_floats_convert_exactly() {
    assert_eq!(f16_to_f32(0x3c00), 1.0);
    assert_eq!(f16_to_f32(0xc000), -2.0);
    assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
    assert_eq!(f16_to_f32(0x7bff), 65504.0);
}

/// An embedded model with its first operator code that has an explicit one-byte code
/// changed to `code` (that field and the full one).
fn with_opcode(code: u8) -> Vec<u8> {
    let mut m = include_bytes!("../../../../models/face_detection_short_range.tflite").to_vec();
    let u16_at = |m: &[u8], p: usize| u16::from_le_bytes([m[p], m[p + 1]]) as usize;
    let u32_at = |m: &[u8], p: usize| u32::from_le_bytes(m[p..p + 4].try_into().unwrap()) as usize;
    // Where field `i` of the table at `t` is, if present.
    let field = |m: &[u8], t: usize, i: usize| {
        let vt = (t as i64 - u32_at(m, t) as i32 as i64) as usize;
        let off = if 4 + 2 * i + 2 <= u16_at(m, vt) {
            u16_at(m, vt + 4 + 2 * i)
        } else {
            0
        };
        (off != 0).then_some(t + off)
    };
    let root = u32_at(&m, 0);
    let at = field(&m, root, 1).expect("operator codes");
    let codes = at + u32_at(&m, at);
    for k in 0..u32_at(&m, codes) {
        let p = codes + 4 + 4 * k;
        let t = p + u32_at(&m, p);
        if let Some(b) = field(&m, t, 0)
            && m[b] != 0
        {
            m[b] = code;
            if let Some(f) = field(&m, t, 3) {
                m[f..f + 4].copy_from_slice(&(code as i32).to_le_bytes());
            }
            return m;
        }
    }
    panic!("no operator code to change");
}

#[test]
fn an_unsupported_operator_is_named_in_the_error() {
    let e = Model::parse(&with_opcode(28))
        .err()
        .expect("TANH is not supported");
    assert_eq!(e.to_string(), "model error: unsupported operator TANH");
}

/// The AVX build of MAX_POOL_2D gives the portable loop's bits (2x2 and 3x3 windows,
/// strides 1 and 2, SAME padding at the edges, channel counts with remainders).
#[test]
fn maxpool_paths_are_bit_identical() {
    let (ih, iw, ch) = (9usize, 11usize, 29usize);
    let src: Vec<f32> = (0..ih * iw * ch)
        .map(|i| ((i * 7919) % 1013) as f32 / 97.0 - 5.0)
        .collect();
    for (k, s, same) in [(2, 2, false), (2, 2, true), (3, 2, true), (3, 1, true)] {
        let p = Pool {
            same,
            sw: s,
            sh: s,
            kw: k,
            kh: k,
        };
        let (oh, ow) = if same {
            (ih.div_ceil(s), iw.div_ceil(s))
        } else {
            ((ih - k) / s + 1, (iw - k) / s + 1)
        };
        let a = maxpool(&src, (ih, iw, ch), (oh, ow), p);
        let b = maxpool_portable(&src, (ih, iw, ch), (oh, ow), p);
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b), "k {k} s {s} same {same}");
    }
}

/// The multiply-add counts of the embedded models, as counted independently from the
/// `.tflite` files' own tensor shapes (PyPI's `tflite` schema package: output pixels x
/// weight elements for CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, input pixels x
/// weight elements for the transposed convolution), before any operator fusion.
#[test]
fn multiply_adds_match_an_independent_count() {
    let models: [(&[u8], u64); 5] = [
        (
            include_bytes!("../../../../models/face_detection_short_range.tflite"),
            30_760_960,
        ),
        (
            include_bytes!("../../../../models/face_landmark.tflite"),
            34_979_040,
        ),
        (
            include_bytes!("../../../../models/palm_detection_full.tflite"),
            337_333_248,
        ),
        (
            include_bytes!("../../../../models/hand_landmark_full.tflite"),
            330_968_800,
        ),
        (
            include_bytes!("../../../../models/selfie_segmentation.tflite"),
            59_215_744,
        ),
    ];
    for (bytes, expected) in models {
        assert_eq!(Model::parse(bytes).unwrap().multiply_adds(), expected);
    }
}

/// A pair run (photo and mirror, operator by operator) gives each input exactly the
/// outputs of a run of its own.
#[test]
fn a_pair_run_is_two_runs_bit_for_bit() {
    for bytes in [
        &include_bytes!("../../../../models/face_detection_short_range.tflite")[..],
        &include_bytes!("../../../../models/face_landmark.tflite")[..],
        &include_bytes!("../../../../models/palm_detection_full.tflite")[..],
        &include_bytes!("../../../../models/hand_landmark_full.tflite")[..],
    ] {
        let m = Model::parse(bytes).unwrap();
        let (h, w, c) = m.input_hwc();
        let a: Vec<f32> = (0..h * w * c)
            .map(|i| (i.wrapping_mul(2_654_435_761) % 1000) as f32 / 1000.0)
            .collect();
        let b: Vec<f32> = a.iter().rev().map(|v| 1.0 - v).collect();
        let (pa, pb) = m.run_pair(&a, &b);
        let bits = |o: &[Vec<f32>]| -> Vec<Vec<u32>> {
            o.iter()
                .map(|v| v.iter().map(|x| x.to_bits()).collect())
                .collect()
        };
        assert_eq!(bits(&pa), bits(&m.run(&a)));
        assert_eq!(bits(&pb), bits(&m.run(&b)));
    }
}
