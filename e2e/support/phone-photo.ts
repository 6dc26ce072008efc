/**
 * 12-megapixel "phone photos" made from the project's small test photos
 * (the 512 px astronaut portrait), for the upload-speed measurements. The
 * browser draws them:
 * - portrait: the photo scaled to cover 3024x4032 and centred (the astronaut:
 *   7.9x, its sides cropped);
 * - landscape: the photo scaled to 3024 px high, centred in a 4032x3024 frame
 *   whose sides are the same photo stretched and blurred (the astronaut: 5.9x);
 * - sideways: the portrait's pixels stored turned, 4032x3024, with EXIF
 *   Orientation 6 (rotate 90° clockwise to view), as phones store them.
 * Each gets a seeded sensor-like grain (an upscaled photo alone is far
 * smoother than a phone's) and is encoded as JPEG at quality 0.92, about 3 MB.
 */
import fs from 'node:fs';
import type { Page } from '@playwright/test';

export type PhonePhoto = {
  name: 'portrait' | 'landscape' | 'sideways';
  bytes: Buffer;
  /** The stored pixel size (before EXIF orientation). */
  stored: { width: number; height: number };
  /** The upright size. */
  upright: { width: number; height: number };
};

/** Amplitude of the grain, in 8-bit levels either side (tuned for ~3 MB at quality 0.92). */
const GRAIN = 10;

export async function makePhonePhotos(page: Page, portraitFile: string): Promise<PhonePhoto[]> {
  const source = `data:image/png;base64,${fs.readFileSync(portraitFile).toString('base64')}`;
  const encoded = await page.evaluate(
    async ([src, grain]) => {
      const image = new Image();
      image.src = src;
      await image.decode();

      // A small, fast, seeded generator: the same grain every run, so the same bytes.
      let seed = 0x2f6b1d3;
      const random = () => {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        return ((seed >>> 0) % 1000) / 1000;
      };
      const addGrain = (canvas: HTMLCanvasElement) => {
        const context = canvas.getContext('2d')!;
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
        const data = pixels.data;
        for (let i = 0; i < data.length; i += 4) {
          const n = (random() - 0.5) * 2 * grain;
          data[i] += n;
          data[i + 1] += n;
          data[i + 2] += n;
        }
        context.putImageData(pixels, 0, 0);
      };
      const canvasOf = (width: number, height: number) => {
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext('2d')!;
        context.imageSmoothingEnabled = true;
        context.imageSmoothingQuality = 'high';
        return { canvas, context };
      };
      const jpeg = (canvas: HTMLCanvasElement) =>
        new Promise<string>((resolve, reject) =>
          canvas.toBlob(
            async (blob) => {
              if (!blob) return reject(new Error('no JPEG'));
              const bytes = new Uint8Array(await blob.arrayBuffer());
              let binary = '';
              for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
              resolve(btoa(binary));
            },
            'image/jpeg',
            0.92,
          ),
        );

      const { naturalWidth: w, naturalHeight: h } = image;
      const portrait = canvasOf(3024, 4032);
      const cover = Math.max(3024 / w, 4032 / h);
      portrait.context.drawImage(image, (3024 - w * cover) / 2, (4032 - h * cover) / 2, w * cover, h * cover);
      addGrain(portrait.canvas);

      const landscape = canvasOf(4032, 3024);
      landscape.context.filter = 'blur(40px)';
      landscape.context.drawImage(image, -64, -64, 4160, 3152);
      landscape.context.filter = 'none';
      const fit = 3024 / h;
      landscape.context.drawImage(image, (4032 - w * fit) / 2, 0, w * fit, 3024);
      addGrain(landscape.canvas);

      // Stored turned 90° anticlockwise; Orientation 6 turns it back.
      const sideways = canvasOf(4032, 3024);
      sideways.context.translate(0, 3024);
      sideways.context.rotate(-Math.PI / 2);
      sideways.context.drawImage(portrait.canvas, 0, 0);

      return { portrait: await jpeg(portrait.canvas), landscape: await jpeg(landscape.canvas), sideways: await jpeg(sideways.canvas) };
    },
    [source, GRAIN] as const,
  );
  return [
    { name: 'portrait', bytes: Buffer.from(encoded.portrait, 'base64'), stored: { width: 3024, height: 4032 }, upright: { width: 3024, height: 4032 } },
    { name: 'landscape', bytes: Buffer.from(encoded.landscape, 'base64'), stored: { width: 4032, height: 3024 }, upright: { width: 4032, height: 3024 } },
    {
      name: 'sideways',
      bytes: withExifOrientation(Buffer.from(encoded.sideways, 'base64'), 6),
      stored: { width: 4032, height: 3024 },
      upright: { width: 3024, height: 4032 },
    },
  ];
}

