//! Metadata stripping: EXIF, GPS and every other kind of metadata are removed
//! from an image before anything is written to storage.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits};
use prettyscore_analysis::{AnalysisError, MAX_PIXELS};

/// Stored originals keep up to this many pixels on the long side: enough for
/// a 4K screen and the editor, small enough to keep storage and edits cheap.
pub const MAX_STORED_SIDE: u32 = 4096;
const JPEG_QUALITY: u8 = 92;

/// A photo ready to store: no EXIF, GPS or other metadata.
#[derive(Debug)]
pub struct StoredImage {
    pub bytes: Vec<u8>,
    /// `jpg` or `png`.
    pub extension: &'static str,
}

/// Removes every kind of metadata from an upload. Upright JPEGs and PNGs keep
/// their pixels exactly (the metadata segments are cut out), so the saved
/// score is the score the user just saw; anything else (a rotated photo,
/// WebP, GIF, BMP) is turned upright and re-encoded as a JPEG.
///
/// Only a JPEG's primary image is kept: whatever follows its end-of-image
/// marker (the secondary images of an MPF or Ultra HDR photo, with their own
/// EXIF and GPS blocks; a Motion Photo's video, with its location) is dropped.
/// A cut-off or damaged file is refused (`CorruptImage`).
pub fn prepare_for_storage(bytes: &[u8]) -> Result<StoredImage, AnalysisError> {
    prettyscore_analysis::check_complete(bytes)?;
    let bytes = match prettyscore_analysis::jpeg_primary_len(bytes) {
        Some(end) => &bytes[..end],
        None => bytes,
    };
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| AnalysisError::NotAnImage)?;
    let Some(format) = reader.format() else {
        return Err(AnalysisError::NotAnImage);
    };
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_PIXELS * 4 + (1 << 20));
    reader.limits(limits);
    let mut decoder = reader
        .into_decoder()
        .map_err(|err| AnalysisError::CorruptImage(err.to_string()))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(AnalysisError::BadDimensions(width, height));
    }
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let upright = orientation == image::metadata::Orientation::NoTransforms;
    let lossless = match format {
        image::ImageFormat::Jpeg if upright => strip_jpeg(bytes).map(|b| (b, "jpg")),
        image::ImageFormat::Png if upright => strip_png(bytes).map(|b| (b, "png")),
        _ => None,
    };
    if let Some((bytes, extension)) = lossless {
        return Ok(StoredImage { bytes, extension });
    }

    let mut image = DynamicImage::from_decoder(decoder)
        .map_err(|err| AnalysisError::CorruptImage(err.to_string()))?;
    image.apply_orientation(orientation);
    if image.width().max(image.height()) > MAX_STORED_SIDE {
        image = image.resize(
            MAX_STORED_SIDE,
            MAX_STORED_SIDE,
            image::imageops::FilterType::Lanczos3,
        );
    }
    let rgb = image.to_rgb8();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(|err| AnalysisError::CorruptImage(err.to_string()))?;
    Ok(StoredImage {
        bytes: out,
        extension: "jpg",
    })
}

