//! Is the whole image there? A check of the file's structure, before any decoder
//! runs, because decoders forgive what a cut-off upload looks like.
//!
//! jpeg-decoder and zune-jpeg both pad a truncated JPEG (baseline or progressive)
//! with grey, or with whatever the scans so far gave, and report success: a phone
//! upload dropped after a third of its bytes would be scored as a whole photo with its
//! bottom two thirds grey. zune-jpeg's strict mode catches some truncations but not
//! all (a progressive file cut between two scans decodes "fine"), and jpeg-decoder
//! has no such mode. So the container is walked instead:
//!
//! * JPEG: segment by segment from SOI, through every scan's entropy-coded data, to
//!   the EOI marker. No EOI, or a segment running past the end, is incomplete.
//! * PNG: chunk by chunk to IEND, every chunk whole.
//! * WebP: the RIFF header's size must be there, and every chunk in it whole.
//! * GIF: the trailer byte (0x3B) ends the file (data after it is ignored, as
//!   decoders do).
//!
//! Other formats (BMP) are left to their decoder, which refuses short pixel data.

/// Where the primary image of a JPEG ends: the offset just after its EOI marker.
/// `None` when the file is not a whole JPEG (no SOI, a segment cut off, no EOI).
///
/// Everything after it (an MPF or Ultra HDR secondary image, a Motion Photo's video,
/// any trailer) is not part of the primary image.
pub fn jpeg_primary_len(bytes: &[u8]) -> Option<usize> {
    const SOS: u8 = 0xDA;
    const EOI: u8 = 0xD9;
    if bytes.get(..2)? != [0xFF, 0xD8] {
        return None;
    }
    let mut at = 2;
    loop {
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        // Fill bytes before a marker.
        let mut marker_at = at + 1;
        while *bytes.get(marker_at)? == 0xFF {
            marker_at += 1;
        }
        let marker = bytes[marker_at];
        at = marker_at + 1;
        match marker {
            EOI => return Some(at),
            // Markers without a length: TEM and RST0..RST7.
            0x01 | 0xD0..=0xD7 => continue,
            0x00 => return None,
            _ => {}
        }
        let length = usize::from(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));
        if length < 2 {
            return None;
        }
        at = at.checked_add(length)?;
        if at > bytes.len() {
            return None;
        }
        if marker == SOS {
            at = end_of_entropy_coded_data(bytes, at)?;
        }
    }
}

/// The offset of the marker that ends a scan's entropy-coded data starting at `at`
/// (stuffed `FF 00` bytes, restart markers and fill bytes belong to the data).
fn end_of_entropy_coded_data(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        let ff = at + position_of_ff(bytes.get(at..)?)?;
        let mut next = ff + 1;
        while *bytes.get(next)? == 0xFF {
            next += 1;
        }
        match bytes[next] {
            0x00 | 0xD0..=0xD7 => at = next + 1,
            _ => return Some(next - 1),
        }
    }
}

/// The first `0xFF` byte of `bytes`, eight bytes at a time (a scan's entropy-coded data
/// is most of a JPEG, and an `0xFF` in it is rare).
fn position_of_ff(bytes: &[u8]) -> Option<usize> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        // A byte of `!v` is zero exactly where `v` has 0xFF (the classic has-zero-byte
        // test: no false negatives, and the byte search below confirms).
        let x = !u64::from_le_bytes(c.try_into().expect("eight bytes"));
        if x.wrapping_sub(LOW) & !x & HIGH != 0
            && let Some(i) = c.iter().position(|&b| b == 0xFF)
        {
            return Some(at + i);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == 0xFF)
        .map(|i| at + i)
}

/// Whether a PNG's chunks are all there, up to and including IEND.
fn png_is_complete(bytes: &[u8]) -> bool {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !bytes.starts_with(SIGNATURE) {
        return false;
    }
    let mut at = SIGNATURE.len();
    while let Some(header) = bytes.get(at..at + 8) {
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let Some(end) = at.checked_add(12).and_then(|n| n.checked_add(length)) else {
            return false;
        };
        if end > bytes.len() {
            return false;
        }
        if &header[4..8] == b"IEND" {
            return true;
        }
        at = end;
    }
    false
}

/// Whether a WebP's RIFF container holds every byte its header declares, in whole
/// chunks.
fn webp_is_complete(bytes: &[u8]) -> bool {
    let (Some(b"RIFF"), Some(size), Some(b"WEBP")) =
        (bytes.get(..4), bytes.get(4..8), bytes.get(8..12))
    else {
        return false;
    };
    let riff_end = 8 + u32::from_le_bytes([size[0], size[1], size[2], size[3]]) as usize;
    if riff_end > bytes.len() || riff_end < 12 {
        return false;
    }
    let mut at = 12;
    let mut chunks = 0;
    while at < riff_end {
        let Some(header) = bytes.get(at..at + 8) else {
            return false;
        };
        let length = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
        // Chunks are padded to an even length.
        let end = at + 8 + length + (length & 1);
        // The last chunk's padding byte may be missing when the RIFF size leaves it out.
        if at + 8 + length > riff_end {
            return false;
        }
        at = end;
        chunks += 1;
    }
    chunks > 0
}