/**
 * JPEG copies of a photo made the way the app makes its working copy
 * (web/src/features/upload/utils/working-copy.ts: decoded upright, scaled with
 * high-quality smoothing over white), at each longest side (0: the photo's own
 * size) and quality.
 */
export async function jpegCopies(page: Page, photo: Buffer, type: string, sides: number[], qualities: number[]) {
  const copies = await page.evaluate(
    async ([base64, mime, sizes, levels]) => {
      const source = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: mime });
      const bitmap = await createImageBitmap(source, { imageOrientation: 'from-image' });
      const out: { side: number; quality: number; base64: string }[] = [];
      for (const side of sizes) {
        const scale = side ? Math.min(1, side / Math.max(bitmap.width, bitmap.height)) : 1;
        const canvas = document.createElement('canvas');
        canvas.width = Math.round(bitmap.width * scale);
        canvas.height = Math.round(bitmap.height * scale);
        const context = canvas.getContext('2d')!;
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, canvas.width, canvas.height);
        context.imageSmoothingEnabled = true;
        context.imageSmoothingQuality = 'high';
        context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        for (const quality of levels) {
          const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', quality));
          const dataUrl = await new Promise<string>((resolve) => {
            const reader = new FileReader();
            reader.onload = () => resolve(reader.result as string);
            reader.readAsDataURL(blob);
          });
          out.push({ side, quality, base64: dataUrl.slice(dataUrl.indexOf(',') + 1) });
        }
      }
      bitmap.close();
      return out;
    },
    [photo.toString('base64'), type, sides, qualities] as const,
  );
  return copies.map(({ side, quality, base64 }) => ({ side, quality, bytes: Buffer.from(base64, 'base64') }));
}

/** A JPEG with an EXIF APP1 segment holding only the Orientation tag, right after SOI. */
export function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18); // the value, left-justified in 4 bytes
  tiff.writeUInt32BE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** The pixel size in a JPEG's first SOF marker (what is stored, before any EXIF orientation). */
export function jpegSize(jpeg: Buffer): { width: number; height: number } {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) throw new Error(`no marker at ${at}`);
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  throw new Error('no SOF marker');
}

/** Whether a JPEG carries an EXIF APP1 segment. */
export function hasExif(jpeg: Buffer): boolean {
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]!;
    if (marker === 0xda) return false; // start of scan: no more headers
    if (marker === 0xe1 && jpeg.subarray(at + 4, at + 8).toString('latin1') === 'Exif') return true;
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return false;
}

/**
 * Records the image of every analysis upload the page makes (Chromium does
 * not hand a file upload's body to Playwright). Call before the first goto.
 */
export async function recordAnalysisUploads(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { analysisUploads: Promise<string>[] };
    w.analysisUploads = [];
    const send = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && new URL(request.url).pathname.startsWith('/api/v1/analyses/')) {
        w.analysisUploads.push(
          request
            .clone()
            .formData()
            .then(async (form) => {
              const bytes = new Uint8Array(await (form.get('image') as Blob).arrayBuffer());
              let binary = '';
              for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
              return btoa(binary);
            }),
        );
      }
      return send(request);
    };
  });
}

/** The image of the page's latest analysis upload (see recordAnalysisUploads). */
export async function lastAnalysisUpload(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const uploads = (window as unknown as { analysisUploads: Promise<string>[] }).analysisUploads;
    return uploads.length ? uploads[uploads.length - 1]! : null;
  });
  if (!base64) throw new Error('the page made no analysis upload');
  return Buffer.from(base64, 'base64');
}
