import { canvasToPngBlob, downloadBlob, imageUrlToBlob, loadImage } from '@/lib/image';

/** The long side of 4K, the largest HD download. */
export const HD_LONG_SIDE = 3840;

/** The size of the HD version: twice the photo, at most 4K on the long side, never smaller. */
export function hdSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.max(1, Math.min(2, HD_LONG_SIDE / Math.max(width, height, 1)));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/**
 * 'Download HD Version': the image resampled with the browser's high-quality
 * smoothing to twice its size (at most 4K) and saved as a lossless PNG. It
 * adds pixels, not detail: the 'Upscale to 4K' preset runs the server's
 * upscaler with sharpening for that.
 */
export async function downloadHdVersion(url: string, baseName: string): Promise<void> {
  const blob = await imageUrlToBlob(url);
  const objectUrl = URL.createObjectURL(blob);
  try {
    const image = await loadImage(objectUrl);
    const size = hdSize(image.naturalWidth, image.naturalHeight);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No canvas');
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, size.width, size.height);
    downloadBlob(await canvasToPngBlob(canvas), `${baseName}-hd.png`);
  } finally {
    URL.revokeObjectURL(objectUrl);
  }
}
