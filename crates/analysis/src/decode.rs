//! Decoding with bounded memory: size and dimension checks before any pixel buffer is
//! allocated, EXIF orientation applied, large JPEGs decoded at reduced scale (DCT
//! scaling) because the analysis never needs more than about a megapixel.

use crate::error::AnalysisError;
use crate::raster::Rgb;
use std::io::Cursor;

/// Largest accepted upload, in bytes (10 MB, the spec's limit).
pub const MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;
/// Largest accepted declared image area (decompression-bomb guard): 50 megapixels.
pub const MAX_PIXELS: u64 = 50_000_000;
/// Largest accepted width or height.
pub const MAX_SIDE: u32 = 20_000;
/// Images are decoded so that their long side is at least this (when larger), then
/// reduced to at most twice this by 2x2 averaging.
pub const WORKING_SIDE: u32 = 960;

/// Decoded, upright image plus what we learnt about the original.
pub struct Decoded {
    pub image: Rgb,
    /// Size of the upright original image before any reduction.
    pub original_size: (u32, u32),
}

fn check_dims(w: u32, h: u32) -> Result<(), AnalysisError> {
    if w < 16 || h < 16 || w > MAX_SIDE || h > MAX_SIDE || (w as u64) * (h as u64) > MAX_PIXELS {
        return Err(AnalysisError::BadDimensions(w, h));
    }
    Ok(())
}

/// Decode any supported upload into an upright RGB working image.
pub fn decode(bytes: &[u8]) -> Result<Decoded, AnalysisError> {
    decode_at(bytes, Size::Working)
}

/// Decode any supported upload into an upright RGB image of its full size, every pixel
/// as stored (alpha dropped), for the screening classifier, whose reference (nsfwjs)
/// samples the original pixels. The same checks as [`decode`].
pub fn decode_full(bytes: &[u8]) -> Result<Rgb, AnalysisError> {
    Ok(decode_at(bytes, Size::Full)?.image)
}

/// Which size to decode at.
#[derive(Clone, Copy, PartialEq)]
enum Size {
    /// At most twice [`WORKING_SIDE`] on the long side (reduced while decoding).
    Working,
    /// As stored.
    Full,
}

fn decode_at(bytes: &[u8], size: Size) -> Result<Decoded, AnalysisError> {
    if bytes.len() > MAX_UPLOAD_BYTES {
        return Err(AnalysisError::TooLarge(bytes.len()));
    }
    let format = image::guess_format(bytes).map_err(|_| AnalysisError::NotAnImage)?;
    // Decoders pad a cut-off file with grey: refuse it before they get the chance.
    if !crate::complete::is_complete(bytes, format) {
        return Err(AnalysisError::CorruptImage(format!(
            "the {format:?} file is incomplete"
        )));
    }
    let (img, orientation, (w, h)) = match format {
        image::ImageFormat::Jpeg => decode_jpeg(bytes, size)?,
        image::ImageFormat::Png
        | image::ImageFormat::WebP
        | image::ImageFormat::Gif
        | image::ImageFormat::Bmp => decode_other(bytes, format)?,
        _ => return Err(AnalysisError::NotAnImage),
    };
    let original_size = if orientation >= 5 { (h, w) } else { (w, h) };
    let mut image = img.oriented(orientation);
    while size == Size::Working && image.w.max(image.h) > 2 * WORKING_SIDE as usize {
        image = image.halved();
    }
    Ok(Decoded {
        image,
        original_size,
    })
}

