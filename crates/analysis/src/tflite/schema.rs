//! Reading TFLite flatbuffers: just enough of the FlatBuffers format for the schema
//! fields our models use, every read bounds-checked so that a corrupt file is an error.

use super::ModelError;
use super::opcode::Opcode;

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

/// A table; read through the typed views below, except operator options, whose fields
/// depend on the operator (model.rs reads them by number).
#[derive(Clone, Copy)]
pub(crate) struct Table<'a> {
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
    pub(crate) fn i8_or(&self, i: usize, d: i8) -> Result<i8, ModelError> {
        Ok(match self.field(i)? {
            Some(p) => self.buf.u8(p)? as i8,
            None => d,
        })
    }
    pub(crate) fn i32_or(&self, i: usize, d: i32) -> Result<i32, ModelError> {
        Ok(match self.field(i)? {
            Some(p) => self.buf.i32(p)?,
            None => d,
        })
    }
    pub(crate) fn f32_or(&self, i: usize, d: f32) -> Result<f32, ModelError> {
        Ok(match self.field(i)? {
            Some(p) => f32::from_bits(self.buf.u32(p)?),
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

/// schema.fbs's `TensorType` values we read.
pub(crate) mod tensor_type {
    pub(crate) const FLOAT32: i8 = 0;
    pub(crate) const FLOAT16: i8 = 1;
    pub(crate) const INT32: i8 = 2;
}

// Views of schema.fbs's tables: one method per field we read, named as there (field
// numbers count a union as two fields: its type, then its value).

/// The root table (schema.fbs's `Model`).
pub(crate) struct ModelTable<'a>(Table<'a>);
pub(crate) struct OperatorCode<'a>(Table<'a>);
pub(crate) struct SubGraph<'a>(Table<'a>);
pub(crate) struct Tensor<'a>(Table<'a>);
pub(crate) struct Operator<'a>(Table<'a>);
pub(crate) struct Buffer<'a>(Table<'a>);

fn views<'a, T>(tables: Vec<Table<'a>>, view: fn(Table<'a>) -> T) -> Vec<T> {
    tables.into_iter().map(view).collect()
}

impl<'a> ModelTable<'a> {
    pub(crate) fn root(data: &'a [u8]) -> Result<Self, ModelError> {
        let buf = Buf(data);
        Ok(ModelTable(Table::at(buf, buf.u32(0)? as usize)?))
    }
    pub(crate) fn operator_codes(&self) -> Result<Vec<OperatorCode<'a>>, ModelError> {
        Ok(views(self.0.tables(1)?, OperatorCode))
    }
    pub(crate) fn subgraphs(&self) -> Result<Vec<SubGraph<'a>>, ModelError> {
        Ok(views(self.0.tables(2)?, SubGraph))
    }
    pub(crate) fn buffers(&self) -> Result<Vec<Buffer<'a>>, ModelError> {
        Ok(views(self.0.tables(4)?, Buffer))
    }
}

impl<'a> OperatorCode<'a> {
    /// The builtin code: the larger of the deprecated one-byte field and the full one.
    pub(crate) fn builtin_code(&self) -> Result<Opcode, ModelError> {
        Ok(Opcode(
            (self.0.i8_or(0, 0)? as i32).max(self.0.i32_or(3, 0)?),
        ))
    }
    /// The name of a custom operator.
    pub(crate) fn custom_code(&self) -> Result<&'a [u8], ModelError> {
        self.0.bytes(1)
    }
}

impl<'a> SubGraph<'a> {
    pub(crate) fn tensors(&self) -> Result<Vec<Tensor<'a>>, ModelError> {
        Ok(views(self.0.tables(0)?, Tensor))
    }
    pub(crate) fn inputs(&self) -> Result<Vec<i32>, ModelError> {
        self.0.i32s(1)
    }
    pub(crate) fn outputs(&self) -> Result<Vec<i32>, ModelError> {
        self.0.i32s(2)
    }
    pub(crate) fn operators(&self) -> Result<Vec<Operator<'a>>, ModelError> {
        Ok(views(self.0.tables(3)?, Operator))
    }
}

impl Tensor<'_> {
    pub(crate) fn shape(&self) -> Result<Vec<i32>, ModelError> {
        self.0.i32s(0)
    }
    /// One of [`tensor_type`].
    pub(crate) fn tensor_type(&self) -> Result<i8, ModelError> {
        self.0.i8_or(1, 0)
    }
    /// Index into the model's buffers (0, an empty one, when not constant).
    pub(crate) fn buffer(&self) -> Result<i32, ModelError> {
        self.0.i32_or(2, 0)
    }
}

impl<'a> Buffer<'a> {
    pub(crate) fn data(&self) -> Result<&'a [u8], ModelError> {
        self.0.bytes(0)
    }
}

impl<'a> Operator<'a> {
    /// Index into the model's operator codes.
    pub(crate) fn opcode_index(&self) -> Result<i32, ModelError> {
        self.0.i32_or(0, 0)
    }
    pub(crate) fn inputs(&self) -> Result<Vec<i32>, ModelError> {
        self.0.i32s(1)
    }
    pub(crate) fn outputs(&self) -> Result<Vec<i32>, ModelError> {
        self.0.i32s(2)
    }
    pub(crate) fn builtin_options(&self) -> Result<Option<Table<'a>>, ModelError> {
        self.0.table(4)
    }
    pub(crate) fn custom_options(&self) -> Result<&'a [u8], ModelError> {
        self.0.bytes(5)
    }
}

/// A half-precision float (TFLite's FLOAT16 weights), widened exactly.
pub(crate) fn f16_to_f32(h: u16) -> f32 {
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
