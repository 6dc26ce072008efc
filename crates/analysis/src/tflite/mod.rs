//! A minimal reader and interpreter for the float TensorFlow Lite models we ship.
//!
//! Only what the MediaPipe models we ship use is supported (BlazeFace, Face Mesh, selfie
//! segmentation, palm detection, hand landmarks): CONV_2D, DEPTHWISE_CONV_2D, ADD and MUL
//! (same shape, or one value per channel), MAX_POOL_2D, AVERAGE_POOL_2D and MEAN (over the
//! whole image), PAD, RELU, PRELU, HARD_SWISH, LOGISTIC, RESIZE_BILINEAR, FULLY_CONNECTED,
//! RESHAPE, CONCATENATION, DEQUANTIZE (float16 weights to float32) and MediaPipe's custom
//! Convolution2DTransposeBias. Batch size is always 1 and tensors are NHWC.
//!
//! Determinism: every reduction runs in one fixed order (taps, then input channels, in
//! ascending order), with plain multiply and add (no fused multiply-add, no threads), so
//! the same input gives bit-identical output on every machine.

use std::fmt;

/// Error while reading a model file. Models are embedded and checked by tests, so
/// this only fires when someone swaps in an unsupported model.
#[derive(Debug)]
pub struct ModelError(pub String);

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model error: {}", self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, ModelError> {
    Err(ModelError(msg.into()))
}

// ---------------------------------------------------------------------------
// FlatBuffers access (just enough of the format for the TFLite schema).

#[derive(Clone, Copy)]
struct Buf<'a>(&'a [u8]);

impl<'a> Buf<'a> {
    fn u8(&self, p: usize) -> Result<u8, ModelError> {
        self.0
            .get(p)
            .copied()
            .ok_or(ModelError("out of bounds".into()))
    }
    fn u16(&self, p: usize) -> Result<u16, ModelError> {
        let b = self
            .0
            .get(p..p + 2)
            .ok_or(ModelError("out of bounds".into()))?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&self, p: usize) -> Result<u32, ModelError> {
        let b = self
            .0
            .get(p..p + 4)
            .ok_or(ModelError("out of bounds".into()))?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i32(&self, p: usize) -> Result<i32, ModelError> {
        Ok(self.u32(p)? as i32)
    }
}

#[derive(Clone, Copy)]
struct Table<'a> {
    buf: Buf<'a>,
    pos: usize,
}

impl<'a> Table<'a> {
    fn at(buf: Buf<'a>, pos: usize) -> Result<Self, ModelError> {
        Ok(Table { buf, pos })
    }
    /// Position of field `i`, or None when absent.
    fn field(&self, i: usize) -> Result<Option<usize>, ModelError> {
        let vt = (self.pos as i64 - self.buf.i32(self.pos)? as i64) as usize;
        let vt_len = self.buf.u16(vt)? as usize;
        let slot = 4 + 2 * i;
        if slot + 2 > vt_len {
            return Ok(None);
        }
        let off = self.buf.u16(vt + slot)? as usize;
        Ok(if off == 0 { None } else { Some(self.pos + off) })
    }
    fn i8_or(&self, i: usize, d: i8) -> Result<i8, ModelError> {
        Ok(match self.field(i)? {
            Some(p) => self.buf.u8(p)? as i8,
            None => d,
        })
    }
    fn i32_or(&self, i: usize, d: i32) -> Result<i32, ModelError> {
        Ok(match self.field(i)? {
            Some(p) => self.buf.i32(p)?,
            None => d,
        })
    }
    fn deref(&self, i: usize) -> Result<Option<usize>, ModelError> {
        Ok(match self.field(i)? {
            Some(p) => Some(p + self.buf.u32(p)? as usize),
            None => None,
        })
    }
    fn table(&self, i: usize) -> Result<Option<Table<'a>>, ModelError> {
        match self.deref(i)? {
            Some(p) => Ok(Some(Table::at(self.buf, p)?)),
            None => Ok(None),
        }
    }
    /// A vector of tables.
    fn tables(&self, i: usize) -> Result<Vec<Table<'a>>, ModelError> {
        let Some(v) = self.deref(i)? else {
            return Ok(Vec::new());
        };
        let n = self.buf.u32(v)? as usize;
        let mut out = Vec::with_capacity(n.min(4096));
        for k in 0..n {
            let p = v + 4 + 4 * k;
            out.push(Table::at(self.buf, p + self.buf.u32(p)? as usize)?);
        }
        Ok(out)
    }
    fn i32s(&self, i: usize) -> Result<Vec<i32>, ModelError> {
        let Some(v) = self.deref(i)? else {
            return Ok(Vec::new());
        };
        let n = self.buf.u32(v)? as usize;
        (0..n).map(|k| self.buf.i32(v + 4 + 4 * k)).collect()
    }
    fn bytes(&self, i: usize) -> Result<&'a [u8], ModelError> {
        let Some(v) = self.deref(i)? else {
            return Ok(&[]);
        };
        let n = self.buf.u32(v)? as usize;
        self.buf
            .0
            .get(v + 4..v + 4 + n)
            .ok_or(ModelError("bad vector".into()))
    }
}

// ---------------------------------------------------------------------------
// Model

#[derive(Clone, Copy, Debug, PartialEq)]
enum Act {
    None,
    Relu,
    Relu6,
}