/// Whether a GIF runs to its trailer: header, screen descriptor, then blocks.
fn gif_is_complete(bytes: &[u8]) -> bool {
    if bytes.len() < 13 || !(bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a")) {
        return false;
    }
    let packed = bytes[10];
    let mut at = 13;
    if packed & 0x80 != 0 {
        at += 3 << ((packed & 0x07) + 1);
    }
    // Sub-blocks: a length byte, then that many bytes, until a zero length.
    let skip_sub_blocks = |mut at: usize| -> Option<usize> {
        loop {
            let n = usize::from(*bytes.get(at)?);
            at += 1 + n;
            if n == 0 {
                return Some(at);
            }
        }
    };
    loop {
        let Some(&introducer) = bytes.get(at) else {
            return false;
        };
        let next = match introducer {
            0x3B => return true,
            // An extension: its label, then sub-blocks.
            0x21 => skip_sub_blocks(at + 2),
            // An image: descriptor, local colour table, LZW code size, sub-blocks.
            0x2C => {
                let Some(&local) = bytes.get(at + 9) else {
                    return false;
                };
                let mut data = at + 10;
                if local & 0x80 != 0 {
                    data += 3 << ((local & 0x07) + 1);
                }
                skip_sub_blocks(data + 1)
            }
            _ => return false,
        };
        match next {
            Some(next) => at = next,
            None => return false,
        }
    }
}

/// Whether the image of a known format is whole (see the module's notes); formats
/// without a check here count as whole.
pub(crate) fn is_complete(bytes: &[u8], format: image::ImageFormat) -> bool {
    match format {
        image::ImageFormat::Jpeg => jpeg_primary_len(bytes).is_some(),
        image::ImageFormat::Png => png_is_complete(bytes),
        image::ImageFormat::WebP => webp_is_complete(bytes),
        image::ImageFormat::Gif => gif_is_complete(bytes),
        _ => true,
    }
}

/// Refuses an upload that is cut off or whose structure is damaged
/// ([`crate::AnalysisError::CorruptImage`]); anything that is not an image of a
/// format we read is [`crate::AnalysisError::NotAnImage`].
pub fn check_complete(bytes: &[u8]) -> Result<(), crate::AnalysisError> {
    let format = image::guess_format(bytes).map_err(|_| crate::AnalysisError::NotAnImage)?;
    if is_complete(bytes, format) {
        Ok(())
    } else {
        Err(crate::AnalysisError::CorruptImage(format!(
            "the {format:?} file is incomplete"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg_of(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([x as u8, y as u8, 7]));
        let mut out = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 80)
            .encode_image(&img)
            .unwrap();
        out
    }

    #[test]
    fn the_ff_search_agrees_with_a_byte_scan() {
        let mut seed = 99u32;
        for len in 0..70 {
            for _ in 0..40 {
                let v: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        // Mostly high bytes (0xFE, 0x7F, 0x80 test the bit trick's edges).
                        [0xFF, 0xFE, 0x7F, 0x80, 0x00, 0x01][(seed >> 16) as usize % 6]
                    })
                    .collect();
                let naive = v.iter().position(|&b| b == 0xFF);
                assert_eq!(super::position_of_ff(&v), naive, "{v:?}");
            }
        }
    }

    #[test]
    fn a_whole_jpeg_ends_at_its_eoi_and_a_cut_one_has_no_end() {
        let jpeg = jpeg_of(40, 30);
        assert_eq!(jpeg_primary_len(&jpeg), Some(jpeg.len()));
        for cut in [3, 20, jpeg.len() / 2, jpeg.len() - 2, jpeg.len() - 1] {
            assert_eq!(jpeg_primary_len(&jpeg[..cut]), None, "cut at {cut}");
        }
    }

    #[test]
    fn what_follows_the_primary_images_eoi_is_not_part_of_it() {
        let jpeg = jpeg_of(40, 30);
        let mut with_trailer = jpeg.clone();
        with_trailer.extend_from_slice(&jpeg_of(8, 8));
        with_trailer.extend_from_slice(b"\0\0\0\x18ftypmp42 trailer");
        assert_eq!(jpeg_primary_len(&with_trailer), Some(jpeg.len()));
    }

    #[test]
    fn stuffed_bytes_restart_markers_and_fill_bytes_belong_to_the_scan() {
        // SOI, a minimal SOS segment, data with FF00, RST3, fill FFs, then EOI.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02];
        jpeg.extend_from_slice(&[0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xD9]);
        assert_eq!(jpeg_primary_len(&jpeg), Some(jpeg.len()));
        assert_eq!(jpeg_primary_len(&jpeg[..jpeg.len() - 1]), None);
    }

    #[test]
    fn pngs_webps_and_gifs_need_their_last_chunk() {
        let img = image::RgbImage::from_fn(20, 20, |x, y| image::Rgb([x as u8, y as u8, 0]));
        for format in [
            image::ImageFormat::Png,
            image::ImageFormat::WebP,
            image::ImageFormat::Gif,
        ] {
            let mut bytes = Vec::new();
            image::DynamicImage::ImageRgb8(img.clone())
                .write_to(&mut std::io::Cursor::new(&mut bytes), format)
                .unwrap();
            assert!(is_complete(&bytes, format), "{format:?} whole");
            for cut in [bytes.len() / 3, bytes.len() - 1] {
                assert!(
                    !is_complete(&bytes[..cut], format),
                    "{format:?} cut at {cut}"
                );
            }
        }
    }
}