/// A JPEG with only the segments that decoding needs: of the application
/// segments, JFIF (APP0), the ICC colour profile (APP2 `ICC_PROFILE`) and
/// Adobe's colour transform (APP14) stay; EXIF and XMP (APP1), MPF's index of
/// secondary images (APP2 `MPF`), IPTC (APP13), every other APPn and comments
/// go, also those between the scans of a progressive JPEG. The image data is
/// copied byte for byte. `None` if the markers are damaged. `bytes` ends at
/// the primary image's EOI.
fn strip_jpeg(bytes: &[u8]) -> Option<Vec<u8>> {
    const APP0: u8 = 0xE0;
    const APP2: u8 = 0xE2;
    const APP14: u8 = 0xEE;
    const COM: u8 = 0xFE;
    const SOS: u8 = 0xDA;
    const EOI: u8 = 0xD9;
    let keep = |marker: u8, segment: &[u8]| match marker {
        APP0 | APP14 => true,
        APP2 => segment
            .get(4..)
            .is_some_and(|data| data.starts_with(b"ICC_PROFILE\0")),
        0xE1..=0xEF | COM => false,
        _ => true,
    };
    if bytes.get(..2)? != [0xFF, 0xD8] {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..2]);
    let mut at = 2;
    loop {
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        match marker {
            0xFF => {
                at += 1; // fill byte
                continue;
            }
            EOI => {
                out.extend_from_slice(&bytes[at..at + 2]);
                return Some(out);
            }
            // Markers without a length (TEM, restarts).
            0x01 | 0xD0..=0xD7 => {
                out.extend_from_slice(&bytes[at..at + 2]);
                at += 2;
                continue;
            }
            _ => {}
        }
        let length = usize::from(u16::from_be_bytes([
            *bytes.get(at + 2)?,
            *bytes.get(at + 3)?,
        ]));
        let end = at.checked_add(2 + length)?;
        let segment = bytes.get(at..end)?;
        if keep(marker, segment) {
            out.extend_from_slice(segment);
        }
        at = end;
        if marker == SOS {
            // The scan's entropy-coded data as it is; the next marker (another
            // table, another scan, or metadata to drop) follows it.
            let data_end = entropy_coded_end(bytes, at)?;
            out.extend_from_slice(&bytes[at..data_end]);
            at = data_end;
        }
    }
}

/// Where the entropy-coded data starting at `from` ends: at the first `0xFF`
/// that is neither a stuffed zero nor a restart marker.
fn entropy_coded_end(bytes: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let ff = from + bytes.get(from..)?.iter().position(|&b| b == 0xFF)?;
        match *bytes.get(ff + 1)? {
            0x00 | 0xD0..=0xD7 => from = ff + 2,
            0xFF => from = ff + 1, // fill bytes before a marker
            _ => return Some(ff),
        }
    }
}

/// The PNG chunks a stored photo keeps: the image itself, its transparency
/// and its colour. Everything else goes: text, time, EXIF, private and
/// unknown chunks (which may carry anything), and APNG's extra frames.
const PNG_KEPT: [&[u8; 4]; 12] = [
    b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"sBIT",
    b"cICP", b"pHYs",
];

