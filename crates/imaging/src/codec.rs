//! Decoding uploads into an upright working image, and encoding results.
//!
//! Sizes are checked from the header before any pixel buffer is allocated (a small
//! file can declare a gigapixel image), the declared area is capped at
//! [`MAX_PIXELS`], and whatever is decoded is reduced to [`MAX_LONG_SIDE`] at once, so
//! no operation ever sees more than 3840 x 3840 pixels. Large JPEGs are decoded at a
//! reduced DCT scale when that still leaves at least 3840 pixels on the long side.

use crate::raster::RgbImage;
use crate::resample;
use crate::{EditError, Edited, MAX_LONG_SIDE};
use prettyscore_analysis::{MAX_PIXELS, MAX_UPLOAD_BYTES, exif_orientation, jpeg_pixels_to_rgb};
use std::io::Cursor;

/// Largest accepted width or height (the analysis crate's limit too).
const MAX_SIDE: u32 = 20_000;
/// JPEG quality of every result: visually lossless for photos at a third of the size
/// of quality 100.
pub const JPEG_QUALITY: u8 = 90;

fn check_dims(w: u32, h: u32) -> Result<(), EditError> {
    if w == 0 || h == 0 {
        return Err(EditError::Corrupt);
    }
    if w > MAX_SIDE || h > MAX_SIDE || w as u64 * h as u64 > MAX_PIXELS {
        return Err(EditError::BadDimensions);
    }
    Ok(())
}

/// Decode an upload to an upright RGB image of at most [`MAX_LONG_SIDE`] on its long
/// side.
pub fn decode(bytes: &[u8]) -> Result<RgbImage, EditError> {
    if bytes.len() > MAX_UPLOAD_BYTES {
        return Err(EditError::TooLarge);
    }
    let format = image::guess_format(bytes).map_err(|_| EditError::NotAnImage)?;
    // Decoders pad a cut-off file with grey: refuse it before they get the chance.
    if prettyscore_analysis::check_complete(bytes).is_err() {
        return Err(EditError::Corrupt);
    }
    let (img, orientation) = match format {
        image::ImageFormat::Jpeg => decode_jpeg(bytes)?,
        image::ImageFormat::Png
        | image::ImageFormat::WebP
        | image::ImageFormat::Gif
        | image::ImageFormat::Bmp => decode_other(bytes, format)?,
        _ => return Err(EditError::NotAnImage),
    };
    let img = fit_long_side(img, MAX_LONG_SIDE);
    Ok(oriented(img, orientation))
}

/// `img` reduced (never enlarged) so that its long side is at most `max`.
pub fn fit_long_side(img: RgbImage, max: u32) -> RgbImage {
    let long = img.width().max(img.height());
    if long <= max {
        return img;
    }
    let (w, h) = resample::scaled_dims(img.width(), img.height(), max as f64 / long as f64);
    resample::resize(&img, w.min(max), h.min(max))
}

fn decode_jpeg(bytes: &[u8]) -> Result<(RgbImage, u16), EditError> {
    let mut dec = jpeg_decoder::Decoder::new(Cursor::new(bytes));
    dec.read_info().map_err(|_| EditError::Corrupt)?;
    let info = dec.info().ok_or(EditError::Corrupt)?;
    let (w, h) = (info.width as u32, info.height as u32);
    check_dims(w, h)?;
    let orientation = dec.exif_data().map(exif_orientation).unwrap_or(1);
    // DCT scaling (1/2, 1/4, 1/8) only while the long side stays >= MAX_LONG_SIDE, so
    // the final reduction is still done by the quality resampler.
    let long = w.max(h);
    if long >= 2 * MAX_LONG_SIDE {
        let rw = (w as u64 * MAX_LONG_SIDE as u64).div_ceil(long as u64) as u16;
        let rh = (h as u64 * MAX_LONG_SIDE as u64).div_ceil(long as u64) as u16;
        dec.scale(rw, rh).map_err(|_| EditError::Corrupt)?;
    }
    // Bounded even if a header lies: 4 bytes a pixel at the checked size.
    dec.set_max_decoding_buffer_size((MAX_PIXELS * 4) as usize);
    let pixels = dec.decode().map_err(|_| EditError::Corrupt)?;
    let info = dec.info().ok_or(EditError::Corrupt)?;
    let (dw, dh) = (info.width as u32, info.height as u32);
    let rgb = jpeg_pixels_to_rgb(pixels, info.pixel_format);
    let img = RgbImage::from_raw(dw, dh, rgb).ok_or(EditError::Corrupt)?;
    Ok((img, orientation))
}

fn decode_other(bytes: &[u8], format: image::ImageFormat) -> Result<(RgbImage, u16), EditError> {
    use image::ImageDecoder;
    let map = |e: image::ImageError| match e {
        image::ImageError::Limits(_) => EditError::BadDimensions,
        image::ImageError::Unsupported(_) => EditError::NotAnImage,
        _ => EditError::Corrupt,
    };
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // 8-bit RGBA at the pixel cap, plus room for the decoders' own buffers. A 16-bit
    // photo of more than about 25 MP is refused as too large: it would need twice this.
    limits.max_alloc = Some(MAX_PIXELS * 4 + 16 * 1024 * 1024);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(map)?;
    let (w, h) = decoder.dimensions();
    check_dims(w, h)?;
    let orientation = decoder.orientation().map(orientation_code).unwrap_or(1);
    let img = image::DynamicImage::from_decoder(decoder).map_err(map)?;
    let rgb = if img.color().has_alpha() {
        over_white(img.into_rgba8())
    } else {
        img.into_rgb8()
    };
    Ok((rgb, orientation))
}

/// Transparent pixels composited over white: a JPEG has no alpha, and the colour
/// stored under a fully transparent pixel is often black.
fn over_white(rgba: image::RgbaImage) -> RgbImage {
    let (w, h) = rgba.dimensions();
    let raw: Vec<u8> = rgba
        .into_raw()
        .chunks_exact(4)
        .flat_map(|p| {
            let a = p[3] as u32;
            let mix = |c: u8| ((c as u32 * a + 255 * (255 - a) + 127) / 255) as u8;
            [mix(p[0]), mix(p[1]), mix(p[2])]
        })
        .collect();
    RgbImage::from_raw(w, h, raw).expect("same size")
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

/// The image turned upright according to an EXIF orientation code (1..=8).
fn oriented(img: RgbImage, orientation: u16) -> RgbImage {
    use image::imageops;
    match orientation {
        2 => imageops::flip_horizontal(&img),
        3 => imageops::rotate180(&img),
        4 => imageops::flip_vertical(&img),
        5 => imageops::flip_horizontal(&imageops::rotate90(&img)),
        6 => imageops::rotate90(&img),
        7 => imageops::flip_horizontal(&imageops::rotate270(&img)),
        8 => imageops::rotate270(&img),
        _ => img,
    }
}

/// Baseline JPEG at [`JPEG_QUALITY`], no metadata (the encoder writes only a JFIF
/// header), so nothing of the upload's EXIF or GPS data survives an edit.
pub fn encode(img: &RgbImage) -> Edited {
    let mut jpeg = Vec::new();
    let mut enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY);
    enc.encode(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgb8,
    )
    .expect("encoding an in-memory RGB image into a Vec cannot fail");
    Edited {
        jpeg,
        width: img.width(),
        height: img.height(),
    }
}
