//! DEPTHWISE_CONV_2D, the bulk of the MediaPipe models' work: register-blocked over
//! pixels and channels for the interior of each row, with the same additions in the same
//! order as the plain loop kept for the borders.

use super::super::arena::alloc_overwritten;
use super::super::ops::Act;
#[cfg(target_arch = "x86_64")]
use super::has_avx;
use super::{apply, pad_before};

#[allow(clippy::too_many_arguments)]
pub(crate) fn depthwise(
    src: &[f32],
    ihw: (usize, usize, usize),
    ohw: (usize, usize),
    w: &[f32],
    b: &[f32],
    k: (usize, usize),
    s: (usize, usize),
    same: bool,
    a: Act,
) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if has_avx() {
        // SAFETY: AVX is present (checked at run time).
        return unsafe { depthwise_avx(src, ihw, ohw, w, b, k, s, same, a) };
    }
    depthwise_portable(src, ihw, ohw, w, b, k, s, same, a)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(clippy::too_many_arguments)]
unsafe fn depthwise_avx(
    src: &[f32],
    ihw: (usize, usize, usize),
    ohw: (usize, usize),
    w: &[f32],
    b: &[f32],
    k: (usize, usize),
    s: (usize, usize),
    same: bool,
    a: Act,
) -> Vec<f32> {
    depthwise_portable(src, ihw, ohw, w, b, k, s, same, a)
}

