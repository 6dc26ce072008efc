//! Elementwise operators, as TFLite's reference kernels compute them, in place on a
//! tensor the interpreter no longer needs.

use super::super::ops::Act;
use super::apply;

/// `x * relu6(x + 3) / 6`, in TFLite's order of operations.
#[inline]
pub(crate) fn hard_swish(x: f32) -> f32 {
    x * (x + 3.0).clamp(0.0, 6.0) / 6.0
}

/// `1 / (1 + e^-x)` with `libm`'s `expf` (the same bits on every machine).
#[inline]
pub(crate) fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

/// ADD (`mul` false) or MUL: `va` op `vb`, then the fused activation.
pub(crate) fn add_or_mul(va: &mut [f32], vb: &[f32], mul: bool, act: Act) {
    // `vb` is as long as `va` or one value per channel: either way it
    // repeats along `va` in chunks of its own length.
    for chunk in va.chunks_exact_mut(vb.len()) {
        if mul {
            for (p, q) in chunk.iter_mut().zip(vb) {
                *p *= q;
            }
        } else {
            for (p, q) in chunk.iter_mut().zip(vb) {
                *p += q;
            }
        }
    }
    if act != Act::None {
        for p in va.iter_mut() {
            *p = apply(*p, act);
        }
    }
}

pub(crate) fn hard_swish_all(v: &mut [f32]) {
    for e in v.iter_mut() {
        *e = hard_swish(*e);
    }
}

pub(crate) fn logistic_all(v: &mut [f32]) {
    for e in v.iter_mut() {
        *e = logistic(*e);
    }
}

pub(crate) fn relu_all(v: &mut [f32]) {
    for e in v.iter_mut() {
        *e = e.max(0.0);
    }
}

/// PRELU with one slope per channel.
pub(crate) fn prelu_all(v: &mut [f32], alpha: &[f32]) {
    // Branch-free so it vectorises: max(v,0) + min(v,0)*a is exactly v for
    // v >= 0 and exactly v*a for v < 0.
    for row in v.chunks_exact_mut(alpha.len()) {
        for (e, &a) in row.iter_mut().zip(alpha) {
            let x = *e;
            *e = x.max(0.0) + x.min(0.0) * a;
        }
    }
}

/// SOFTMAX over each run of `row` values, as TFLite's reference kernel computes it:
/// `e^((x - max) * beta)` with `libm`'s `expf`, summed in order, each divided by the sum.
pub(crate) fn softmax_rows(v: &mut [f32], row: usize, beta: f32) {
    for r in v.chunks_exact_mut(row) {
        let max = r.iter().fold(f32::NEG_INFINITY, |m, &e| m.max(e));
        let mut sum = 0f32;
        for e in r.iter_mut() {
            *e = libm::expf((*e - max) * beta);
            sum += *e;
        }
        for e in r.iter_mut() {
            *e /= sum;
        }
    }
}