fn act(code: i8) -> Result<Act, ModelError> {
    match code {
        0 => Ok(Act::None),
        1 => Ok(Act::Relu),
        3 => Ok(Act::Relu6),
        c => err(format!("unsupported activation {c}")),
    }
}

#[derive(Clone, Copy, Debug)]
struct Pool {
    same: bool,
    sw: usize,
    sh: usize,
    kw: usize,
    kh: usize,
}

#[derive(Debug)]
enum Op {
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
struct Epi {
    skip: Option<usize>,
    relu: bool,
    prelu: Option<Vec<f32>>,
}

impl Epi {
    fn is_empty(&self) -> bool {
        self.skip.is_none() && !self.relu && self.prelu.is_none()
    }
}

/// The tensors an operator reads.
fn op_reads(op: &Op) -> Vec<usize> {
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
        | Op::Alias { x, .. } => vec![*x],
        Op::Add { a, b, .. } | Op::Mul { a, b, .. } => vec![*a, *b],
        Op::Concat { xs, .. } => xs.clone(),
    }
}

fn op_writes(op: &Op) -> usize {
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
        | Op::Concat { y, .. } => *y,
    }
}

/// Fold the residual blocks' elementwise tail into the convolution that feeds it:
/// `CONV -> [PAD (channels only) of the skip] -> ADD -> [RELU | PRELU]` and
/// `CONV -> RELU | PRELU` become one convolution with an epilogue, when every
/// intermediate tensor has no other reader. Saves a pass (and a buffer) per operator.
fn fuse(mut ops: Vec<Op>, shapes: &[Vec<usize>], outputs: &[usize], input: usize) -> Vec<Op> {
    let n = ops.len();
    let mut readers = vec![0usize; shapes.len()];
    let mut producer = vec![usize::MAX; shapes.len()];
    for (i, op) in ops.iter().enumerate() {
        for t in op_reads(op) {
            readers[t] += 1;
        }
        producer[op_writes(op)] = i;
    }
    for &o in outputs {
        readers[o] += 1;
    }
    // Available before op i: the model input, constants, or produced by an earlier op.
    let before = |p: &[usize], t: usize, i: usize| t == input || p[t] == usize::MAX || p[t] < i;
    let sole_reader = |ops: &[Op], t: usize, from: usize, removed: &[bool]| -> Option<usize> {
        if readers[t] != 1 {
            return None;
        }
        (from..n).find(|&j| !removed[j] && op_reads(&ops[j]).contains(&t))
    };
    let mut removed = vec![false; n];
    for i in 0..n {
        let (y, act_none) = match &ops[i] {
            Op::Conv { y, act, epi, .. } => (*y, *act == Act::None && epi.is_empty()),
            _ => continue,
        };
        if !act_none {
            continue;
        }
        let mut epi = Epi::default();
        let mut out = y;
        let mut gone = Vec::new();
        let Some(mut j) = sole_reader(&ops, out, i + 1, &removed) else {
            continue;
        };
        if let Op::Add {
            a,
            b,
            y: ay,
            act: Act::None,
        } = &ops[j]
        {
            let other = if *a == out { *b } else { *a };
            let mut skip = None;
            if other != out && shapes[*ay] == shapes[out] {
                if before(&producer, other, i) && shapes[other] == shapes[out] {
                    skip = Some(other);
                } else if let Op::Pad { x, pad, .. } = &ops[producer[other]]
                    && producer[other] > i
                    && producer[other] < j
                    && pad[..4] == [0, 0, 0, 0]
                    && readers[other] == 1
                    && before(&producer, *x, i)
                    && shapes[*x][..shapes[*x].len() - 1] == shapes[out][..shapes[out].len() - 1]
                {
                    gone.push(producer[other]);
                    skip = Some(*x);
                }
            }
            if let Some(sk) = skip {
                epi.skip = Some(sk);
                gone.push(j);
                out = *ay;
                match sole_reader(&ops, out, j + 1, &removed) {
                    Some(k) => j = k,
                    None => j = usize::MAX,
                }
            } else {
                continue;
            }
        }
        if j != usize::MAX {
            match &ops[j] {
                Op::Relu { x, y } if *x == out => {
                    epi.relu = true;
                    gone.push(j);
                    out = *y;
                }
                Op::Prelu { x, y, alpha } if *x == out && shapes[*y] == shapes[out] => {
                    epi.prelu = Some(alpha.clone());
                    gone.push(j);
                    out = *y;
                }
                _ => {}
            }
        }
        if epi.is_empty() {
            continue;
        }
        for g in gone {
            removed[g] = true;
        }
        if let Op::Conv { y, epi: e, .. } = &mut ops[i] {
            *y = out;
            *e = epi;
        }
        producer[out] = i;
    }
    ops.into_iter()
        .zip(removed)
        .filter(|(_, r)| !r)
        .map(|(op, _)| op)
        .collect()
}

/// A loaded model: constant weights plus the operator list.
pub struct Model {
    shapes: Vec<Vec<usize>>,
    /// Index of the last operator reading each tensor (usize::MAX for outputs).
    last_use: Vec<usize>,
    /// Tensors each operator reads.
    reads: Vec<Vec<usize>>,
    ops: Vec<Op>,
    input: usize,
    outputs: Vec<usize>,
}

fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = if exp == 0 {
        if man == 0 {
            sign
        } else {
            // subnormal half: normalise
            let mut e = 127 - 15 + 1;
            let mut m = man;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
    } else if exp == 31 {
        sign | 0x7f80_0000 | (man << 13)
    } else {
        sign | ((exp + 127 - 15) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

impl Model {
    /// Parse a TFLite flatbuffer.
    pub fn parse(data: &[u8]) -> Result<Model, ModelError> {
        let buf = Buf(data);
        let root = Table::at(buf, buf.u32(0)? as usize)?;
        // (builtin code, custom code): field 0 is the deprecated one-byte code, 3 the
        // full one (whichever is larger), 1 the name of a custom operator.
        let codes: Vec<(i32, &[u8])> = root
            .tables(1)?
            .iter()
            .map(|c| Ok(((c.i8_or(0, 0)? as i32).max(c.i32_or(3, 0)?), c.bytes(1)?)))
            .collect::<Result<_, ModelError>>()?;
        let buffers = root.tables(4)?;
        let subgraphs = root.tables(2)?;
        let Some(sg) = subgraphs.first() else {
            return err("no subgraph");
        };
        let tensors = sg.tables(0)?;

        // Constant data (float32, or float16 to be dequantized), per tensor.
        let mut consts: Vec<Option<Vec<f32>>> = Vec::with_capacity(tensors.len());
        let mut ints: Vec<Option<Vec<i32>>> = Vec::with_capacity(tensors.len());
        let mut shapes = Vec::with_capacity(tensors.len());
        for t in &tensors {
            let shape: Vec<usize> = t.i32s(0)?.iter().map(|&d| d.max(0) as usize).collect();
            let ty = t.i8_or(1, 0)?;
            let bi = t.i32_or(2, 0)? as usize;
            let data = match buffers.get(bi) {
                Some(b) => b.bytes(0)?,
                None => &[],
            };
            let (mut f, mut i) = (None, None);
            if !data.is_empty() {
                match ty {
                    0 => {
                        f = Some(
                            data.chunks_exact(4)
                                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .collect(),
                        )
                    }
                    1 => {
                        f = Some(
                            data.chunks_exact(2)
                                .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])))
                                .collect(),
                        )
                    }
                    2 => {
                        i = Some(
                            data.chunks_exact(4)
                                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .collect(),
                        )
                    }
                    t => return err(format!("unsupported tensor type {t}")),
                }
            }
            consts.push(f);
            ints.push(i);
            shapes.push(shape);
        }

        let konst = |consts: &Vec<Option<Vec<f32>>>, i: usize| -> Result<Vec<f32>, ModelError> {
            consts
                .get(i)
                .and_then(|c| c.clone())
                .ok_or(ModelError(format!("tensor {i} is not constant")))
        };

        let mut ops = Vec::new();
        for op in sg.tables(3)? {
            let (code, custom) = *codes
                .get(op.i32_or(0, 0)? as usize)
                .ok_or(ModelError("opcode".into()))?;
            let ins: Vec<usize> = op.i32s(1)?.iter().map(|&v| v as usize).collect();
            let outs: Vec<usize> = op.i32s(2)?.iter().map(|&v| v as usize).collect();
            let opts = op.table(4)?;
            let y = *outs.first().ok_or(ModelError("no output".into()))?;
            let x = *ins.first().ok_or(ModelError("no input".into()))?;
            let o = |i: usize, d: i32| -> Result<i32, ModelError> {
                match &opts {
                    Some(t) => t.i32_or(i, d),
                    None => Ok(d),
                }
            };
            let o8 = |i: usize| -> Result<i8, ModelError> {
                match &opts {
                    Some(t) => t.i8_or(i, 0),
                    None => Ok(0),
                }
            };
            match code {
                // DEQUANTIZE: constant weights become float32 constants.
                6 => {
                    if let Some(c) = consts[x].clone() {
                        consts[y] = Some(c);
                    } else {
                        ops.push(Op::Alias { x, y });
                    }
                }
                3 => {
                    let wshape = &shapes[ins[1]];
                    let (oc, kh, kw, ic) = (wshape[0], wshape[1], wshape[2], wshape[3]);
                    let w = konst(&consts, ins[1])?;
                    let mut wt = vec![0f32; w.len()];
                    for o_ in 0..oc {
                        for a in 0..kh {
                            for b in 0..kw {
                                for i_ in 0..ic {
                                    wt[((a * kw + b) * ic + i_) * oc + o_] =
                                        w[((o_ * kh + a) * kw + b) * ic + i_];
                                }
                            }
                        }
                    }
                    let b = match ins.get(2) {
                        Some(&bi) if bi < consts.len() => konst(&consts, bi)?,
                        _ => vec![0.0; oc],
                    };
                    if o(4, 1)? != 1 || o(5, 1)? != 1 {
                        return err("dilated conv");
                    }
                    ops.push(Op::Conv {
                        x,
                        y,
                        w: wt,
                        b,
                        k: (kh, kw),
                        stride: (o(2, 1)? as usize, o(1, 1)? as usize),
                        same: o8(0)? == 0,
                        act: act(o8(3)?)?,
                        epi: Epi::default(),
                    });
                }
                4 => {
                    let wshape = &shapes[ins[1]];
                    let (kh, kw, c) = (wshape[1], wshape[2], wshape[3]);
                    if o(3, 1)? != 1 || shapes[x].get(3) != Some(&c) {
                        return err("depth multiplier");
                    }
                    if o(5, 1)? != 1 || o(6, 1)? != 1 {
                        return err("dilated depthwise conv");
                    }
                    let w = konst(&consts, ins[1])?;
                    let b = match ins.get(2) {
                        Some(&bi) if bi < consts.len() => konst(&consts, bi)?,
                        _ => vec![0.0; c],
                    };
                    ops.push(Op::Depthwise {
                        x,
                        y,
                        w,
                        b,
                        k: (kh, kw),
                        stride: (o(2, 1)? as usize, o(1, 1)? as usize),
                        same: o8(0)? == 0,
                        act: act(o8(4)?)?,
                    });
                }
                // ADD, MUL: the full-size operand first.
                0 | 18 => {
                    let n = |t: usize| shapes[t].iter().product::<usize>();
                    let (a, b) = if n(ins[0]) >= n(ins[1]) {
                        (ins[0], ins[1])
                    } else {
                        (ins[1], ins[0])
                    };
                    let (sa, sb) = (&shapes[a], &shapes[b]);
                    let per_channel = n(b) == 1
                        || (sb.last() == sa.last() && sb[..sb.len() - 1].iter().all(|&d| d == 1));
                    if n(a) != shapes[y].iter().product::<usize>() || (sa != sb && !per_channel) {
                        return err("unsupported broadcast");
                    }
                    let act = act(o8(0)?)?;
                    ops.push(if code == 0 {
                        Op::Add { a, b, y, act }
                    } else {
                        Op::Mul { a, b, y, act }
                    });
                }
                // AVERAGE_POOL_2D over the whole input (the squeeze-and-excite blocks).
                1 => {
                    let (ih, iw) = (shapes[x][1], shapes[x][2]);
                    if o8(5)? != 0 || o(3, 0)? as usize != iw || o(4, 0)? as usize != ih {
                        return err("average pool that is not global");
                    }
                    ops.push(Op::SpatialMean { x, y });
                }
                // MEAN over height and width.
                40 => {
                    let axes = ints
                        .get(ins[1])
                        .and_then(|v| v.clone())
                        .ok_or(ModelError("mean axes".into()))?;
                    if shapes[x].len() != 4 || axes != [1, 2] {
                        return err("mean over other axes than height and width");
                    }
                    ops.push(Op::SpatialMean { x, y });
                }
                23 => ops.push(Op::Resize {
                    x,
                    y,
                    align_corners: o8(2)? != 0,
                    half_pixel: o8(3)? != 0,
                }),
                9 => {
                    let ws = &shapes[ins[1]];
                    let (oc, ic) = (ws[0], ws[1]);
                    if o8(1)? != 0 || shapes[x].iter().product::<usize>() % ic != 0 {
                        return err("fully connected layout");
                    }
                    let w = konst(&consts, ins[1])?;
                    let mut wt = vec![0f32; w.len()];
                    for o_ in 0..oc {
                        for i_ in 0..ic {
                            wt[i_ * oc + o_] = w[o_ * ic + i_];
                        }
                    }
                    let b = match ins.get(2) {
                        Some(&bi) if bi < consts.len() => konst(&consts, bi)?,
                        _ => vec![0.0; oc],
                    };
                    ops.push(Op::Dense {
                        x,
                        y,
                        w: wt,
                        b,
                        act: act(o8(0)?)?,
                    });
                }
                117 => ops.push(Op::HardSwish { x, y }),
                14 => ops.push(Op::Logistic { x, y }),
                32 if custom == b"Convolution2DTransposeBias" => {
                    // Options: TfLiteTransposeConvParams as raw little-endian i32s
                    // (padding: 1 same, 2 valid; stride width; stride height).
                    let raw = op.bytes(5)?;
                    if raw.len() < 12 {
                        return err("transpose conv options");
                    }
                    let int = |i: usize| {
                        i32::from_le_bytes([
                            raw[4 * i],
                            raw[4 * i + 1],
                            raw[4 * i + 2],
                            raw[4 * i + 3],
                        ])
                    };
                    let (padding, sw, sh) = (int(0), int(1), int(2));
                    if !(1..=2).contains(&padding) || sw < 1 || sh < 1 {
                        return err("transpose conv options");
                    }
                    let ws = &shapes[ins[1]];
                    let (oc, kh, kw) = (ws[0], ws[1], ws[2]);
                    if ws[3] != shapes[x][3] || shapes[y][3] != oc {
                        return err("transpose conv shapes");
                    }
                    ops.push(Op::TransposeConv {
                        x,
                        y,
                        w: konst(&consts, ins[1])?,
                        b: konst(&consts, ins[2])?,
                        k: (kh, kw),
                        stride: (sh as usize, sw as usize),
                        same: padding == 1,
                    });
                }
                17 => {
                    if o8(5)? != 0 {
                        return err("pool activation");
                    }
                    ops.push(Op::MaxPool {
                        x,
                        y,
                        p: Pool {
                            same: o8(0)? == 0,
                            sw: o(1, 1)? as usize,
                            sh: o(2, 1)? as usize,
                            kw: o(3, 1)? as usize,
                            kh: o(4, 1)? as usize,
                        },
                    })
                }
                34 => {
                    let p = ints
                        .get(ins[1])
                        .and_then(|v| v.clone())
                        .ok_or(ModelError("pad amounts".into()))?;
                    if p.len() != 8
                        || p[0] != 0
                        || p[1] != 0
                        || p[6] != 0
                        || p.iter().any(|&v| v < 0)
                    {
                        return err("unsupported padding");
                    }
                    ops.push(Op::Pad {
                        x,
                        y,
                        pad: [
                            p[2] as usize,
                            p[3] as usize,
                            p[4] as usize,
                            p[5] as usize,
                            p[7] as usize,
                        ],
                    });
                }
                19 => ops.push(Op::Relu { x, y }),
                54 => ops.push(Op::Prelu {
                    x,
                    y,
                    alpha: konst(&consts, ins[1])?,
                }),
                22 => ops.push(Op::Alias { x, y }),
                2 => {
                    let rank = shapes[y].len() as i32;
                    let mut axis = o(0, 0)?;
                    if axis < 0 {
                        axis += rank;
                    }
                    if axis < 0 || axis >= rank || o8(1)? != 0 {
                        return err("concat axis");
                    }
                    let axis = axis as usize;
                    let outer = shapes[y][..axis].iter().product();
                    let chunks = ins
                        .iter()
                        .map(|&t| shapes[t][axis..].iter().product())
                        .collect();
                    ops.push(Op::Concat {
                        xs: ins.clone(),
                        y,
                        outer,
                        chunks,
                    });
                }
                c => return err(format!("unsupported operator {c}")),
            }
        }
        let input = *sg.i32s(1)?.first().ok_or(ModelError("no input".into()))? as usize;
        let outputs: Vec<usize> = sg.i32s(2)?.iter().map(|&v| v as usize).collect();
        let ops = fuse(ops, &shapes, &outputs, input);
        let mut last_use = vec![0usize; shapes.len()];
        let mut all_reads = Vec::with_capacity(ops.len());
        for (n, op) in ops.iter().enumerate() {
            let reads = op_reads(op);
            for &r in &reads {
                last_use[r] = n;
            }
            all_reads.push(reads);
        }
        for &o in &outputs {
            last_use[o] = usize::MAX;
        }
        Ok(Model {
            shapes,
            last_use,
            reads: all_reads,
            ops,
            input,
            outputs,
        })
    }

    /// The value of tensor `t`, moved out when op `n` is its last reader.
    fn owned(&self, vals: &mut [Option<Vec<f32>>], t: usize, n: usize) -> Vec<f32> {
        if self.last_use[t] == n {
            vals[t].take().expect("tensor computed")
        } else {
            vals[t].clone().expect("tensor computed")
        }
    }

    /// Input shape as (height, width, channels).
    pub fn input_hwc(&self) -> (usize, usize, usize) {
        let s = &self.shapes[self.input];
        (s[1], s[2], s[3])
    }

    fn hwc(&self, t: usize) -> (usize, usize, usize) {
        let s = &self.shapes[t];
        match s.len() {
            4 => (s[1], s[2], s[3]),
            3 => (1, s[1], s[2]),
            2 => (1, 1, s[1]),
            _ => (1, 1, s.iter().product()),
        }
    }

    /// Run the network on an NHWC float input; returns the outputs in model order.
    pub fn run(&self, input: &[f32]) -> Vec<Vec<f32>> {
        // This thread's buffers come from (and go back to) a small shared stash, so a
        // short-lived helper thread starts with warm buffers and an idle thread keeps none.
        POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.is_empty()
                && let Some(spare) = SPARE_POOLS.lock().unwrap_or_else(|e| e.into_inner()).pop()
            {
                *p = spare;
            }
        });
        // Nothing is lent before the run starts (even if an earlier run panicked).
        LENT.with(|l| l.borrow_mut().clear());
        let out = self.run_inner(input);
        // Buffers still lent out now are the outputs, which leave with the caller.
        LENT.with(|l| l.borrow_mut().clear());
        POOL.with(|p| {
            let pool = std::mem::take(&mut *p.borrow_mut());
            let mut spare = SPARE_POOLS.lock().unwrap_or_else(|e| e.into_inner());
            if spare.len() < MAX_SPARE_POOLS {
                spare.push(pool);
            }
        });
        out
    }

    fn run_inner(&self, input: &[f32]) -> Vec<Vec<f32>> {
        let mut vals: Vec<Option<Vec<f32>>> = vec![None; self.shapes.len()];
        vals[self.input] = Some(input.to_vec());
        for (n, op) in self.ops.iter().enumerate() {
            match op {
                Op::Conv {
                    x,
                    y,
                    w,
                    b,
                    k,
                    stride,
                    same,
                    act,
                    epi,
                } => {
                    let (ih, iw, ic) = self.hwc(*x);
                    let (oh, ow, oc) = self.hwc(*y);
                    let src = vals[*x].as_deref().expect("conv input");
                    let skip = epi
                        .skip
                        .map(|t| (vals[t].as_deref().expect("skip input"), self.hwc(t).2));
                    let out = conv(
                        src,
                        (ih, iw, ic),
                        (oh, ow, oc),
                        w,
                        b,
                        *k,
                        *stride,
                        *same,
                        *act,
                        (skip, epi.relu, epi.prelu.as_deref()),
                    );
                    vals[*y] = Some(out);
                }
                Op::Depthwise {
                    x,
                    y,
                    w,
                    b,
                    k,
                    stride,
                    same,
                    act,
                } => {
                    let (ih, iw, c) = self.hwc(*x);
                    let (oh, ow, _) = self.hwc(*y);
                    let src = vals[*x].as_deref().expect("dw input");
                    let out = depthwise(src, (ih, iw, c), (oh, ow), w, b, *k, *stride, *same, *act);
                    vals[*y] = Some(out);
                }
                Op::Add { a, b, y, act } | Op::Mul { a, b, y, act } => {
                    let mut va = self.owned(&mut vals, *a, n);
                    let vb = vals[*b].as_deref().expect("binary operand");
                    let mul = matches!(op, Op::Mul { .. });
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
                    if *act != Act::None {
                        for p in va.iter_mut() {
                            *p = apply(*p, *act);
                        }
                    }
                    vals[*y] = Some(va);
                }
                Op::SpatialMean { x, y } => {
                    let (ih, iw, c) = self.hwc(*x);
                    let src = vals[*x].as_deref().expect("mean input");
                    vals[*y] = Some(spatial_mean(src, ih * iw, c));
                }
                Op::Resize {
                    x,
                    y,
                    align_corners,
                    half_pixel,
                } => {
                    let src = vals[*x].as_deref().expect("resize input");
                    let out = resize_bilinear(
                        src,
                        self.hwc(*x),
                        self.hwc(*y),
                        *align_corners,
                        *half_pixel,
                    );
                    vals[*y] = Some(out);
                }
                Op::TransposeConv {
                    x,
                    y,
                    w,
                    b,
                    k,
                    stride,
                    same,
                } => {
                    let src = vals[*x].as_deref().expect("transpose conv input");
                    let out =
                        transpose_conv(src, self.hwc(*x), self.hwc(*y), w, b, *k, *stride, *same);
                    vals[*y] = Some(out);
                }
                Op::Dense { x, y, w, b, act } => {
                    let src = vals[*x].as_deref().expect("dense input");
                    let n_out = b.len();
                    let k = w.len() / n_out;
                    // Every output is written by `matmul`.
                    let mut out = alloc_overwritten(src.len() / k * n_out);
                    matmul(src, k, w, b, n_out, &mut out);
                    if *act != Act::None {
                        for o in out.iter_mut() {
                            *o = apply(*o, *act);
                        }
                    }
                    vals[*y] = Some(out);
                }
                Op::HardSwish { x, y } => {
                    let mut v = self.owned(&mut vals, *x, n);
                    for e in v.iter_mut() {
                        *e = hard_swish(*e);
                    }
                    vals[*y] = Some(v);
                }
                Op::Logistic { x, y } => {
                    let mut v = self.owned(&mut vals, *x, n);
                    for e in v.iter_mut() {
                        *e = logistic(*e);
                    }
                    vals[*y] = Some(v);
                }
                Op::MaxPool { x, y, p } => {
                    let (ih, iw, c) = self.hwc(*x);
                    let (oh, ow, _) = self.hwc(*y);
                    let src = vals[*x].as_deref().expect("pool input");
                    vals[*y] = Some(maxpool(src, (ih, iw, c), (oh, ow), *p));
                }
                Op::Pad { x, y, pad } => {
                    let (ih, iw, ic) = self.hwc(*x);
                    let (oh, ow, oc) = self.hwc(*y);
                    let src = vals[*x].as_deref().expect("pad input");
                    // Every value is written below: zeros around the copied pixels.
                    let mut out = alloc_overwritten(oh * ow * oc);
                    for (r, orow) in out.chunks_exact_mut(ow * oc).enumerate() {
                        if r < pad[0] || r >= pad[0] + ih {
                            orow.fill(0.0);
                            continue;
                        }
                        let srow = &src[(r - pad[0]) * iw * ic..(r - pad[0] + 1) * iw * ic];
                        orow[..pad[2] * oc].fill(0.0);
                        orow[(pad[2] + iw) * oc..].fill(0.0);
                        for (d, sp) in orow[pad[2] * oc..(pad[2] + iw) * oc]
                            .chunks_exact_mut(oc)
                            .zip(srow.chunks_exact(ic))
                        {
                            d[..ic].copy_from_slice(sp);
                            d[ic..].fill(0.0);
                        }
                    }
                    vals[*y] = Some(out);
                }
                Op::Relu { x, y } => {
                    let mut v = self.owned(&mut vals, *x, n);
                    for e in v.iter_mut() {
                        *e = e.max(0.0);
                    }
                    vals[*y] = Some(v);
                }
                Op::Prelu { x, y, alpha } => {
                    let mut v = self.owned(&mut vals, *x, n);
                    // Branch-free so it vectorises: max(v,0) + min(v,0)*a is exactly v for
                    // v >= 0 and exactly v*a for v < 0.
                    for row in v.chunks_exact_mut(alpha.len()) {
                        for (e, &a) in row.iter_mut().zip(alpha) {
                            let x = *e;
                            *e = x.max(0.0) + x.min(0.0) * a;
                        }
                    }
                    vals[*y] = Some(v);
                }
                Op::Alias { x, y } => {
                    vals[*y] = Some(self.owned(&mut vals, *x, n));
                }
                Op::Concat {
                    xs,
                    y,
                    outer,
                    chunks,
                } => {
                    let mut out = Vec::with_capacity(outer * chunks.iter().sum::<usize>());
                    for r in 0..*outer {
                        for (t, &wd) in xs.iter().zip(chunks) {
                            let src = vals[*t].as_deref().expect("concat input");
                            out.extend_from_slice(&src[r * wd..(r + 1) * wd]);
                        }
                    }
                    vals[*y] = Some(out);
                }
            }
            for &t in &self.reads[n] {
                if self.last_use[t] == n
                    && let Some(v) = vals[t].take()
                {
                    release(v);
                }
            }
        }
        self.outputs
            .iter()
            .map(|&o| vals[o].take().expect("output computed"))
            .collect()
    }
}

