//! Convolutions: CONV_2D as im2col and a matrix product (with the operators folded into
//! it applied while its outputs are still in the cache), and MediaPipe's transposed
//! convolution.

use super::super::arena::{alloc_overwritten, release};
use super::super::ops::Act;
#[cfg(target_arch = "x86_64")]
use super::has_avx;
use super::matmul::matmul;
use super::{apply, pad_before};

#[allow(clippy::too_many_arguments)]
pub(crate) fn conv(
    src: &[f32],
    (ih, iw, ic): (usize, usize, usize),
    (oh, ow, oc): (usize, usize, usize),
    w: &[f32],
    b: &[f32],
    (kh, kw): (usize, usize),
    (sh, sw): (usize, usize),
    same: bool,
    a: Act,
    epi: EpiArgs,
) -> Vec<f32> {
    // Every output is written by `matmul`.
    let mut out = alloc_overwritten(oh * ow * oc);
    const CHUNK: usize = 128;
    let pixels = oh * ow;
    if kh == 1 && kw == 1 && sh == 1 && sw == 1 && ih == oh && iw == ow {
        // In chunks of pixels, so the epilogue finds its outputs still in the cache (rows
        // are independent: the same sums either way).
        let mut p0 = 0;
        while p0 < pixels {
            let np = CHUNK.min(pixels - p0);
            let o = &mut out[p0 * oc..(p0 + np) * oc];
            matmul(&src[p0 * ic..(p0 + np) * ic], ic, w, b, oc, o);
            epilogue(o, p0, oc, a, epi);
            p0 += np;
        }
    } else {
        // im2col: one row of (tap, input channel) values per output pixel, zeros for
        // padding, in the same order as the weights. The taps of one kernel row are
        // contiguous in both the input and the column row, so each is one copy.
        let pt = pad_before(ih, oh, kh, sh, same);
        let pl = pad_before(iw, ow, kw, sw, same);
        let k = kh * kw * ic;
        // Built and multiplied 128 output pixels at a time, so the columns stay in the
        // cache (every output is computed exactly as with one big matrix).
        // Every value is written below (copied or zeroed).
        let mut cols = alloc_overwritten(CHUNK.min(pixels) * k);
        let mut p0 = 0;
        while p0 < pixels {
            let np = CHUNK.min(pixels - p0);
            for p in p0..p0 + np {
                let (r, c) = (p / ow, p % ow);
                let row = &mut cols[(p - p0) * k..][..k];
                let x0 = (c * sw) as isize - pl as isize;
                let b_lo = (-x0).clamp(0, kw as isize) as usize;
                let b_hi = (iw as isize - x0).clamp(b_lo as isize, kw as isize) as usize;
                for a_ in 0..kh {
                    let seg = &mut row[a_ * kw * ic..(a_ + 1) * kw * ic];
                    let y = (r * sh + a_) as isize - pt as isize;
                    if y < 0 || y >= ih as isize {
                        seg.fill(0.0);
                        continue;
                    }
                    if b_lo == 0 && b_hi == kw {
                        // A whole kernel row inside the image: the first layers' short
                        // segments (3x3 or 5x5 taps of 3 channels) as fixed-size copies.
                        let s0 = (y as usize * iw + x0 as usize) * ic;
                        let from = &src[s0..s0 + kw * ic];
                        match kw * ic {
                            9 => copy_fixed::<9>(seg, from),
                            15 => copy_fixed::<15>(seg, from),
                            _ => seg.copy_from_slice(from),
                        }
                        continue;
                    }
                    seg[..b_lo * ic].fill(0.0);
                    let s0 = (y as usize * iw + (x0 + b_lo as isize) as usize) * ic;
                    seg[b_lo * ic..b_hi * ic].copy_from_slice(&src[s0..s0 + (b_hi - b_lo) * ic]);
                    seg[b_hi * ic..].fill(0.0);
                }
            }
            matmul(
                &cols[..np * k],
                k,
                w,
                b,
                oc,
                &mut out[p0 * oc..(p0 + np) * oc],
            );
            epilogue(&mut out[p0 * oc..(p0 + np) * oc], p0, oc, a, epi);
            p0 += np;
        }
        release(cols);
    }
    out
}

