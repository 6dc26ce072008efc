/**
 * Small browser helpers for photos held as data URLs and for cards drawn on
 * a canvas: shared by the face and pet flows.
 */

/** Turns a `data:` URL back into the bytes and type it was read from. */
export function dataUrlToBlob(dataUrl: string): Blob {
  const match = /^data:([^;,]+)?((?:;[^;,]+)*?)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('Not a data URL');
  const type = match[1] ?? 'application/octet-stream';
  const payload = match[4] ?? '';
  if (match[3]) {
    const binary = atob(payload);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return new Blob([bytes], { type });
  }
  return new Blob([decodeURIComponent(payload)], { type });
}

/** A file name with the extension that matches an image type. */
export function imageFileName(base: string, type: string): string {
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' }[type] ?? 'img';
  return `${base}.${ext}`;
}

/** Loads an image element from a URL (a data URL here), ready to draw. */
export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The image could not be loaded'));
    image.src = src;
  });
}

export function canvasToPngBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The canvas produced no image'))), 'image/png');
  });
}

/** Saves a blob under a file name through a temporary link. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before revoking.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Draws an image into a rectangle, cropped to fill it (CSS object-fit: cover). */
export function drawImageCover(
  context: CanvasRenderingContext2D,
  image: CanvasImageSource & { width: number; height: number },
  x: number,
  y: number,
  width: number,
  height: number,
): void {
  const scale = Math.max(width / image.width, height / image.height);
  const sw = width / scale;
  const sh = height / scale;
  const sx = (image.width - sw) / 2;
  const sy = (image.height - sh) / 2;
  context.drawImage(image, sx, sy, sw, sh, x, y, width, height);
}

/** The share cards' typeface. */
export const CARD_FONT = "'Inter Variable', Inter, system-ui, sans-serif";

/**
 * Sizes a share card's canvas and paints its diagonal two-colour gradient;
 * the context is ready for the card's content (centred text).
 */
export function startCard(canvas: HTMLCanvasElement, width: number, height: number, from: string, to: string): CanvasRenderingContext2D {
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');
  const background = ctx.createLinearGradient(0, 0, width, height);
  background.addColorStop(0, from);
  background.addColorStop(1, to);
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  return ctx;
}

/** A share card's photo: cropped square, rounded corners, in a white frame 6 px wide. */
export function drawFramedPhoto(
  ctx: CanvasRenderingContext2D,
  photo: CanvasImageSource & { width: number; height: number },
  x: number,
  y: number,
  size: number,
  radius: number,
): void {
  ctx.save();
  roundedRectPath(ctx, x - 6, y - 6, size + 12, size + 12, radius + 6);
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fill();
  roundedRectPath(ctx, x, y, size, size, radius);
  ctx.clip();
  drawImageCover(ctx, photo, x, y, size, size);
  ctx.restore();
}

/** Adds a rounded rectangle to the current path. */
export function roundedRectPath(
  context: CanvasRenderingContext2D,
  x: number,
  y: number,
  width: number,
  height: number,
  radius: number,
): void {
  const r = Math.min(radius, width / 2, height / 2);
  context.beginPath();
  context.moveTo(x + r, y);
  context.arcTo(x + width, y, x + width, y + height, r);
  context.arcTo(x + width, y + height, x, y + height, r);
  context.arcTo(x, y + height, x, y, r);
  context.arcTo(x, y, x + width, y, r);
  context.closePath();
}

/** Copies text to the clipboard, with the old selection trick where the API is missing or refused. */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // Fall through to the selection trick.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('Copy failed');
}

/**
 * The photo to upload: the file the user picked, or the bytes of its data URL
 * (a photo handed over from another page), named after its type.
 * Throws when the data URL cannot be read.
 */
export function toUploadFile(file: File | Blob | null | undefined, dataUrl: string, baseName: string): File {
  const blob = file ?? dataUrlToBlob(dataUrl);
  return blob instanceof File ? blob : new File([blob], imageFileName(baseName, blob.type), { type: blob.type });
}

/**
 * The bytes of an image URL: a `data:` URL is decoded in place, anything else
 * (our own signed `/media/…` URLs) is fetched. Throws when it cannot be read.
 */
export async function imageUrlToBlob(url: string): Promise<Blob> {
  if (url.startsWith('data:')) return dataUrlToBlob(url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The image could not be fetched (${response.status})`);
  return response.blob();
}

/** Downloads an image URL as `{baseName}.{ext}` (the extension follows its type). */
export async function downloadImageUrl(url: string, baseName: string): Promise<void> {
  const blob = await imageUrlToBlob(url);
  downloadBlob(blob, imageFileName(baseName, blob.type));
}
