//! Folding a convolution's elementwise tail (residual ADD, RELU, PRELU) into the
//! convolution, at load time: one pass and one buffer fewer per folded operator, with the
//! same operations on the same values, so the same bits.

use super::ops::{Act, Epi, Op, op_reads, op_writes};

/// Fold the residual blocks' elementwise tail into the convolution that feeds it:
/// `CONV -> [PAD (channels only) of the skip] -> ADD -> [RELU | PRELU]` and
/// `CONV -> RELU | PRELU` become one convolution with an epilogue, when every
/// intermediate tensor has no other reader. Saves a pass (and a buffer) per operator.
pub(crate) fn fuse(
    mut ops: Vec<Op>,
    shapes: &[Vec<usize>],
    outputs: &[usize],
    input: usize,
) -> Vec<Op> {
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