/// The skip input with its channel count, RELU, PRELU slopes (see [`Epi`](crate::tflite::ops::Epi)).
type EpiArgs<'a> = (Option<(&'a [f32], usize)>, bool, Option<&'a [f32]>);

/// The convolution's own activation, then the folded operators, on the outputs of
/// pixels `p0..` (`out` holds whole pixels of `oc` channels).
///
/// One pass: each value goes through the same operations in the same order as the
/// operators did one after another (activation, `+ skip` or `+ 0.0` for the skip's
/// padded channels, RELU, PRELU), so the bits are the same; only the loads and stores
/// between them are gone.
#[inline]
fn epilogue(out: &mut [f32], p0: usize, oc: usize, a: Act, (skip, relu, prelu): EpiArgs) {
    if oc == 0 || (a == Act::None && skip.is_none() && !relu && prelu.is_none()) {
        return;
    }
    let np = out.len() / oc;
    let skip = skip.map(|(s, sc)| (&s[p0 * sc..(p0 + np) * sc], sc));
    #[cfg(target_arch = "x86_64")]
    if has_avx() {
        // SAFETY: AVX is present (checked at run time).
        unsafe { epilogue_avx(out, oc, a, skip, relu, prelu) };
        return;
    }
    epilogue_rows(out, oc, a, skip, relu, prelu);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn epilogue_avx(
    out: &mut [f32],
    oc: usize,
    a: Act,
    skip: Option<(&[f32], usize)>,
    relu: bool,
    prelu: Option<&[f32]>,
) {
    epilogue_rows(out, oc, a, skip, relu, prelu);
}

/// The epilogue's loop, specialised for the combinations the models use (the branches
/// taken out of the per-value loop so it vectorises).
#[inline(always)]
fn epilogue_rows(
    out: &mut [f32],
    oc: usize,
    a: Act,
    skip: Option<(&[f32], usize)>,
    relu: bool,
    prelu: Option<&[f32]>,
) {
    if prelu.is_some_and(|al| al.len() != oc) || skip.is_some_and(|(_, sc)| sc > oc) {
        return epilogue_general(out, oc, a, skip, relu, prelu);
    }
    match (a, skip, relu, prelu) {
        (Act::None, Some((s, sc)), true, None) => {
            epilogue_fused::<true, true, false>(out, oc, Some((s, sc)), None)
        }
        (Act::None, Some((s, sc)), false, Some(al)) => {
            epilogue_fused::<true, false, true>(out, oc, Some((s, sc)), Some(al))
        }
        (Act::None, Some((s, sc)), false, None) => {
            epilogue_fused::<true, false, false>(out, oc, Some((s, sc)), None)
        }
        (Act::None, None, true, None) => epilogue_fused::<false, true, false>(out, oc, None, None),
        (Act::None, None, false, Some(al)) => {
            epilogue_fused::<false, false, true>(out, oc, None, Some(al))
        }
        _ => epilogue_general(out, oc, a, skip, relu, prelu),
    }
}

/// One output pixel row at a time: `+ skip` (or `+ 0.0` past the skip's channels), then
/// RELU, then PRELU, each value once.
#[inline(always)]
fn epilogue_fused<const SKIP: bool, const RELU: bool, const PRELU: bool>(
    out: &mut [f32],
    oc: usize,
    skip: Option<(&[f32], usize)>,
    prelu: Option<&[f32]>,
) {
    let (s, sc) = skip.unwrap_or((&[], 0));
    let alpha = prelu.unwrap_or(&[]);
    for (r, row) in out.chunks_exact_mut(oc).enumerate() {
        let (head, tail) = row.split_at_mut(if SKIP { sc } else { 0 });
        let (ah, at) = alpha.split_at(if PRELU { head.len() } else { 0 });
        let srow = if SKIP {
            &s[r * sc..r * sc + head.len()]
        } else {
            &[][..]
        };
        let tail_alpha = if PRELU { at } else { &[][..] };
        let step = |x: f32, al: f32| {
            let x = if RELU { x.max(0.0) } else { x };
            if PRELU {
                x.max(0.0) + x.min(0.0) * al
            } else {
                x
            }
        };
        if PRELU {
            for ((v, &q), &al) in head.iter_mut().zip(srow).zip(ah) {
                *v = step(*v + q, al);
            }
            for (v, &al) in tail.iter_mut().zip(tail_alpha) {
                // The zero channels of the padded skip tensor, added as the ADD did.
                *v = step(if SKIP { *v + 0.0 } else { *v }, al);
            }
        } else {
            for (v, &q) in head.iter_mut().zip(srow) {
                *v = step(*v + q, 0.0);
            }
            for v in tail.iter_mut() {
                *v = step(if SKIP { *v + 0.0 } else { *v }, 0.0);
            }
        }
    }
}

/// Any other combination, operator by operator as the unfused model ran them.
fn epilogue_general(
    out: &mut [f32],
    oc: usize,
    a: Act,
    skip: Option<(&[f32], usize)>,
    relu: bool,
    prelu: Option<&[f32]>,
) {
    if a != Act::None {
        for o in out.iter_mut() {
            *o = apply(*o, a);
        }
    }
    if let Some((s, sc)) = skip {
        for (row, srow) in out.chunks_exact_mut(oc).zip(s.chunks_exact(sc)) {
            let (head, tail) = row.split_at_mut(sc);
            for (v, &q) in head.iter_mut().zip(srow) {
                *v += q;
            }
            // The zero channels of the padded skip tensor, added as the ADD did.
            for v in tail.iter_mut() {
                *v += 0.0;
            }
        }
    }
    if relu {
        for e in out.iter_mut() {
            *e = e.max(0.0);
        }
    }
    if let Some(alpha) = prelu {
        // As the PRELU operator: max(v,0) + min(v,0)*a.
        for row in out.chunks_exact_mut(alpha.len()) {
            for (e, &al) in row.iter_mut().zip(alpha) {
                let x = *e;
                *e = x.max(0.0) + x.min(0.0) * al;
            }
        }
    }
}

/// Copy a short segment of known length (inlined moves instead of a `memcpy` call).
#[inline(always)]
fn copy_fixed<const N: usize>(to: &mut [f32], from: &[f32]) {
    let to: &mut [f32; N] = to.try_into().expect("segment length");
    let from: &[f32; N] = from.try_into().expect("segment length");
    *to = *from;
}

/// MediaPipe's Convolution2DTransposeBias, computed per output (a gather): the bias,
/// then every tap that reaches the output in (kernel row, kernel column, input channel)
/// order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn transpose_conv(
    src: &[f32],
    (ih, iw, ic): (usize, usize, usize),
    (oh, ow, oc): (usize, usize, usize),
    w: &[f32],
    b: &[f32],
    (kh, kw): (usize, usize),
    (sh, sw): (usize, usize),
    same: bool,
) -> Vec<f32> {
    let pad = |i: usize, o: usize, k: usize, s: usize| {
        if same {
            ((i - 1) * s + k).saturating_sub(o) / 2
        } else {
            0
        }
    };
    let (pt, pl) = (pad(ih, oh, kh, sh), pad(iw, ow, kw, sw));
    // Every output is written below.
    let mut out = alloc_overwritten(oh * ow * oc);
    // The input pixel and kernel tap feeding output coordinate `o` through tap `k`.
    let source = |o: usize, pad: usize, k: usize, s: usize, len: usize| {
        let t = (o + pad).checked_sub(k)?;
        (t % s == 0 && t / s < len).then_some(t / s)
    };
    for y in 0..oh {
        for x in 0..ow {
            let o = &mut out[(y * ow + x) * oc..][..oc];
            o.copy_from_slice(&b[..oc]);
            for a in 0..kh {
                let Some(iy) = source(y, pt, a, sh, ih) else {
                    continue;
                };
                for bb in 0..kw {
                    let Some(ix) = source(x, pl, bb, sw, iw) else {
                        continue;
                    };
                    let px = &src[(iy * iw + ix) * ic..][..ic];
                    for (q, v) in o.iter_mut().enumerate() {
                        let wr = &w[((q * kh + a) * kw + bb) * ic..][..ic];
                        for (&p, &wv) in px.iter().zip(wr) {
                            *v += p * wv;
                        }
                    }
                }
            }
        }
    }
    out
}
