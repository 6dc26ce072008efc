import { NOT_AN_IMAGE_MESSAGE } from './validate-image-file';

/** The largest photo the upload pages (and the server) accept: 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const TOO_LARGE_MESSAGE = 'File too large! Please upload an image under 10MB.';
export const NO_PHOTO_MESSAGE = 'Please upload a photo first!';
export const CAMERA_COMING_SOON_MESSAGE = 'Camera feature coming soon!';

export type UploadCheck = { ok: true } | { ok: false; message: string };

/** The upload page's rules for a picked file: an image, and under 10 MB. */
export function validateUploadFile(file: Pick<File, 'type' | 'size'> | null | undefined): UploadCheck {
  if (!file || !file.type.startsWith('image/')) return { ok: false, message: NOT_AN_IMAGE_MESSAGE };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, message: TOO_LARGE_MESSAGE };
  return { ok: true };
}

/** 'Get My Score!' needs a photo. */
export function checkPhotoChosen(image: string | null | undefined): UploadCheck {
  return image ? { ok: true } : { ok: false, message: NO_PHOTO_MESSAGE };
}

/**
 * Whether the file input's `capture` attribute opens the camera here. Only
 * mobile browsers implement it: desktop browsers keep the property off
 * HTMLInputElement, or (some Chromium builds) expose it without a camera
 * picker, so a touch-first pointer is required as well.
 */
export function supportsCameraCapture(
  win: Pick<Window, 'matchMedia'> & { HTMLInputElement?: typeof HTMLInputElement } = window,
): boolean {
  const input = win.HTMLInputElement?.prototype;
  if (!input || !('capture' in input)) return false;
  try {
    return win.matchMedia('(pointer: coarse)').matches;
  } catch {
    return false;
  }
}