fn decode_jpeg(bytes: &[u8], size: Size) -> Result<(Rgb, u16, (u32, u32)), AnalysisError> {
    let mut dec = jpeg_decoder::Decoder::new(Cursor::new(bytes));
    dec.read_info()
        .map_err(|e| AnalysisError::CorruptImage(e.to_string()))?;
    let info = dec
        .info()
        .ok_or_else(|| AnalysisError::CorruptImage("no header".into()))?;
    let (w, h) = (info.width as u32, info.height as u32);
    check_dims(w, h)?;
    let orientation = dec.exif_data().map(exif_orientation).unwrap_or(1);
    let long = w.max(h);
    // Up to a DCT scale of 1/2, a full-size decode by zune-jpeg plus one 2x2 reduction is
    // faster than jpeg-decoder's scaled decode (1080p: about 7.5 vs 12 ms); from 1/4 on,
    // skipping the IDCT and colour conversion of 3/4 of the pixels wins.
    if (long < 4 * WORKING_SIDE || size == Size::Full)
        && let Some(img) = decode_jpeg_zune(bytes, (w, h))
    {
        let img = if long >= 2 * WORKING_SIDE && size == Size::Working {
            img.halved()
        } else {
            img
        };
        return Ok((img, orientation, (w, h)));
    }
    // DCT scaling: the smallest 1/8..1 scale whose long side still reaches WORKING_SIDE.
    if long > WORKING_SIDE && size == Size::Working {
        let rw = (w as u64 * WORKING_SIDE as u64).div_ceil(long as u64) as u16;
        let rh = (h as u64 * WORKING_SIDE as u64).div_ceil(long as u64) as u16;
        dec.scale(rw, rh)
            .map_err(|e| AnalysisError::CorruptImage(e.to_string()))?;
    }
    // Bounded even if a header lies: 4 bytes per pixel at the checked size.
    dec.set_max_decoding_buffer_size((MAX_PIXELS * 4) as usize);
    let pixels = dec
        .decode()
        .map_err(|e| AnalysisError::CorruptImage(e.to_string()))?;
    let info = dec
        .info()
        .ok_or_else(|| AnalysisError::CorruptImage("no header".into()))?;
    let (dw, dh) = (info.width as usize, info.height as usize);
    let n = dw * dh;
    let rgb = jpeg_pixels_to_rgb(pixels, info.pixel_format);
    if rgb.len() != n * 3 {
        return Err(AnalysisError::CorruptImage("pixel count mismatch".into()));
    }
    Ok((Rgb::new(dw, dh, rgb), orientation, (w, h)))
}

/// A full-size decode by zune-jpeg of a YCbCr, RGB or greyscale JPEG whose header has
/// already been checked; `None` for anything else (CMYK, or whatever zune-jpeg refuses),
/// which then goes through jpeg-decoder as before.
///
/// Determinism: zune-jpeg is integer arithmetic throughout, but it picks its IDCT, chroma
/// upsampling and colour conversion at run time (AVX2, NEON or scalar) and its options
/// cannot turn that off. Its AVX2 and scalar builds gave byte-identical pixels on 243
/// JPEGs (the bench images, rocket.jpg, and the test photos at qualities 30-100, odd
/// crops, colour and grey); that is evidence, not proof, and the NEON path is untested.
fn decode_jpeg_zune(bytes: &[u8], (w, h): (u32, u32)) -> Option<Rgb> {
    use zune_core::colorspace::ColorSpace;
    let opts = zune_core::options::DecoderOptions::default()
        .set_use_unsafe(false)
        .set_strict_mode(false)
        .set_max_width(MAX_SIDE as usize)
        .set_max_height(MAX_SIDE as usize)
        .jpeg_set_out_colorspace(ColorSpace::RGB);
    let mut dec =
        zune_jpeg::JpegDecoder::new_with_options(zune_core::bytestream::ZCursor::new(bytes), opts);
    dec.decode_headers().ok()?;
    if !matches!(
        dec.input_colorspace()?,
        ColorSpace::YCbCr | ColorSpace::RGB | ColorSpace::Luma
    ) || dec.dimensions()? != (w as usize, h as usize)
    {
        return None;
    }
    let pixels = dec.decode().ok()?;
    (dec.output_colorspace()? == ColorSpace::RGB && pixels.len() == w as usize * h as usize * 3)
        .then(|| Rgb::new(w as usize, h as usize, pixels))
}

