//! The kernels, one file per family. Each sums in one fixed order with separate multiply
//! and add (no fused multiply-add, no threads), so every machine gets the same bits; the
//! helpers shared by several families are here.

pub(crate) mod conv;
pub(crate) mod depthwise;
pub(crate) mod elementwise;
pub(crate) mod matmul;
pub(crate) mod pool;
pub(crate) mod shape;

use super::ops::Act;

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

/// Whether the 512-bit kernels are worth taking: AVX-512 on a CPU that does not split
/// each 512-bit operation into two 256-bit halves. AMD's Zen 4 does (no more work per
/// cycle than AVX): there the 512-bit matrix product measured 3-4% slower than the AVX
/// one, on Zen 5 23% faster. Both give the same bits; this only picks the faster.
#[cfg(target_arch = "x86_64")]
pub(crate) fn prefer_avx512() -> bool {
    static PREFER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PREFER.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        let id = __cpuid(0);
        let mut vendor = [0u8; 12];
        for (i, r) in [id.ebx, id.edx, id.ecx].into_iter().enumerate() {
            vendor[4 * i..4 * i + 4].copy_from_slice(&r.to_le_bytes());
        }
        has_avx512() && !splits_512_bit(&vendor, __cpuid(1).eax)
    })
}

/// Zen 4: AMD, family 0x19 (CPUID leaf 1's EAX: the base family 0xF plus the extended
/// family). The earlier family 0x19 parts (Zen 3) have no AVX-512 at all.
#[cfg(target_arch = "x86_64")]
fn splits_512_bit(vendor: &[u8; 12], signature: u32) -> bool {
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    vendor == b"AuthenticAMD" && family == 0x19
}

#[cfg(all(test, target_arch = "x86_64"))]
#[test]
fn zen_4_alone_splits_512_bit_operations() {
    // CPUID leaf 1 signatures: EPYC 9004 (Zen 4), EPYC 9005 (Zen 5), a Xeon (Sapphire
    // Rapids) and an older AMD (Zen 2).
    assert!(splits_512_bit(b"AuthenticAMD", 0x00a1_0f11));
    assert!(!splits_512_bit(b"AuthenticAMD", 0x00b0_0f21));
    assert!(!splits_512_bit(b"GenuineIntel", 0x0008_06f8));
    assert!(!splits_512_bit(b"AuthenticAMD", 0x0083_0f10));
}
