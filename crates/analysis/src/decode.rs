//! Decoding with bounded memory: size and dimension checks before any pixel buffer is
//! allocated, EXIF orientation applied, JPEGs decoded at reduced scale (DCT scaling, by
//! libjpeg-turbo) because the analysis never needs more than about a megapixel.

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
    // The working size: libjpeg-turbo decodes straight to 1/2, 1/4 or 1/8 of the size from
    // the DCT coefficients, the largest of those reductions whose long side still reaches
    // WORKING_SIDE (the same grid as the full-size decode halved until it is under
    // 2 x WORKING_SIDE gave before: a 1080p photo is 960x540, a 12 MP one 1000x750).
    // Photos that need every pixel (under 2 x WORKING_SIDE) stay with zune-jpeg below:
    // libjpeg-turbo saves nothing there, and its chroma upsampling rounds differently.
    let reduce = reduction(long);
    if size == Size::Working
        && reduce > 1
        && info.pixel_format != jpeg_decoder::PixelFormat::CMYK32
        && let Some(img) = decode_jpeg_scaled(bytes, (w, h), reduce)
    {
        return Ok((img, orientation, (w, h)));
    }
    // Full size, CMYK, or whatever libjpeg-turbo refused: as before. Up to a DCT scale of
    // 1/2, a full-size decode by zune-jpeg plus one 2x2 reduction is faster than
    // jpeg-decoder's scaled decode (1080p: about 7.5 vs 12 ms); from 1/4 on, skipping the
    // IDCT and colour conversion of 3/4 of the pixels wins.
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

/// The DCT reduction (1, 2, 4 or 8) for a photo whose long side is `long`: the largest
/// whose reduced long side is still at least [`WORKING_SIDE`].
fn reduction(long: u32) -> u32 {
    [8, 4, 2]
        .into_iter()
        .find(|&d| long >= d * WORKING_SIDE)
        .unwrap_or(1)
}

