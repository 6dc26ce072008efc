//! The matrix product under CONV_2D and FULLY_CONNECTED: blocked so that several sums
//! are in flight at once, each output still summed in ascending order.

use super::super::arena::alloc_overwritten;
use super::super::ops::Act;
use super::apply;
#[cfg(target_arch = "x86_64")]
use super::{has_avx, prefer_avx512};

/// FULLY_CONNECTED: every row of `src` times the [in][out] weights `w`, plus the bias,
/// then the fused activation.
pub(crate) fn dense(src: &[f32], w: &[f32], b: &[f32], act: Act) -> Vec<f32> {
    let n_out = b.len();
    let k = w.len() / n_out;
    // Every output is written by `matmul`.
    let mut out = alloc_overwritten(src.len() / k * n_out);
    matmul(src, k, w, b, n_out, &mut out);
    if act != Act::None {
        for o in out.iter_mut() {
            *o = apply(*o, act);
        }
    }
    out
}

/// `out[p][o] = b[o] + sum_i x[p][i] * w[i][o]`, summed over `i` in ascending order for
/// every output (the blocking below only changes which outputs are computed together,
/// never the order of one output's sum).
pub(crate) fn matmul(x: &[f32], k: usize, w: &[f32], b: &[f32], n: usize, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if prefer_avx512() {
        // SAFETY: AVX-512F is present (checked at run time).
        unsafe { matmul_avx512(x, k, w, b, n, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if has_avx() {
        // SAFETY: AVX is present (checked at run time).
        unsafe { matmul_avx(x, k, w, b, n, out) };
        return;
    }
    matmul_blocked::<8, 4>(x, k, w, b, n, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
pub(crate) unsafe fn matmul_avx(
    x: &[f32],
    k: usize,
    w: &[f32],
    b: &[f32],
    n: usize,
    out: &mut [f32],
) {
    matmul_blocked::<16, 4>(x, k, w, b, n, out);
}

/// AVX-512 has 32 vector registers of 16 values: blocks of eight rows by 32 outputs keep
/// 16 sums in registers, so each weight row read from memory is used by eight rows.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn matmul_avx512(
    x: &[f32],
    k: usize,
    w: &[f32],
    b: &[f32],
    n: usize,
    out: &mut [f32],
) {
    matmul_blocked::<32, 8>(x, k, w, b, n, out);
}

/// `OB` outputs wide, `PB` (4 or 8) rows tall for the widest blocks.
#[inline(always)]
pub(crate) fn matmul_blocked<const OB: usize, const PB: usize>(
    x: &[f32],
    k: usize,
    w: &[f32],
    b: &[f32],
    n: usize,
    out: &mut [f32],
) {
    let rows = x.len() / k.max(1);
    // The bounds every `block` below relies on.
    assert!(rows * k <= x.len() && k * n <= w.len() && n <= b.len() && rows * n <= out.len());
    if OB > 8 && k * n > COLUMNS_FIRST && rows > 8 {
        // SAFETY: the assert above.
        unsafe { columns_first::<OB, PB>(x, k, w, b, n, out, rows) };
        return;
    }
    let mut p = 0;
    if OB > 8 {
        // Eight rows at a time, so the 8- and 4-wide remainder columns (24, 28, 56, 88
        // outputs...) also keep eight independent sums in flight instead of four.
        while p + 8 <= rows {
            let mut o = 0;
            while o + OB <= n {
                // SAFETY: p + 8 <= rows, o + OB <= n (loop bounds), and the assert above.
                if PB == 8 {
                    unsafe { block::<8, OB>(x, k, w, b, n, out, p, o) };
                } else {
                    unsafe { block::<4, OB>(x, k, w, b, n, out, p, o) };
                    unsafe { block::<4, OB>(x, k, w, b, n, out, p + 4, o) };
                }
                o += OB;
            }
            while o + 8 <= n {
                // SAFETY: as above, o + 8 <= n.
                unsafe { block::<8, 8>(x, k, w, b, n, out, p, o) };
                o += 8;
            }
            while o + 4 <= n {
                // SAFETY: as above, o + 4 <= n.
                unsafe { block::<8, 4>(x, k, w, b, n, out, p, o) };
                o += 4;
            }
            while o < n {
                // SAFETY: as above, o < n.
                unsafe { block::<8, 1>(x, k, w, b, n, out, p, o) };
                o += 1;
            }
            p += 8;
        }
    }
    while p + 4 <= rows {
        let mut o = 0;
        while o + OB <= n {
            // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
            unsafe {
                block::<4, OB>(x, k, w, b, n, out, p, o);
            }
            o += OB;
        }
        if OB > 8 {
            while o + 8 <= n {
                // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
                unsafe {
                    block::<4, 8>(x, k, w, b, n, out, p, o);
                }
                o += 8;
            }
        }
        while o + 4 <= n {
            // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
            unsafe {
                block::<4, 4>(x, k, w, b, n, out, p, o);
            }
            o += 4;
        }
        while o < n {
            // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
            unsafe {
                block::<4, 1>(x, k, w, b, n, out, p, o);
            }
            o += 1;
        }
        p += 4;
    }
    while p < rows {
        let mut o = 0;
        while o + OB <= n {
            // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
            unsafe {
                block::<1, OB>(x, k, w, b, n, out, p, o);
            }
            o += OB;
        }
        if OB > 8 {
            while o + 8 <= n {
                // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
                unsafe {
                    block::<1, 8>(x, k, w, b, n, out, p, o);
                }
                o += 8;
            }
        }
        while o < n {
            // SAFETY: p + rows of the block <= rows, o + width <= n (loop bounds), and the assert above.
            unsafe {
                block::<1, 1>(x, k, w, b, n, out, p, o);
            }
            o += 1;
        }
        p += 1;
    }
}

/// Weight matrices of more than this many values (over 256 KiB: the hand landmark
/// model's widest 1x1 convolutions) are run a column block at a time, all rows through
/// each block, so the block's weights are read from memory once and then stay in the L1
/// cache, instead of the whole matrix being streamed again for every eight rows.
const COLUMNS_FIRST: usize = 64 * 1024;

/// `matmul_blocked`'s wide path with the loops swapped: output columns outer, rows
/// inner. The same blocks (so the same sums, each in ascending order), another order.
///
/// # Safety
/// `rows * k <= x.len()`, `k * n <= w.len()`, `n <= b.len()`, `rows * n <= out.len()`.
#[inline(always)]
unsafe fn columns_first<const OB: usize, const PB: usize>(
    x: &[f32],
    k: usize,
    w: &[f32],
    b: &[f32],
    n: usize,
    out: &mut [f32],
    rows: usize,
) {
    // SAFETY (every block below): p + its rows <= rows and o + its width <= n (loop
    // bounds), and the caller's contract.
    let mut o = 0;
    while o + OB <= n {
        let mut p = 0;
        if PB == 8 {
            while p + 8 <= rows {
                unsafe { block::<8, OB>(x, k, w, b, n, out, p, o) };
                p += 8;
            }
        }
        while p + 4 <= rows {
            unsafe { block::<4, OB>(x, k, w, b, n, out, p, o) };
            p += 4;
        }
        while p < rows {
            unsafe { block::<1, OB>(x, k, w, b, n, out, p, o) };
            p += 1;
        }
        o += OB;
    }
    while o + 8 <= n {
        let mut p = 0;
        while p + 8 <= rows {
            unsafe { block::<8, 8>(x, k, w, b, n, out, p, o) };
            p += 8;
        }
        while p < rows {
            unsafe { block::<1, 8>(x, k, w, b, n, out, p, o) };
            p += 1;
        }
        o += 8;
    }
    while o + 4 <= n {
        let mut p = 0;
        while p + 8 <= rows {
            unsafe { block::<8, 4>(x, k, w, b, n, out, p, o) };
            p += 8;
        }
        while p < rows {
            unsafe { block::<1, 4>(x, k, w, b, n, out, p, o) };
            p += 1;
        }
        o += 4;
    }
    while o < n {
        let mut p = 0;
        while p + 8 <= rows {
            unsafe { block::<8, 1>(x, k, w, b, n, out, p, o) };
            p += 8;
        }
        while p < rows {
            unsafe { block::<1, 1>(x, k, w, b, n, out, p, o) };
            p += 1;
        }
        o += 1;
    }
}

/// One block of `P` rows and `O` outputs, accumulated in registers.
///
/// # Safety
/// `(p0 + P) * k <= x.len()`, `k * n <= w.len()`, `o0 + O <= n <= b.len()` and
/// `(p0 + P) * n <= out.len()` (checked once by `matmul_blocked`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn block<const P: usize, const O: usize>(
    x: &[f32],
    k: usize,
    w: &[f32],
    b: &[f32],
    n: usize,
    out: &mut [f32],
    p0: usize,
    o0: usize,
) {
    let (xp, wp) = (x.as_ptr(), w.as_ptr());
    // SAFETY (all reads and writes below): within the bounds in the contract above.
    let bias: [f32; O] = unsafe { std::ptr::read_unaligned(b.as_ptr().add(o0).cast()) };
    let mut acc = [bias; P];
    for i in 0..k {
        let wv: [f32; O] = unsafe { std::ptr::read_unaligned(wp.add(i * n + o0).cast()) };
        for (j, row) in acc.iter_mut().enumerate() {
            let v = unsafe { *xp.add((p0 + j) * k + i) };
            for q in 0..O {
                row[q] += v * wv[q];
            }
        }
    }
    for (j, row) in acc.iter().enumerate() {
        unsafe { std::ptr::write_unaligned(out.as_mut_ptr().add((p0 + j) * n + o0).cast(), *row) };
    }
}
