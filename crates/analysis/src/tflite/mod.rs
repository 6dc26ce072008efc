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
//!
//! Where things are: `schema` reads the flatbuffer (`opcode` names its operator codes);
//! `model` turns it into our operator
//! list (the operators are `ops`: weights rearranged, options checked) and `fuse` folds
//! elementwise tails into the convolutions; `interpreter` runs that list over buffers from `arena`; `kernels` holds
//! the arithmetic, one file per family of operators.

mod arena;
mod fuse;
mod interpreter;
mod kernels;
mod model;
mod opcode;
mod ops;
mod schema;
#[cfg(test)]
mod tests;

pub use arena::release_spare_buffers;
pub use model::Model;

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
