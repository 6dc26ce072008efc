//! The kernels, one file per family. Each sums in one fixed order with separate multiply
//! and add (no fused multiply-add, no threads), so every machine gets the same bits; the
//! helpers shared by several families are here.

pub(crate) mod conv;
pub(crate) mod depthwise;
pub(crate) mod elementwise;
pub(crate) mod matmul;
pub(crate) mod pool;
pub(crate) mod shape;

use super::model::Act;

/// A fused activation.
#[inline]
pub(crate) fn apply(v: f32, a: Act) -> f32 {
    match a {
        Act::None => v,
        Act::Relu => v.max(0.0),
        Act::Relu6 => v.clamp(0.0, 6.0),
    }
}

/// Rows (or columns) of implicit zeros before the input for SAME padding, as TFLite
/// splits them (the smaller half before).
pub(crate) fn pad_before(input: usize, output: usize, k: usize, s: usize, same: bool) -> usize {
    if !same {
        return 0;
    }
    let total = ((output - 1) * s + k).saturating_sub(input);
    total / 2
}

/// Whether the CPU has AVX. The AVX code paths compile the very same scalar-per-element
/// arithmetic (separate multiply and add, no fused multiply-add, same order), only wider,
/// so they give bit-identical results to the portable path.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx() -> bool {
    static AVX: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX.get_or_init(|| std::is_x86_feature_detected!("avx"))
}

/// Whether the CPU has AVX-512 (foundation): the same arithmetic again (no fused
/// multiply-add either), 16 lanes wide and with twice the registers.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512() -> bool {
    static AVX512: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX512.get_or_init(|| std::is_x86_feature_detected!("avx512f"))
}