/// A decode by libjpeg-turbo (as vendored by `mozjpeg-sys`, built from source) reduced
/// `reduction` times in each direction while decoding: the reduced inverse DCTs (4x4,
/// 2x2, 1x1 outputs per block, or a full 8x8 one for chroma that was subsampled) give
/// the pixels straight at the reduced size, so 3/4 (or more) of the inverse transform,
/// chroma upsampling and colour conversion is never done. `None` when libjpeg-turbo
/// refuses the file or reads another size from its header than the one checked (the
/// caller then decodes as before).
///
/// Determinism: the accurate integer inverse DCT (JDCT_ISLOW, libjpeg's default, set
/// explicitly), integer upsampling and colour conversion. libjpeg-turbo picks SSE2, AVX2
/// (x86-64) or NEON code at run time; each is an exact translation of the C code, and
/// `tests::scaled_decodes_agree_with_and_without_simd` decodes with every level this
/// machine has against the plain C code, byte for byte.
fn decode_jpeg_scaled(bytes: &[u8], (w, h): (u32, u32), reduction: u32) -> Option<Rgb> {
    // libjpeg reports a fatal error by unwinding out of its error handler (the mozjpeg
    // crate's `error_exit`, which does not call the panic hook); warnings (corrupt data it
    // can go on from) are silenced, as zune-jpeg and jpeg-decoder go on from them too.
    std::panic::catch_unwind(|| {
        let mut dec = mozjpeg::Decompress::builder().from_mem(bytes).ok()?;
        if dec.size() != (w as usize, h as usize) {
            return None;
        }
        dec.dct_method(mozjpeg::DctMethod::IntegerSlow);
        dec.do_fancy_upsampling(true);
        dec.scale((8 / reduction) as u8);
        let mut dec = dec.rgb().ok()?;
        let (dw, dh) = (dec.width(), dec.height());
        if (dw, dh)
            != (
                w.div_ceil(reduction) as usize,
                h.div_ceil(reduction) as usize,
            )
        {
            return None;
        }
        let pixels: Vec<u8> = dec.read_scanlines().ok()?;
        // The rest of the file (markers after the image) is not read: the completeness
        // check has already seen its end.
        (pixels.len() == dw * dh * 3).then(|| Rgb::new(dw, dh, pixels))
    })
    .ok()
    .flatten()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Stands in, in this test binary only, for libjpeg-turbo's `jpeg_simd_cpu_support`
    /// (its `jsimdcpu.asm`, which reads CPUID), so that a test can choose the SIMD level.
    /// libjpeg-turbo asks once per thread (its `simd_support` is thread-local), so each
    /// level is decoded on a fresh thread. The test's own object files come before the
    /// library's archive when linking, so the archive's version is never pulled in.
    #[cfg(target_arch = "x86_64")]
    mod simd_switch {
        use std::cell::Cell;
        use std::sync::atomic::{AtomicBool, Ordering};

        pub const NONE: u32 = 0;
        /// JSIMD_SSE | JSIMD_SSE2: what every x86-64 processor has.
        pub const SSE2: u32 = 0x04 | 0x08;
        /// ... | JSIMD_AVX2.
        pub const AVX2: u32 = SSE2 | 0x80;

        thread_local! {
            pub static LEVEL: Cell<u32> = const { Cell::new(NONE) };
        }
        /// Whether libjpeg-turbo asked at all (it does not when built without its SIMD
        /// code, that is without nasm).
        pub static ASKED: AtomicBool = AtomicBool::new(false);

        #[unsafe(no_mangle)]
        pub extern "C" fn jpeg_simd_cpu_support() -> u32 {
            ASKED.store(true, Ordering::SeqCst);
            LEVEL.with(|l| l.get())
        }
    }

    fn testdata(rel: &str) -> Vec<u8> {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata")
            .join(rel);
        std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// The test JPEGs as they are, and the astronaut re-encoded by libjpeg-turbo with
    /// every chroma subsampling, baseline and progressive, grey, and at an odd size
    /// (partial blocks at the right and bottom edges).
    fn sample_jpegs() -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = [
            "face/astronaut-baseline.jpg",
            "face/astronaut-progressive.jpg",
            "noface/rocket.jpg",
            "portraits/aksel-andersson.jpg",
            "portraits/grace-hopper.jpg",
            "portraits/ew-dahlgren.jpg",
        ]
        .iter()
        .map(|f| (f.to_string(), testdata(f)))
        .collect();
        let png = image::load_from_memory(&testdata("face/astronaut.png"))
            .unwrap()
            .into_rgb8();
        let (pw, ph) = (png.width() as usize, png.height() as usize);
        // An odd-sized crop, 2 px in from the top left.
        let (cw, ch) = (pw - 13, ph - 7);
        let crop: Vec<u8> = (0..ch)
            .flat_map(|y| png.as_raw()[((y + 2) * pw + 2) * 3..][..cw * 3].to_vec())
            .collect();
        let encode = |w: usize, h: usize, px: &[u8], grey: bool, sub: (u8, u8), prog: bool| {
            let space = if grey {
                mozjpeg::ColorSpace::JCS_GRAYSCALE
            } else {
                mozjpeg::ColorSpace::JCS_RGB
            };
            let mut c = mozjpeg::Compress::new(space);
            c.set_size(w, h);
            c.set_quality(88.0);
            if !grey {
                c.set_chroma_sampling_pixel_sizes(sub, sub);
            }
            if prog {
                c.set_progressive_mode();
            }
            let mut c = c.start_compress(Vec::new()).unwrap();
            c.write_scanlines(px).unwrap();
            c.finish().unwrap()
        };
        let grey: Vec<u8> = crop.chunks_exact(3).map(|p| p[1]).collect();
        for (sub, name) in [((1, 1), "444"), ((2, 1), "422"), ((2, 2), "420")] {
            for prog in [false, true] {
                out.push((
                    format!("astronaut {name} progressive={prog}"),
                    encode(pw, ph, png.as_raw(), false, sub, prog),
                ));
            }
            out.push((
                format!("odd crop {cw}x{ch} {name}"),
                encode(cw, ch, &crop, false, sub, false),
            ));
        }
        out.push((
            "odd crop grey".into(),
            encode(cw, ch, &grey, true, (1, 1), false),
        ));
        out
    }

    fn size_of(jpeg: &[u8]) -> (u32, u32) {
        let (w, h) = mozjpeg::Decompress::new_mem(jpeg).unwrap().size();
        (w as u32, h as u32)
    }

    /// Every sample at every reduction, decoded on a fresh thread at the given SIMD level.
    #[cfg(target_arch = "x86_64")]
    fn decode_all_at(level: u32, samples: &[(String, Vec<u8>)]) -> Vec<Vec<u8>> {
        std::thread::scope(|s| {
            s.spawn(|| {
                simd_switch::LEVEL.with(|l| l.set(level));
                let mut out = Vec::new();
                for (name, jpeg) in samples {
                    for reduction in [1, 2, 4, 8] {
                        let img = decode_jpeg_scaled(jpeg, size_of(jpeg), reduction)
                            .unwrap_or_else(|| panic!("{name} at 1/{reduction} did not decode"));
                        out.push(img.data);
                    }
                }
                out
            })
            .join()
            .unwrap()
        })
    }

    /// The proof that the scaled decode is the same on every CPU: libjpeg-turbo's
    /// SSE2 and AVX2 code give the very bytes its plain C code gives, at every reduction,
    /// for every chroma subsampling, baseline and progressive, colour and grey.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn scaled_decodes_agree_with_and_without_simd() {
        use std::sync::atomic::Ordering;
        let samples = sample_jpegs();
        let plain = decode_all_at(simd_switch::NONE, &samples);
        assert!(
            simd_switch::ASKED.load(Ordering::SeqCst),
            "libjpeg-turbo never asked for the CPU's SIMD support: mozjpeg-sys was built \
             without its SIMD code (install nasm, as scripts/test.sh does, and rebuild it)"
        );
        let mut levels = vec![("SSE2", simd_switch::SSE2)];
        if std::is_x86_feature_detected!("avx2") {
            levels.push(("AVX2", simd_switch::AVX2));
        }
        for (level_name, level) in levels {
            let simd = decode_all_at(level, &samples);
            for (i, (a, b)) in plain.iter().zip(&simd).enumerate() {
                let (name, reduction) = (&samples[i / 4].0, 1 << (i % 4));
                assert!(
                    a == b,
                    "{name} at 1/{reduction}: {level_name} differs from plain C"
                );
            }
        }
    }

    #[test]
    fn the_reduction_keeps_the_long_side_at_the_working_side_or_more() {
        assert_eq!(reduction(1919), 1);
        assert_eq!(reduction(1920), 2);
        assert_eq!(reduction(3839), 2);
        assert_eq!(reduction(4000), 4);
        assert_eq!(reduction(7680), 8);
        assert_eq!(reduction(20_000), 8);
        for long in (16..20_000).step_by(7) {
            let d = reduction(long);
            assert!(long.div_ceil(d) >= WORKING_SIDE.min(long));
            assert!(d == 8 || long < 2 * d * WORKING_SIDE);
        }
    }

    /// A 1080p JPEG decodes to the same 960x540 grid as before (a full-size decode
    /// halved), upright and with the same size reported.
    #[test]
    fn a_1080p_jpeg_is_decoded_at_half_size() {
        let png = image::load_from_memory(&testdata("face/astronaut.png")).unwrap();
        let big = png.resize_exact(1920, 1080, image::imageops::FilterType::Triangle);
        let mut jpeg = Vec::new();
        big.to_rgb8()
            .write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
            .unwrap();
        let d = decode(&jpeg).unwrap();
        assert_eq!((d.image.w, d.image.h), (960, 540));
        assert_eq!(d.original_size, (1920, 1080));
    }
}