fn decode_other(
    bytes: &[u8],
    format: image::ImageFormat,
) -> Result<(Rgb, u16, (u32, u32)), AnalysisError> {
    use image::ImageDecoder;
    let corrupt = |e: image::ImageError| match e {
        image::ImageError::Limits(_) => AnalysisError::BadDimensions(0, 0),
        image::ImageError::Unsupported(_) => AnalysisError::NotAnImage,
        e => AnalysisError::CorruptImage(e.to_string()),
    };
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_PIXELS * 4 + 64 * 1024 * 1024);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(corrupt)?;
    let (w, h) = decoder.dimensions();
    check_dims(w, h)?;
    let orientation = match decoder.orientation() {
        Ok(o) => orientation_code(o),
        Err(_) => 1,
    };
    let img = image::DynamicImage::from_decoder(decoder).map_err(corrupt)?;
    let rgb = img.into_rgb8();
    let (dw, dh) = (rgb.width() as usize, rgb.height() as usize);
    Ok((Rgb::new(dw, dh, rgb.into_raw()), orientation, (w, h)))
}

fn orientation_code(o: image::metadata::Orientation) -> u16 {
    use image::metadata::Orientation::*;
    match o {
        NoTransforms => 1,
        FlipHorizontal => 2,
        Rotate180 => 3,
        FlipVertical => 4,
        Rotate90FlipH => 5,
        Rotate90 => 6,
        Rotate270FlipH => 7,
        Rotate270 => 8,
    }
}

/// jpeg-decoder's output in any of its pixel formats as RGB24 (grey repeated,
/// 16-bit grey's high byte, CMYK's inks converted).
pub fn jpeg_pixels_to_rgb(pixels: Vec<u8>, format: jpeg_decoder::PixelFormat) -> Vec<u8> {
    match format {
        jpeg_decoder::PixelFormat::RGB24 => pixels,
        jpeg_decoder::PixelFormat::L8 => pixels.iter().flat_map(|&v| [v, v, v]).collect(),
        jpeg_decoder::PixelFormat::L16 => pixels
            .chunks_exact(2)
            .flat_map(|c| [c[0], c[0], c[0]])
            .collect(),
        jpeg_decoder::PixelFormat::CMYK32 => pixels
            .chunks_exact(4)
            .flat_map(|c| {
                // jpeg-decoder hands out ink amounts (it undoes Adobe's inversion).
                let k = 255 - c[3] as u16;
                let ch = |v: u8| ((255 - v as u16) * k / 255) as u8;
                [ch(c[0]), ch(c[1]), ch(c[2])]
            })
            .collect(),
    }
}

/// The orientation tag (0x0112) from a raw EXIF (TIFF) block; 1 when absent or malformed.
pub fn exif_orientation(tiff: &[u8]) -> u16 {
    let tiff = tiff.strip_prefix(b"Exif\0\0").unwrap_or(tiff);
    let le = match tiff.get(0..2) {
        Some(b"II") => true,
        Some(b"MM") => false,
        _ => return 1,
    };
    let u16_at = |p: usize| -> Option<u16> {
        let b = tiff.get(p..p + 2)?;
        Some(if le {
            u16::from_le_bytes([b[0], b[1]])
        } else {
            u16::from_be_bytes([b[0], b[1]])
        })
    };
    let u32_at = |p: usize| -> Option<u32> {
        let b = tiff.get(p..p + 4)?;
        Some(if le {
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        } else {
            u32::from_be_bytes([b[0], b[1], b[2], b[3]])
        })
    };
    let find = || -> Option<u16> {
        let ifd = u32_at(4)? as usize;
        let count = u16_at(ifd)? as usize;
        for i in 0..count.min(512) {
            let e = ifd + 2 + 12 * i;
            if u16_at(e)? == 0x0112 {
                let v = u16_at(e + 8)?;
                return (1..=8).contains(&v).then_some(v);
            }
        }
        None
    };
    find().unwrap_or(1)
}