/// A pooled activation buffer and how many of its values have ever been written (its
/// longest length so far), so that it can be handed out again without clearing them.
struct Pooled {
    v: Vec<f32>,
    init: usize,
}

/// Buffer pools not in use by any thread (at most `MAX_SPARE_POOLS`).
static SPARE_POOLS: std::sync::Mutex<Vec<Vec<Pooled>>> = std::sync::Mutex::new(Vec::new());
const MAX_SPARE_POOLS: usize = 4;

/// Frees the spare activation buffers (tens of MB after a burst of analyses).
/// The next run allocates afresh; a server calls this when it has been idle.
/// Returns the bytes freed.
pub fn release_spare_buffers() -> usize {
    let pools = std::mem::take(&mut *SPARE_POOLS.lock().unwrap_or_else(|e| e.into_inner()));
    pools
        .iter()
        .flatten()
        .map(|pooled| pooled.v.capacity() * std::mem::size_of::<f32>())
        .sum()
}

thread_local! {
    /// Activation buffers reused across operators and runs on this thread, so a run
    /// does not page-fault fresh memory for every tensor.
    static POOL: std::cell::RefCell<Vec<Pooled>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Buffers handed out by `alloc_overwritten` during this run: address and written
    /// length, so `release` can pool them with their full written length.
    static LENT: std::cell::RefCell<Vec<(usize, usize)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A buffer of `n` values all set to `fill`, from the pool when possible.
fn alloc(n: usize, fill: f32) -> Vec<f32> {
    let mut v = alloc_raw(n).v;
    v.clear();
    v.resize(n, fill);
    v
}

/// A buffer of `n` values whose contents the caller overwrites entirely (stale values
/// from the pool are never read, so there is no need to clear them).
fn alloc_overwritten(n: usize) -> Vec<f32> {
    let Pooled { mut v, init } = alloc_raw(n);
    if init >= n {
        // SAFETY: the first `init` values of this buffer were written while it was in use
        // before (its longest length), truncation leaves them in place, and every bit
        // pattern is a valid f32.
        unsafe { v.set_len(n) };
    } else {
        // SAFETY: as above for the first `init` values; only the rest is cleared.
        unsafe { v.set_len(init) };
        v.resize(n, 0.0);
    }
    let written = init.max(n);
    LENT.with(|l| l.borrow_mut().push((v.as_ptr() as usize, written)));
    v
}

/// The pooled buffer with the smallest capacity of at least `n` values.
fn alloc_raw(n: usize) -> Pooled {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        let best = (0..p.len())
            .filter(|&i| p[i].v.capacity() >= n)
            .min_by_key(|&i| p[i].v.capacity());
        best.map(|i| p.swap_remove(i))
    })
    .unwrap_or(Pooled {
        v: Vec::new(),
        init: 0,
    })
}

