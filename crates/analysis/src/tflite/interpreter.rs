//! Running a loaded model: each operator's inputs handed to its kernel in the model's
//! order, every tensor dropped (its buffer back to the arena) after its last reader.

use super::arena::{self, release};
use super::kernels::conv::{conv, transpose_conv};
use super::kernels::depthwise::depthwise;
use super::kernels::elementwise::{
    add_or_mul, hard_swish_all, logistic_all, prelu_all, relu_all, softmax_rows,
};
use super::kernels::matmul::dense;
use super::kernels::pool::{maxpool, spatial_mean};
use super::kernels::shape::{concat, resize_bilinear, zero_pad};
use super::model::Model;
use super::ops::Op;

impl Model {
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

    /// The multiply-adds of one run: every tap of every convolution (padding included),
    /// depthwise convolution, transposed convolution and fully connected layer. The
    /// elementwise operators and pooling are not counted. For the speed figures: this
    /// count over the machine's peak multiply-add rate is a time no kernel can beat.
    pub fn multiply_adds(&self) -> u64 {
        let numel = |t: usize| self.shapes[t].iter().product::<usize>() as u64;
        self.ops
            .iter()
            .map(|op| match op {
                // Each output pixel takes every weight once.
                Op::Conv { y, w, b, .. }
                | Op::Depthwise { y, w, b, .. }
                | Op::Dense { y, w, b, .. } => numel(*y) / b.len() as u64 * w.len() as u64,
                // Each input pixel scatters every weight once.
                Op::TransposeConv { x, w, .. } => {
                    let (h, wd, _) = self.hwc(*x);
                    (h * wd) as u64 * w.len() as u64
                }
                _ => 0,
            })
            .sum()
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
        arena::begin_run();
        let out = self.run_inner(input);
        arena::end_run();
        out
    }

    /// Run the network on two inputs (a photo and its mirror image), operator by
    /// operator: each operator runs on the first input, then at once on the second, so
    /// its weights are still in the cache the second time (a pass reads each weight
    /// once, so a network whose weights do not fit in the cache reads them from memory
    /// once for the two instead of twice). Each input's arithmetic is exactly that of
    /// [`Model::run`]: the same outputs, bit for bit.
    pub fn run_pair(&self, a: &[f32], b: &[f32]) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
        arena::begin_run();
        let mut va = self.start(a);
        let mut vb = self.start(b);
        for (n, op) in self.ops.iter().enumerate() {
            self.step(n, op, &mut va);
            self.step(n, op, &mut vb);
        }
        let out = (self.finish(&mut va), self.finish(&mut vb));
        arena::end_run();
        out
    }

    fn run_inner(&self, input: &[f32]) -> Vec<Vec<f32>> {
        let mut vals = self.start(input);
        for (n, op) in self.ops.iter().enumerate() {
            self.step(n, op, &mut vals);
        }
        self.finish(&mut vals)
    }

    /// The tensors of a run, only the input known.
    fn start(&self, input: &[f32]) -> Vec<Option<Vec<f32>>> {
        let mut vals: Vec<Option<Vec<f32>>> = vec![None; self.shapes.len()];
        vals[self.input] = Some(input.to_vec());
        vals
    }

    /// The outputs of a finished run, in model order.
    fn finish(&self, vals: &mut [Option<Vec<f32>>]) -> Vec<Vec<f32>> {
        self.outputs
            .iter()
            .map(|&o| vals[o].take().expect("output computed"))
            .collect()
    }

    /// Operator `n`, then every tensor it was the last reader of back to the arena.
    fn step(&self, n: usize, op: &Op, vals: &mut [Option<Vec<f32>>]) {
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
                let mut va = self.owned(vals, *a, n);
                let vb = vals[*b].as_deref().expect("binary operand");
                let mul = matches!(op, Op::Mul { .. });
                add_or_mul(&mut va, vb, mul, *act);
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
                let out =
                    resize_bilinear(src, self.hwc(*x), self.hwc(*y), *align_corners, *half_pixel);
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
                let out = transpose_conv(src, self.hwc(*x), self.hwc(*y), w, b, *k, *stride, *same);
                vals[*y] = Some(out);
            }
            Op::Dense { x, y, w, b, act } => {
                let src = vals[*x].as_deref().expect("dense input");
                vals[*y] = Some(dense(src, w, b, *act));
            }
            Op::HardSwish { x, y } => {
                let mut v = self.owned(vals, *x, n);
                hard_swish_all(&mut v);
                vals[*y] = Some(v);
            }
            Op::Logistic { x, y } => {
                let mut v = self.owned(vals, *x, n);
                logistic_all(&mut v);
                vals[*y] = Some(v);
            }
            Op::Softmax { x, y, row, beta } => {
                let mut v = self.owned(vals, *x, n);
                softmax_rows(&mut v, *row, *beta);
                vals[*y] = Some(v);
            }
            Op::MaxPool { x, y, p } => {
                let (ih, iw, c) = self.hwc(*x);
                let (oh, ow, _) = self.hwc(*y);
                let src = vals[*x].as_deref().expect("pool input");
                vals[*y] = Some(maxpool(src, (ih, iw, c), (oh, ow), *p));
            }
            Op::Pad { x, y, pad } => {
                let src = vals[*x].as_deref().expect("pad input");
                vals[*y] = Some(zero_pad(src, self.hwc(*x), self.hwc(*y), pad));
            }
            Op::Relu { x, y } => {
                let mut v = self.owned(vals, *x, n);
                relu_all(&mut v);
                vals[*y] = Some(v);
            }
            Op::Prelu { x, y, alpha } => {
                let mut v = self.owned(vals, *x, n);
                prelu_all(&mut v, alpha);
                vals[*y] = Some(v);
            }
            Op::Alias { x, y } => {
                vals[*y] = Some(self.owned(vals, *x, n));
            }
            Op::Concat {
                xs,
                y,
                outer,
                chunks,
            } => {
                let srcs: Vec<&[f32]> = xs
                    .iter()
                    .map(|t| vals[*t].as_deref().expect("concat input"))
                    .collect();
                vals[*y] = Some(concat(&srcs, *outer, chunks));
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
}