#[inline(always)]
fn dw_chunk<const C: usize>(
    acc: &mut [f32],
    b: &[f32],
    src: &[f32],
    w: &[f32],
    taps: &[(usize, usize)],
    k0: usize,
) {
    let mut v: [f32; C] = b[k0..k0 + C].try_into().expect("chunk");
    for &(sp, wp) in taps {
        let px: &[f32; C] = src[sp + k0..sp + k0 + C].try_into().expect("chunk");
        let wr: &[f32; C] = w[wp + k0..wp + k0 + C].try_into().expect("chunk");
        for q in 0..C {
            v[q] += px[q] * wr[q];
        }
    }
    acc[k0..k0 + C].copy_from_slice(&v);
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn depthwise_portable(
    src: &[f32],
    (ih, iw, ch): (usize, usize, usize),
    (oh, ow): (usize, usize),
    w: &[f32],
    b: &[f32],
    (kh, kw): (usize, usize),
    (sh, sw): (usize, usize),
    same: bool,
    a: Act,
) -> Vec<f32> {
    let pt = pad_before(ih, oh, kh, sh, same);
    let pl = pad_before(iw, ow, kw, sw, same);
    // Every output starts from its bias below.
    let mut out = alloc_overwritten(oh * ow * ch);
    // Output columns whose taps all lie inside the input row (c*sw >= pl and
    // c*sw - pl + kw <= iw): these share one list of tap offsets per output row.
    let c_lo = pl.div_ceil(sw).min(ow);
    let c_hi = if iw + pl >= kw {
        ((iw + pl - kw) / sw + 1).min(ow)
    } else {
        0
    }
    .max(c_lo);
    for r in 0..oh {
        if kh * kw <= 25 && c_lo < c_hi {
            // Valid taps of this row, in (row, column) order: offsets from the input
            // pixel under the output's first tap column.
            let mut taps = [(0usize, 0usize); 25];
            let mut nt = 0;
            for a_ in 0..kh {
                let y = (r * sh + a_) as isize - pt as isize;
                if y < 0 || y >= ih as isize {
                    continue;
                }
                for b_ in 0..kw {
                    taps[nt] = ((y as usize * iw + b_) * ch, (a_ * kw + b_) * ch);
                    nt += 1;
                }
            }
            let row = &mut out[r * ow * ch..(r + 1) * ow * ch];
            // The bounds `dw_block` relies on: the last interior pixel's last tap, and
            // the last tap's weights, are inside `src` and `w` (taps ascend).
            if let Some(&(sp, wp)) = taps[..nt].last() {
                assert!(
                    ((c_hi - 1) * sw - pl) * ch + sp + ch <= src.len()
                        && wp + ch <= w.len()
                        && ch <= b.len()
                );
            }
            let geo = DwRow { sw, pl, ch, act: a };
            dw_interior(row, src, w, b, &taps[..nt], c_lo, c_hi, &geo);
        }
        for c in 0..ow {
            if kh * kw <= 25 && c >= c_lo && c < c_hi {
                continue;
            }
            let acc = &mut out[(r * ow + c) * ch..(r * ow + c + 1) * ch];
            // Valid taps of this output pixel, in (row, column) order.
            let mut taps = [(0usize, 0usize); 25];
            let mut nt = 0;
            for a_ in 0..kh {
                let y = (r * sh + a_) as isize - pt as isize;
                if y < 0 || y >= ih as isize {
                    continue;
                }
                for b_ in 0..kw {
                    let x = (c * sw + b_) as isize - pl as isize;
                    if x < 0 || x >= iw as isize || nt == taps.len() {
                        continue;
                    }
                    taps[nt] = ((y as usize * iw + x as usize) * ch, (a_ * kw + b_) * ch);
                    nt += 1;
                }
            }
            if kh * kw <= taps.len() {
                // Channels kept in registers across all taps, 32 then 8 at a time (four
                // independent add chains hide the add latency): the same additions in
                // the same order as the general loop below.
                let mut k0 = 0;
                while k0 + 32 <= ch {
                    dw_chunk::<32>(acc, b, src, w, &taps[..nt], k0);
                    k0 += 32;
                }
                while k0 + 8 <= ch {
                    dw_chunk::<8>(acc, b, src, w, &taps[..nt], k0);
                    k0 += 8;
                }
                for q in k0..ch {
                    let mut v = b[q];
                    for &(sp, wp) in &taps[..nt] {
                        v += src[sp + q] * w[wp + q];
                    }
                    acc[q] = v;
                }
                if a != Act::None {
                    for o in acc.iter_mut() {
                        *o = apply(*o, a);
                    }
                }
                continue;
            }
            acc.copy_from_slice(b);
            for a_ in 0..kh {
                let y = (r * sh + a_) as isize - pt as isize;
                if y < 0 || y >= ih as isize {
                    continue;
                }
                for b_ in 0..kw {
                    let x = (c * sw + b_) as isize - pl as isize;
                    if x < 0 || x >= iw as isize {
                        continue;
                    }
                    let px = &src[(y as usize * iw + x as usize) * ch..][..ch];
                    let wr = &w[(a_ * kw + b_) * ch..][..ch];
                    for ((o, &v), &wv) in acc.iter_mut().zip(px).zip(wr) {
                        *o += v * wv;
                    }
                }
            }
            if a != Act::None {
                for o in acc.iter_mut() {
                    *o = apply(*o, a);
                }
            }
        }
    }
    out
}

/// What the interior depthwise loop needs to know about a layer.
struct DwRow {
    sw: usize,
    pl: usize,
    ch: usize,
    act: Act,
}

/// Interior output pixels `c0..c1` of one output row (every tap inside the input), eight
/// (then four, then one) pixels and eight (then four, then one) channels at a time. Each output is still its
/// bias plus the taps in `taps` order, one product and one addition at a time: exactly
/// the arithmetic of the per-pixel loop, only with the tap offsets shared by the row.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn dw_interior(
    row: &mut [f32],
    src: &[f32],
    w: &[f32],
    b: &[f32],
    taps: &[(usize, usize)],
    c0: usize,
    c1: usize,
    g: &DwRow,
) {
    let mut k0 = 0;
    while k0 + 8 <= g.ch {
        dw_pixels::<8>(row, src, w, b, taps, c0, c1, g, k0);
        k0 += 8;
    }
    if k0 + 4 <= g.ch {
        dw_pixels::<4>(row, src, w, b, taps, c0, c1, g, k0);
        k0 += 4;
    }
    while k0 < g.ch {
        dw_pixels::<1>(row, src, w, b, taps, c0, c1, g, k0);
        k0 += 1;
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn dw_pixels<const C: usize>(
    row: &mut [f32],
    src: &[f32],
    w: &[f32],
    b: &[f32],
    taps: &[(usize, usize)],
    c0: usize,
    c1: usize,
    g: &DwRow,
    k0: usize,
) {
    let mut c = c0;
    // SAFETY: `depthwise_portable` checked the bounds of this row's interior pixels.
    while c + 8 <= c1 {
        unsafe { dw_block::<C, 8>(row, src, w, b, taps, c, g, k0) };
        c += 8;
    }
    while c + 4 <= c1 {
        unsafe { dw_block::<C, 4>(row, src, w, b, taps, c, g, k0) };
        c += 4;
    }
    while c < c1 {
        unsafe { dw_block::<C, 1>(row, src, w, b, taps, c, g, k0) };
        c += 1;
    }
}

/// `P` interior pixels from column `c`, channels `k0..k0 + C`.
///
/// # Safety
/// Every tap of every pixel is inside `src` and `w` and `k0 + C <= ch <= b.len()` (checked
/// once per row by `depthwise_portable`); `row` holds the whole output row.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn dw_block<const C: usize, const P: usize>(
    row: &mut [f32],
    src: &[f32],
    w: &[f32],
    b: &[f32],
    taps: &[(usize, usize)],
    c: usize,
    g: &DwRow,
    k0: usize,
) {
    let (sp0, wp0) = (src.as_ptr(), w.as_ptr());
    // SAFETY (all reads below): within the bounds in the contract above.
    let bias: [f32; C] = unsafe { std::ptr::read_unaligned(b.as_ptr().add(k0).cast()) };
    let mut acc = [bias; P];
    // Each pixel's first tap, and the weights' channel block, as pointers, so each tap
    // below is one offset from them.
    let px0: [*const f32; P] =
        std::array::from_fn(|p| unsafe { sp0.add(((c + p) * g.sw - g.pl) * g.ch + k0) });
    let w0 = unsafe { wp0.add(k0) };
    for &(sp, wp) in taps {
        let wr: [f32; C] = unsafe { std::ptr::read_unaligned(w0.add(wp).cast()) };
        for p in 0..P {
            let px: [f32; C] = unsafe { std::ptr::read_unaligned(px0[p].add(sp).cast()) };
            for q in 0..C {
                acc[p][q] += px[q] * wr[q];
            }
        }
    }
    for (p, v) in acc.iter().enumerate() {
        let o: &mut [f32; C] = (&mut row[(c + p) * g.ch + k0..(c + p) * g.ch + k0 + C])
            .try_into()
            .expect("chunk");
        match g.act {
            Act::None => *o = *v,
            Act::Relu => {
                for q in 0..C {
                    o[q] = v[q].max(0.0);
                }
            }
            Act::Relu6 => {
                for q in 0..C {
                    o[q] = v[q].clamp(0.0, 6.0);
                }
            }
        }
    }
}
