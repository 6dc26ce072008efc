/**
 * The working copy of a picked photo: upright, no larger than the analysis and
 * the screens need, as JPEG. A 12 MP phone photo of 3.5 MB becomes about
 * 210 KB, so the upload (nearly all of tap-to-score on a phone's uplink)
 * shrinks with it; analysis, the results screen, edits and saving all use the
 * copy. Size and quality come from measurements (web/README.md, "Phone upload
 * speed"; e2e/tests/upload-speed.spec.ts prints them): from 1024 to 1536 px,
 * at every quality from 0.8 to 0.95, the copy scored within 0.1 of the 12 MP
 * original; 2048 px moved one photo by 0.2. 1536 px is the top of that band
 * (still twice a phone screen's width for the results and the editor), and
 * at that size the quality did not move the score, so 0.85 keeps it small.
 *
 * A photo that needs no scaling is sent as it is when the server reads its
 * type and it is at most 1 MB: re-encoding alone moved the 512 px test
 * portrait by up to 0.2 (a small face has few pixels to lose), and such a
 * file uploads in well under two seconds anyway.
 */

/** The longest side of the copy, in pixels. */
export const WORKING_COPY_MAX_SIDE = 1536;
/** The JPEG quality of the copy (0..1). */
export const WORKING_COPY_QUALITY = 0.85;

/** Types the server reads as they are; a small photo of one of these may skip the copy. */
const SERVER_READS = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** The largest photo that needs no scaling and is still sent as it is. */
export const KEEP_ORIGINAL_MAX_BYTES = 1024 * 1024;

/** A decoded picture, upright. `ImageBitmap` is one. */
export type DecodedImage = { width: number; height: number; close(): void };

/** What the copy needs from the browser, as a seam so the rules below can be tested without a canvas. */
export type ImageCodec<Image extends DecodedImage = DecodedImage> = {
  /** Decodes the file with its EXIF orientation applied; rejects when the browser cannot read it. */
  decode(file: Blob): Promise<Image>;
  /** Draws the picture at width x height over white (no transparency in JPEG) and encodes it. */
  encodeJpeg(image: Image, width: number, height: number, quality: number): Promise<Blob>;
};

/** The copy's size: scaled down so the longer side is at most `maxSide`, keeping the aspect ratio; never scaled up. */
export function workingCopySize(width: number, height: number, maxSide = WORKING_COPY_MAX_SIDE) {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height, scaled: false };
  const scale = maxSide / longest;
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
    scaled: true,
  };
}

export const browserCodec: ImageCodec<ImageBitmap> = {
  decode: (file) => createImageBitmap(file, { imageOrientation: 'from-image' }),
  async encodeJpeg(image, width, height, quality) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
    // Let go of the pixels now rather than when the canvas is collected (phones are short of memory).
    canvas.width = 0;
    canvas.height = 0;
    if (!blob) throw new Error('The canvas produced no JPEG');
    return blob;
  },
};

/**
 * The photo to analyse, show, edit and save. What the browser cannot decode
 * goes as it is: the server reads more than some browsers do, and says what
 * is wrong with the rest. So does a photo that needs no scaling, of a type
 * the server reads, up to 1 MB (re-encoding would only lose detail), and any
 * photo whose copy would come out larger.
 */
export async function makeWorkingCopy<Image extends DecodedImage>(
  file: Blob,
  codec: ImageCodec<Image> = browserCodec as unknown as ImageCodec<Image>,
): Promise<Blob> {
  let image: Image;
  try {
    image = await codec.decode(file);
  } catch {
    return file;
  }
  try {
    const size = workingCopySize(image.width, image.height);
    if (!size.scaled && SERVER_READS.has(file.type) && file.size <= KEEP_ORIGINAL_MAX_BYTES) return file;
    const copy = await codec.encodeJpeg(image, size.width, size.height, WORKING_COPY_QUALITY);
    return copy.size < file.size ? copy : file;
  } catch {
    return file;
  } finally {
    image.close();
  }
}
