//! The operators we run, as the parser (`model`) makes them and `fuse` rewrites
//! them: each with its tensors, rearranged weights and checked options; the
//! elementwise tail a convolution may carry; which tensors each reads and writes.

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Act {
    None,
    Relu,
    Relu6,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Pool {
    pub(crate) same: bool,
    pub(crate) sw: usize,
    pub(crate) sh: usize,
    pub(crate) kw: usize,
    pub(crate) kh: usize,
}

#[derive(Debug)]
pub(crate) enum Op {
    /// Weights rearranged to [kh][kw][in][out] so the inner loop runs over outputs.
    Conv {
        x: usize,
        y: usize,
        w: Vec<f32>,
        b: Vec<f32>,
        k: (usize, usize),
        stride: (usize, usize),
        same: bool,
        act: Act,
        /// Operators folded into this convolution (see `fuse`).
        epi: Epi,
    },
    /// Weights as [kh][kw][c].
    Depthwise {
        x: usize,
        y: usize,
        w: Vec<f32>,
        b: Vec<f32>,
        k: (usize, usize),
        stride: (usize, usize),
        same: bool,
        act: Act,
    },
    /// `a + b`; `a` has the output's shape, `b` the same shape or one value per channel
    /// (addition commutes in IEEE arithmetic, so the operands are ordered that way).
    Add {
        a: usize,
        b: usize,
        y: usize,
        act: Act,
    },
    /// `a * b`, shapes as for `Add`.
    Mul {
        a: usize,
        b: usize,
        y: usize,
        act: Act,
    },
    /// Mean of each channel over height and width (MEAN over axes 1 and 2, and
    /// AVERAGE_POOL_2D whose window is the whole input).
    SpatialMean {
        x: usize,
        y: usize,
    },
    /// Bilinear resize (TFLite's RESIZE_BILINEAR).
    Resize {
        x: usize,
        y: usize,
        align_corners: bool,
        half_pixel: bool,
    },
    /// MediaPipe's Convolution2DTransposeBias; weights as [out][kh][kw][in].
    TransposeConv {
        x: usize,
        y: usize,
        w: Vec<f32>,
        b: Vec<f32>,
        k: (usize, usize),
        stride: (usize, usize),
        same: bool,
    },
    /// FULLY_CONNECTED; weights rearranged to [in][out] for `matmul`.
    Dense {
        x: usize,
        y: usize,
        w: Vec<f32>,
        b: Vec<f32>,
        act: Act,
    },
    HardSwish {
        x: usize,
        y: usize,
    },
    Logistic {
        x: usize,
        y: usize,
    },
    /// SOFTMAX over the last axis, `row` values long.
    Softmax {
        x: usize,
        y: usize,
        row: usize,
        beta: f32,
    },
    MaxPool {
        x: usize,
        y: usize,
        p: Pool,
    },
    /// Spatial and channel padding (top, bottom, left, right, channels after).
    Pad {
        x: usize,
        y: usize,
        pad: [usize; 5],
    },
    Relu {
        x: usize,
        y: usize,
    },
    Prelu {
        x: usize,
        y: usize,
        alpha: Vec<f32>,
    },
    /// Reshape and dequantize of activations: data unchanged.
    Alias {
        x: usize,
        y: usize,
    },
    /// Concatenation: `outer` blocks, each the inputs' chunks in order.
    Concat {
        xs: Vec<usize>,
        y: usize,
        outer: usize,
        chunks: Vec<usize>,
    },
}

/// Elementwise operators folded into the convolution that feeds them, applied to each
/// output right after it is computed, in the original order: first `+ skip` (a residual
/// ADD, whose other input may be channel-padded with zeros: the padded channels add a
/// literal 0.0, as the ADD of the padded tensor did), then RELU or PRELU. The same
/// operations on the same values as the separate operators, so the same bits.
#[derive(Debug, Default)]
pub(crate) struct Epi {
    pub(crate) skip: Option<usize>,
    pub(crate) relu: bool,
    pub(crate) prelu: Option<Vec<f32>>,
}

impl Epi {
    pub(crate) fn is_empty(&self) -> bool {
        self.skip.is_none() && !self.relu && self.prelu.is_none()
    }
}

/// The tensors an operator reads.
pub(crate) fn op_reads(op: &Op) -> Vec<usize> {
    match op {
        Op::Conv { x, epi, .. } => std::iter::once(*x).chain(epi.skip).collect(),
        Op::Depthwise { x, .. }
        | Op::MaxPool { x, .. }
        | Op::Pad { x, .. }
        | Op::Relu { x, .. }
        | Op::Prelu { x, .. }
        | Op::SpatialMean { x, .. }
        | Op::Resize { x, .. }
        | Op::TransposeConv { x, .. }
        | Op::Dense { x, .. }
        | Op::HardSwish { x, .. }
        | Op::Logistic { x, .. }
        | Op::Softmax { x, .. }
        | Op::Alias { x, .. } => vec![*x],
        Op::Add { a, b, .. } | Op::Mul { a, b, .. } => vec![*a, *b],
        Op::Concat { xs, .. } => xs.clone(),
    }
}

pub(crate) fn op_writes(op: &Op) -> usize {
    match op {
        Op::Conv { y, .. }
        | Op::Depthwise { y, .. }
        | Op::MaxPool { y, .. }
        | Op::Pad { y, .. }
        | Op::Relu { y, .. }
        | Op::Prelu { y, .. }
        | Op::Alias { y, .. }
        | Op::Add { y, .. }
        | Op::Mul { y, .. }
        | Op::SpatialMean { y, .. }
        | Op::Resize { y, .. }
        | Op::TransposeConv { y, .. }
        | Op::Dense { y, .. }
        | Op::HardSwish { y, .. }
        | Op::Logistic { y, .. }
        | Op::Softmax { y, .. }
        | Op::Concat { y, .. } => *y,
    }
}