fn release(v: Vec<f32>) {
    let addr = v.as_ptr() as usize;
    let lent = LENT.with(|l| {
        let mut l = l.borrow_mut();
        let i = l.iter().rposition(|&(a, _)| a == addr)?;
        Some(l.swap_remove(i).1)
    });
    let init = lent.unwrap_or(0).max(v.len());
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < 64 {
            p.push(Pooled { v, init });
        }
    });
}

#[inline]
fn apply(v: f32, a: Act) -> f32 {
    match a {
        Act::None => v,
        Act::Relu => v.max(0.0),
        Act::Relu6 => v.clamp(0.0, 6.0),
    }
}

fn pad_before(input: usize, output: usize, k: usize, s: usize, same: bool) -> usize {
    if !same {
        return 0;
    }
    let total = ((output - 1) * s + k).saturating_sub(input);
    total / 2
}

#[allow(clippy::too_many_arguments)]
fn conv(
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

/// The skip input with its channel count, RELU, PRELU slopes (see [`Epi`]).
type EpiArgs<'a> = (Option<(&'a [f32], usize)>, bool, Option<&'a [f32]>);

/// The convolution's own activation, then the folded operators, on the outputs of
/// pixels `p0..` (`out` holds whole pixels of `oc` channels).
#[inline]
fn epilogue(out: &mut [f32], p0: usize, oc: usize, a: Act, (skip, relu, prelu): EpiArgs) {
    if a != Act::None {
        for o in out.iter_mut() {
            *o = apply(*o, a);
        }
    }
    if let Some((s, sc)) = skip {
        let np = out.len() / oc;
        let s = &s[p0 * sc..(p0 + np) * sc];
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

/// Whether the CPU has AVX. The AVX code paths compile the very same scalar-per-element
/// arithmetic (separate multiply and add, no fused multiply-add, same order), only wider,
/// so they give bit-identical results to the portable path.
#[cfg(target_arch = "x86_64")]
fn has_avx() -> bool {
    static AVX: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX.get_or_init(|| std::is_x86_feature_detected!("avx"))
}

/// `out[p][o] = b[o] + sum_i x[p][i] * w[i][o]`, summed over `i` in ascending order for
/// every output (the blocking below only changes which outputs are computed together,
/// never the order of one output's sum).
fn matmul(x: &[f32], k: usize, w: &[f32], b: &[f32], n: usize, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx() {
        // SAFETY: AVX is present (checked at run time).
        unsafe { matmul_avx(x, k, w, b, n, out) };
        return;
    }
    matmul_blocked::<8>(x, k, w, b, n, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn matmul_avx(x: &[f32], k: usize, w: &[f32], b: &[f32], n: usize, out: &mut [f32]) {
    matmul_blocked::<16>(x, k, w, b, n, out);
}

#[inline(always)]
fn matmul_blocked<const OB: usize>(
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
    let mut p = 0;
    if OB > 8 {
        // Eight rows at a time, so the 8- and 4-wide remainder columns (24, 28, 56, 88
        // outputs...) also keep eight independent sums in flight instead of four.
        while p + 8 <= rows {
            let mut o = 0;
            while o + OB <= n {
                // SAFETY: p + 8 <= rows, o + OB <= n (loop bounds), and the assert above.
                unsafe { block::<4, OB>(x, k, w, b, n, out, p, o) };
                unsafe { block::<4, OB>(x, k, w, b, n, out, p + 4, o) };
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

#[allow(clippy::too_many_arguments)]
fn depthwise(
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
    let base: [usize; P] = std::array::from_fn(|p| ((c + p) * g.sw - g.pl) * g.ch + k0);
    for &(sp, wp) in taps {
        let wr: [f32; C] = unsafe { std::ptr::read_unaligned(wp0.add(wp + k0).cast()) };
        for p in 0..P {
            let px: [f32; C] = unsafe { std::ptr::read_unaligned(sp0.add(base[p] + sp).cast()) };
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

/// `x * relu6(x + 3) / 6`, in TFLite's order of operations.
#[inline]
fn hard_swish(x: f32) -> f32 {
    x * (x + 3.0).clamp(0.0, 6.0) / 6.0
}

/// `1 / (1 + e^-x)` with `libm`'s `expf` (the same bits on every machine).
#[inline]
fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

/// Mean of each of `c` channels over `pixels` pixels: the pixels summed in order, then
/// divided by their count.
fn spatial_mean(src: &[f32], pixels: usize, c: usize) -> Vec<f32> {
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

/// One axis of a bilinear resize: the source coordinate and its two neighbours, as
/// TFLite's reference kernel computes them.
fn resize_axis(i: usize, scale: f32, half_pixel: bool, len: usize) -> (f32, usize, usize) {
    let v = if half_pixel {
        (i as f32 + 0.5) * scale - 0.5
    } else {
        i as f32 * scale
    };
    let lo = (v.floor() as i64).max(0) as usize;
    let hi = (v.ceil() as i64).min(len as i64 - 1).max(0) as usize;
    (v, lo, hi)
}

/// TFLite's RESIZE_BILINEAR, with its reference kernel's formula (four weighted corners
/// summed in a fixed order).
fn resize_bilinear(
    src: &[f32],
    (ih, iw, c): (usize, usize, usize),
    (oh, ow, _): (usize, usize, usize),
    align_corners: bool,
    half_pixel: bool,
) -> Vec<f32> {
    let scale = |i: usize, o: usize| {
        if align_corners && o > 1 {
            (i - 1) as f32 / (o - 1) as f32
        } else {
            i as f32 / o as f32
        }
    };
    let (sy, sx) = (scale(ih, oh), scale(iw, ow));
    let cols: Vec<(f32, usize, usize)> = (0..ow)
        .map(|x| resize_axis(x, sx, half_pixel, iw))
        .collect();
    // Every output is written below.
    let mut out = alloc_overwritten(oh * ow * c);
    for y in 0..oh {
        let (fy, y0, y1) = resize_axis(y, sy, half_pixel, ih);
        let dy = fy - y0 as f32;
        for (x, &(fx, x0, x1)) in cols.iter().enumerate() {
            let dx = fx - x0 as f32;
            let (w00, w10) = ((1.0 - dy) * (1.0 - dx), dy * (1.0 - dx));
            let (w01, w11) = ((1.0 - dy) * dx, dy * dx);
            let p00 = &src[(y0 * iw + x0) * c..][..c];
            let p10 = &src[(y1 * iw + x0) * c..][..c];
            let p01 = &src[(y0 * iw + x1) * c..][..c];
            let p11 = &src[(y1 * iw + x1) * c..][..c];
            let o = &mut out[(y * ow + x) * c..][..c];
            for q in 0..c {
                o[q] = p00[q] * w00 + p10[q] * w10 + p01[q] * w01 + p11[q] * w11;
            }
        }
    }
    out
}

/// MediaPipe's Convolution2DTransposeBias, computed per output (a gather): the bias,
/// then every tap that reaches the output in (kernel row, kernel column, input channel)
/// order.
#[allow(clippy::too_many_arguments)]
fn transpose_conv(
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

fn maxpool(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide (AVX) and portable paths must agree bit for bit.
    #[test]
    fn matmul_paths_are_bit_identical() {
        for n in [43, 45] {
            matmul_paths_agree(37, 29, n);
        }
    }

    /// Rows and outputs chosen to reach every block shape (8, 4 and 1 rows; 16, 8, 4
    /// and 1 outputs).
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
        matmul_blocked::<8>(&x, k, &w, &b, n, &mut c);
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

    #[test]
    fn half_floats_convert_exactly() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
    }
}
