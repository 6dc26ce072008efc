//! Elementwise operators, as TFLite's reference kernels compute them.

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