/// A PNG with only the chunks of [`PNG_KEPT`], copied byte for byte (with
/// their CRCs). `None` if the chunks are damaged.
fn strip_png(bytes: &[u8]) -> Option<Vec<u8>> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.get(..8)? != SIGNATURE {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(SIGNATURE);
    let mut at = 8;
    while at < bytes.len() {
        let length = u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        let kind = bytes.get(at + 4..at + 8)?;
        let end = at.checked_add(12 + length)?;
        let chunk = bytes.get(at..end)?;
        if PNG_KEPT.iter().any(|kept| kept.as_slice() == kind) {
            out.extend_from_slice(chunk);
        }
        at = end;
        if kind == b"IEND" {
            break;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_rgb() -> image::RgbImage {
        image::RgbImage::from_fn(64, 32, |x, y| image::Rgb([x as u8 * 4, y as u8 * 8, 90]))
    }

    /// A PNG carrying a tEXt chunk (as cameras and editors write them).
    fn png_with_text_chunk() -> Vec<u8> {
        let mut png = Vec::new();
        sample_rgb()
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let text = b"tEXtComment\0taken at 51.5N 0.1W";
        let mut chunk = (text.len() as u32 - 4).to_be_bytes().to_vec();
        chunk.extend_from_slice(text);
        chunk.extend_from_slice(&[0, 0, 0, 0]); // CRC, not checked by the stripper
        let ihdr_end = 8 + 12 + 13;
        let mut out = png[..ihdr_end].to_vec();
        out.extend_from_slice(&chunk);
        out.extend_from_slice(&png[ihdr_end..]);
        out
    }

    /// A JPEG carrying an EXIF block with a GPS IFD and the given orientation.
    fn jpeg_with_exif(orientation: u16) -> Vec<u8> {
        let image = image::RgbImage::from_fn(60, 20, |x, _| image::Rgb([x as u8 * 4, 0, 0]));
        let mut jpeg = Vec::new();
        JpegEncoder::new_with_quality(&mut jpeg, 90)
            .encode_image(&image)
            .unwrap();
        // TIFF little-endian header, IFD0 with Orientation (0x0112) and a GPS
        // IFD pointer (0x8825) to an empty GPS IFD.
        let mut tiff: Vec<u8> = b"II*\0\x08\0\0\0".to_vec();
        tiff.extend_from_slice(&2u16.to_le_bytes());
        tiff.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0]);
        tiff.extend_from_slice(&u32::from(orientation).to_le_bytes());
        tiff.extend_from_slice(&[0x25, 0x88, 4, 0, 1, 0, 0, 0, 38, 0, 0, 0]);
        tiff.extend_from_slice(&0u32.to_le_bytes());
        tiff.extend_from_slice(&0u16.to_le_bytes());
        tiff.extend_from_slice(&0u32.to_le_bytes());
        let mut app1 = b"Exif\0\0".to_vec();
        app1.extend_from_slice(&tiff);
        let mut out = jpeg[..2].to_vec();
        out.extend_from_slice(&[0xFF, 0xE1]);
        out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
        out.extend_from_slice(&app1);
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    fn pixels(bytes: &[u8]) -> image::RgbImage {
        image::load_from_memory(bytes).unwrap().to_rgb8()
    }

    #[test]
    fn upright_jpegs_lose_their_exif_and_keep_their_pixels_exactly() {
        let original = jpeg_with_exif(1);
        assert!(
            original.windows(6).any(|w| w == b"Exif\0\0"),
            "the fixture has EXIF"
        );
        let stored = prepare_for_storage(&original).unwrap();
        assert_eq!(stored.extension, "jpg");
        assert!(
            !stored.bytes.windows(4).any(|w| w == b"Exif"),
            "EXIF removed"
        );
        assert_eq!(pixels(&stored.bytes), pixels(&original));
        assert!(stored.bytes.len() < original.len());
    }

    #[test]
    fn rotated_photos_are_turned_upright_and_re_encoded_without_exif() {
        let stored = prepare_for_storage(&jpeg_with_exif(6)).unwrap();
        assert!(
            !stored.bytes.windows(4).any(|w| w == b"Exif"),
            "EXIF removed"
        );
        let decoded = pixels(&stored.bytes);
        assert_eq!(decoded.dimensions(), (20, 60), "rotated upright");
    }

    #[test]
    fn pngs_lose_their_text_chunks_and_keep_their_pixels_exactly() {
        let original = png_with_text_chunk();
        let stored = prepare_for_storage(&original).unwrap();
        assert_eq!(stored.extension, "png");
        assert!(
            !stored.bytes.windows(4).any(|w| w == b"tEXt"),
            "text removed"
        );
        assert_eq!(pixels(&stored.bytes), sample_rgb());
    }

    /// Issue 25, item 18: metadata after the first scan (where a progressive
    /// JPEG has its other scans) was copied with the image data.
    #[test]
    fn metadata_between_and_after_the_scans_goes_too() {
        let baseline = jpeg_with_exif(1);
        let eoi = baseline.len() - 2;
        let mut exif = b"Exif\0\0MM\0*\0\0\0\x08GPSLatitude ".to_vec();
        exif.extend_from_slice(LOCATION);
        let mut comment = b"at ".to_vec();
        comment.extend_from_slice(LOCATION);
        let upload = [
            &baseline[..eoi],
            &segment(0xE1, &exif),
            &segment(0xFE, &comment),
            &baseline[eoi..],
        ]
        .concat();
        assert!(contains(&upload, LOCATION), "the fixture has a location");
        let stored = prepare_for_storage(&upload).unwrap();
        assert_eq!(stored.extension, "jpg");
        assert!(!contains(&stored.bytes, LOCATION), "the location survived");
        assert!(!contains(&stored.bytes, b"Exif"), "EXIF survived");
        assert_eq!(
            pixels(&stored.bytes),
            pixels(&baseline),
            "pixels kept exactly"
        );
    }

    #[test]
    fn metadata_between_the_scans_of_a_real_progressive_jpeg_goes() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/face/astronaut-progressive.jpg"
        );
        let progressive = std::fs::read(path).unwrap();
        // In entropy-coded data 0xFF is followed by 0x00 or a restart: FF DA
        // is always a scan's header.
        let scans: Vec<usize> = progressive
            .windows(2)
            .enumerate()
            .filter(|(_, m)| *m == [0xFF, 0xDA])
            .map(|(at, _)| at)
            .collect();
        assert!(scans.len() > 1, "a progressive JPEG has several scans");
        let mut exif = b"Exif\0\0MM\0*\0\0\0\x08GPSLatitude ".to_vec();
        exif.extend_from_slice(LOCATION);
        let third = scans[2];
        let upload = [
            &progressive[..third],
            &segment(0xE1, &exif),
            &progressive[third..],
        ]
        .concat();
        let stored = prepare_for_storage(&upload).unwrap();
        assert_eq!(stored.extension, "jpg");
        assert!(!contains(&stored.bytes, LOCATION), "the location survived");
        assert_eq!(
            stored.bytes.len(),
            progressive.len(),
            "everything else is kept"
        );
        assert_eq!(pixels(&stored.bytes), pixels(&progressive));
    }

    #[test]
    fn entropy_coded_data_ends_at_a_real_marker() {
        // Stuffed zeros and restart markers belong to the data; fill bytes
        // end it just before the marker.
        let scan = [
            0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xE1, 0x00,
        ];
        assert_eq!(entropy_coded_end(&scan, 0), Some(8));
        assert_eq!(entropy_coded_end(&[0x12, 0xFF, 0x00], 0), None);
    }

    /// Issue 25, item 18: private chunks (which can carry anything) survived.
    #[test]
    fn pngs_keep_only_their_image_and_colour_chunks() {
        let mut png = Vec::new();
        sample_rgb()
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let ihdr_end = 8 + 12 + 13;
        // PNG's CRC-32 (the decoder checks it on the chunks that are kept).
        let crc = |bytes: &[u8]| {
            let mut crc = u32::MAX;
            for &byte in bytes {
                crc ^= u32::from(byte);
                for _ in 0..8 {
                    crc = if crc & 1 == 1 {
                        (crc >> 1) ^ 0xEDB8_8320
                    } else {
                        crc >> 1
                    };
                }
            }
            !crc
        };
        let chunk = |kind: &[u8], data: &[u8]| {
            let mut out = (data.len() as u32).to_be_bytes().to_vec();
            out.extend_from_slice(kind);
            out.extend_from_slice(data);
            out.extend_from_slice(&crc(&[kind, data].concat()).to_be_bytes());
            out
        };
        let upload = [
            &png[..ihdr_end],
            &chunk(b"prIv", LOCATION),
            &chunk(b"gAMA", &45455u32.to_be_bytes()),
            &png[ihdr_end..],
        ]
        .concat();
        let stored = prepare_for_storage(&upload).unwrap();
        assert_eq!(stored.extension, "png");
        assert!(
            !contains(&stored.bytes, LOCATION),
            "the private chunk survived"
        );
        assert!(
            contains(&stored.bytes, b"gAMA"),
            "colour information is kept"
        );
        assert_eq!(pixels(&stored.bytes), sample_rgb());
    }

    #[test]
    fn other_formats_are_stored_as_jpeg() {
        let mut bmp = Vec::new();
        sample_rgb()
            .write_to(&mut Cursor::new(&mut bmp), image::ImageFormat::Bmp)
            .unwrap();
        let stored = prepare_for_storage(&bmp).unwrap();
        assert_eq!(stored.extension, "jpg");
        assert_eq!(&stored.bytes[..3], &[0xFF, 0xD8, 0xFF]);
    }

    /// A JPEG segment: marker, big-endian length, data.
    fn segment(marker: u8, data: &[u8]) -> Vec<u8> {
        let mut out = vec![0xFF, marker];
        out.extend_from_slice(&((data.len() + 2) as u16).to_be_bytes());
        out.extend_from_slice(data);
        out
    }

    /// `jpeg` with `segments` inserted after its SOI.
    fn with_segments(jpeg: &[u8], segments: &[Vec<u8>]) -> Vec<u8> {
        let mut out = jpeg[..2].to_vec();
        for s in segments {
            out.extend_from_slice(s);
        }
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    const LOCATION: &[u8] = b"48.8584N 2.2945E";

    /// The shape of an MPF / Ultra HDR photo: a primary JPEG with an MPF index
    /// (APP2) and an XMP packet, then a secondary JPEG (the gain map or a
    /// preview) with its own EXIF block carrying GPS data.
    fn multi_picture_jpeg() -> Vec<u8> {
        let primary = with_segments(
            &jpeg_with_exif(1),
            &[
                segment(0xE2, b"MPF\0MM\0*\0\0\0\x08"),
                segment(
                    0xE1,
                    b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta hdrgm:Version=\"1.0\"/>",
                ),
            ],
        );
        let mut exif = b"Exif\0\0MM\0*\0\0\0\x08GPSLatitude ".to_vec();
        exif.extend_from_slice(LOCATION);
        let secondary = with_segments(&jpeg_with_exif(1), &[segment(0xE1, &exif)]);
        [primary, secondary].concat()
    }

    /// The shape of a Motion Photo: the JPEG, then an MP4 whose metadata
    /// carries the location (the `\xa9xyz` atom).
    fn motion_photo() -> Vec<u8> {
        let mut mp4 = b"\0\0\0\x18ftypmp42\0\0\0\0isommp42".to_vec();
        mp4.extend_from_slice(b"\0\0\0\x30moov\0\0\0\x28udta\0\0\0\x20\xa9xyz\0\x12\x15\xc7+");
        mp4.extend_from_slice(LOCATION);
        mp4.extend_from_slice(b"/");
        [jpeg_with_exif(1), mp4].concat()
    }

    fn contains(haystack: &[u8], needle: &[u8]) -> bool {
        haystack.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn only_the_primary_image_is_stored_and_trailers_with_a_location_go() {
        for (shape, upload) in [
            ("MPF / Ultra HDR", multi_picture_jpeg()),
            ("Motion Photo", motion_photo()),
        ] {
            assert!(
                contains(&upload, LOCATION),
                "{shape}: the fixture has a location"
            );
            let stored = prepare_for_storage(&upload).unwrap();
            assert_eq!(stored.extension, "jpg");
            for leak in [
                LOCATION, b"Exif", b"GPS", b"MPF", b"xmpmeta", b"ftyp", b"\xa9xyz",
            ] {
                assert!(
                    !contains(&stored.bytes, leak),
                    "{shape}: {:?} survived",
                    String::from_utf8_lossy(leak)
                );
            }
            assert_eq!(
                prettyscore_analysis::jpeg_primary_len(&stored.bytes),
                Some(stored.bytes.len()),
                "{shape}: nothing after the end of the image"
            );
            assert_eq!(
                stored
                    .bytes
                    .windows(2)
                    .filter(|w| *w == [0xFF, 0xD8])
                    .count(),
                1,
                "{shape}: one image"
            );
            assert_eq!(pixels(&stored.bytes), pixels(&jpeg_with_exif(1)), "{shape}");
        }
    }

    #[test]
    fn a_rotated_photo_with_a_trailer_is_re_encoded_without_it() {
        let mut upload = jpeg_with_exif(6);
        upload.extend_from_slice(&motion_photo()[jpeg_with_exif(1).len()..]);
        let stored = prepare_for_storage(&upload).unwrap();
        assert!(!contains(&stored.bytes, LOCATION));
        assert_eq!(pixels(&stored.bytes).dimensions(), (20, 60));
    }

    #[test]
    fn cut_off_uploads_are_refused_before_anything_is_stored() {
        let whole = jpeg_with_exif(1);
        for cut in [whole.len() / 3, whole.len() - 1] {
            let err = prepare_for_storage(&whole[..cut]).unwrap_err();
            assert!(matches!(err, AnalysisError::CorruptImage(_)), "{err:?}");
        }
    }

    #[test]
    fn non_images_and_damaged_images_are_refused() {
        assert!(matches!(
            prepare_for_storage(b"hello world"),
            Err(AnalysisError::NotAnImage)
        ));
        assert_eq!(strip_jpeg(&[0xFF, 0xD8, 0xFF, 0xE1, 0xFF]), None);
        assert_eq!(strip_png(b"\x89PNG\r\n\x1a\n\0\0\0\x09IHDR"), None);
    }
}
