//! Pooling: MAX_POOL_2D, and the mean over the whole image (AVERAGE_POOL_2D and MEAN).

use super::super::arena::alloc;
use super::super::ops::Pool;
#[cfg(target_arch = "x86_64")]
use super::has_avx;
use super::pad_before;

/// Mean of each of `c` channels over `pixels` pixels: the pixels summed in order, then
/// divided by their count.
pub(crate) fn spatial_mean(src: &[f32], pixels: usize, c: usize) -> Vec<f32> {
    let mut out = alloc(c, 0.0);
    for px in src[..pixels * c].chunks_exact(c) {
        for (o, &v) in out.iter_mut().zip(px) {
            *o += v;
        }
    }
    for o in out.iter_mut() {
        *o /= pixels as f32;
    }
    out
}

pub(crate) fn maxpool(
    src: &[f32],
    ihw: (usize, usize, usize),
    ohw: (usize, usize),
    p: Pool,
) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if has_avx() {
        // SAFETY: AVX is present (checked at run time).
        return unsafe { maxpool_avx(src, ihw, ohw, p) };
    }
    maxpool_portable(src, ihw, ohw, p)
}

/// `maxpool_portable` compiled for AVX: `f32::max` is the same function whatever the
/// instructions (the larger value, a NaN ignored), only eight channels at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn maxpool_avx(
    src: &[f32],
    ihw: (usize, usize, usize),
    ohw: (usize, usize),
    p: Pool,
) -> Vec<f32> {
    maxpool_portable(src, ihw, ohw, p)
}

#[inline(always)]
pub(crate) fn maxpool_portable(
    src: &[f32],
    (ih, iw, ch): (usize, usize, usize),
    (oh, ow): (usize, usize),
    p: Pool,
) -> Vec<f32> {
    let pt = pad_before(ih, oh, p.kh, p.sh, p.same);
    let pl = pad_before(iw, ow, p.kw, p.sw, p.same);
    let mut out = alloc(oh * ow * ch, f32::NEG_INFINITY);
    for r in 0..oh {
        for c in 0..ow {
            let acc = &mut out[(r * ow + c) * ch..(r * ow + c + 1) * ch];
            for a_ in 0..p.kh {
                let y = (r * p.sh + a_) as isize - pt as isize;
                if y < 0 || y >= ih as isize {
                    continue;
                }
                for b_ in 0..p.kw {
                    let x = (c * p.sw + b_) as isize - pl as isize;
                    if x < 0 || x >= iw as isize {
                        continue;
                    }
                    let px = &src[(y as usize * iw + x as usize) * ch..][..ch];
                    for (o, &v) in acc.iter_mut().zip(px) {
                        *o = o.max(v);
                    }
                }
            }
        }
    }
    out
}
