//! The loaded model: the operators we run, their weights rearranged once for the
//! kernels and their options checked when the model is parsed, so that running it
//! only computes.

use super::fuse::fuse;
use super::opcode::Opcode;
use super::ops::{Act, Epi, Op, Pool, op_reads};
use super::schema::{ModelTable, f16_to_f32, tensor_type};
use super::{ModelError, err};

fn act(code: i8) -> Result<Act, ModelError> {
    match code {
        0 => Ok(Act::None),
        1 => Ok(Act::Relu),
        3 => Ok(Act::Relu6),
        c => err(format!("unsupported activation {c}")),
    }
}

/// A loaded model: constant weights plus the operator list.
pub struct Model {
    pub(crate) shapes: Vec<Vec<usize>>,
    /// Index of the last operator reading each tensor (usize::MAX for outputs).
    pub(crate) last_use: Vec<usize>,
    /// Tensors each operator reads.
    pub(crate) reads: Vec<Vec<usize>>,
    pub(crate) ops: Vec<Op>,
    pub(crate) input: usize,
    pub(crate) outputs: Vec<usize>,
}

impl Model {
    /// Parse a TFLite flatbuffer.
    pub fn parse(data: &[u8]) -> Result<Model, ModelError> {
        let root = ModelTable::root(data)?;
        let codes: Vec<(Opcode, &[u8])> = root
            .operator_codes()?
            .iter()
            .map(|c| Ok((c.builtin_code()?, c.custom_code()?)))
            .collect::<Result<_, ModelError>>()?;
        let buffers = root.buffers()?;
        let subgraphs = root.subgraphs()?;
        let Some(sg) = subgraphs.first() else {
            return err("no subgraph");
        };
        let tensors = sg.tensors()?;

        // Constant data (float32, or float16 to be dequantized), per tensor.
        let mut consts: Vec<Option<Vec<f32>>> = Vec::with_capacity(tensors.len());
        let mut ints: Vec<Option<Vec<i32>>> = Vec::with_capacity(tensors.len());
        let mut shapes = Vec::with_capacity(tensors.len());
        for t in &tensors {
            let shape: Vec<usize> = t.shape()?.iter().map(|&d| d.max(0) as usize).collect();
            let ty = t.tensor_type()?;
            let bi = t.buffer()? as usize;
            let data = match buffers.get(bi) {
                Some(b) => b.data()?,
                None => &[],
            };
            let (mut f, mut i) = (None, None);
            if !data.is_empty() {
                match ty {
                    tensor_type::FLOAT32 => {
                        f = Some(
                            data.chunks_exact(4)
                                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .collect(),
                        )
                    }
                    tensor_type::FLOAT16 => {
                        f = Some(
                            data.chunks_exact(2)
                                .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])))
                                .collect(),
                        )
                    }
                    tensor_type::INT32 => {
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
        for op in sg.operators()? {
            let (code, custom) = *codes
                .get(op.opcode_index()? as usize)
                .ok_or(ModelError("opcode".into()))?;
            let ins: Vec<usize> = op.inputs()?.iter().map(|&v| v as usize).collect();
            let outs: Vec<usize> = op.outputs()?.iter().map(|&v| v as usize).collect();
            let opts = op.builtin_options()?;
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
                // Constant weights become float32 constants.
                Opcode::DEQUANTIZE => {
                    if let Some(c) = consts[x].clone() {
                        consts[y] = Some(c);
                    } else {
                        ops.push(Op::Alias { x, y });
                    }
                }
                Opcode::CONV_2D => {
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
                Opcode::DEPTHWISE_CONV_2D => {
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
                // The full-size operand first.
                Opcode::ADD | Opcode::MUL => {
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
                    ops.push(if code == Opcode::ADD {
                        Op::Add { a, b, y, act }
                    } else {
                        Op::Mul { a, b, y, act }
                    });
                }
                // Over the whole input only (the squeeze-and-excite blocks).
                Opcode::AVERAGE_POOL_2D => {
                    let (ih, iw) = (shapes[x][1], shapes[x][2]);
                    if o8(5)? != 0 || o(3, 0)? as usize != iw || o(4, 0)? as usize != ih {
                        return err("average pool that is not global");
                    }
                    ops.push(Op::SpatialMean { x, y });
                }
                // Over height and width only.
                Opcode::MEAN => {
                    let axes = ints
                        .get(ins[1])
                        .and_then(|v| v.clone())
                        .ok_or(ModelError("mean axes".into()))?;
                    if shapes[x].len() != 4 || axes != [1, 2] {
                        return err("mean over other axes than height and width");
                    }
                    ops.push(Op::SpatialMean { x, y });
                }
                Opcode::RESIZE_BILINEAR => ops.push(Op::Resize {
                    x,
                    y,
                    align_corners: o8(2)? != 0,
                    half_pixel: o8(3)? != 0,
                }),
                Opcode::FULLY_CONNECTED => {
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
                Opcode::HARD_SWISH => ops.push(Op::HardSwish { x, y }),
                Opcode::LOGISTIC => ops.push(Op::Logistic { x, y }),
                Opcode::SOFTMAX => {
                    let row = shapes[x].last().copied().unwrap_or(0);
                    if row == 0 {
                        return err("softmax of an empty tensor");
                    }
                    let beta = match &opts {
                        Some(t) => t.f32_or(0, 1.0)?,
                        None => 1.0,
                    };
                    ops.push(Op::Softmax { x, y, row, beta });
                }
                Opcode::CUSTOM if custom == b"Convolution2DTransposeBias" => {
                    // Options: TfLiteTransposeConvParams as raw little-endian i32s
                    // (padding: 1 same, 2 valid; stride width; stride height).
                    let raw = op.custom_options()?;
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
                Opcode::MAX_POOL_2D => {
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
                Opcode::PAD => {
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
                Opcode::RELU => ops.push(Op::Relu { x, y }),
                Opcode::PRELU => ops.push(Op::Prelu {
                    x,
                    y,
                    alpha: konst(&consts, ins[1])?,
                }),
                Opcode::RESHAPE => ops.push(Op::Alias { x, y }),
                Opcode::CONCATENATION => {
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
                Opcode::CUSTOM => {
                    return err(format!(
                        "unsupported custom operator {}",
                        String::from_utf8_lossy(custom)
                    ));
                }
                c => return err(format!("unsupported operator {c}")),
            }
        }
        let input = *sg.inputs()?.first().ok_or(ModelError("no input".into()))? as usize;
        let outputs: Vec<usize> = sg.outputs()?.iter().map(|&v| v as usize).collect();
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
}
