import { NOT_AN_IMAGE_MESSAGE } from './validate-image-file';

/** The largest photo the upload pages (and the server) accept: 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const TOO_LARGE_MESSAGE = 'File too large! Please upload an image under 10MB.';
export const NO_PHOTO_MESSAGE = 'Please upload a photo first!';
export const CAMERA_COMING_SOON_MESSAGE = 'Camera feature coming soon!';

export type UploadCheck = { ok: true } | { ok: false; message: string };

/** An upload page's own words for its refusals (feet and hands use the spec's other wording). */
export type UploadMessages = { tooLarge: string; noPhoto: string };
export const FACE_UPLOAD_MESSAGES: UploadMessages = { tooLarge: TOO_LARGE_MESSAGE, noPhoto: NO_PHOTO_MESSAGE };
/** The spec's words on the feet and hands upload pages (docs/spec-rules.md §5). */
export const FEET_HANDS_UPLOAD_MESSAGES: UploadMessages = {
  tooLarge: 'File size must be less than 10MB',
  noPhoto: 'Please upload a photo first',
};

/** The upload page's rules for a picked file: an image, and under 10 MB. */
export function validateUploadFile(
  file: Pick<File, 'type' | 'size'> | null | undefined,
  messages: UploadMessages = FACE_UPLOAD_MESSAGES,
): UploadCheck {
  if (!file || !file.type.startsWith('image/')) return { ok: false, message: NOT_AN_IMAGE_MESSAGE };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, message: messages.tooLarge };
  return { ok: true };
}

/** 'Get My Score!' needs a photo. */
export function checkPhotoChosen(image: string | null | undefined, messages: UploadMessages = FACE_UPLOAD_MESSAGES): UploadCheck {
  return image ? { ok: true } : { ok: false, message: messages.noPhoto };
}

/**
 * Whether the file input's `capture` attribute opens the camera here: only
 * phone and tablet browsers implement it. Desktop browsers either lack the
 * property on HTMLInputElement or ignore it, so a touch-first pointer is
 * required, plus the property or a phone/tablet user agent (some mobile
 * browsers honour the attribute without exposing the property).
 */
export function supportsCameraCapture(
  win: Pick<Window, 'matchMedia'> & {
    HTMLInputElement?: typeof HTMLInputElement;
    navigator?: Pick<Navigator, 'userAgent' | 'maxTouchPoints'>;
  } = window,
): boolean {
  let coarse: boolean;
  try {
    coarse = win.matchMedia('(pointer: coarse)').matches;
  } catch {
    return false;
  }
  if (!coarse) return false;
  const input = win.HTMLInputElement?.prototype;
  if (input && 'capture' in input) return true;
  const agent = win.navigator?.userAgent ?? '';
  const iPadAsMac = /Macintosh/.test(agent) && (win.navigator?.maxTouchPoints ?? 0) > 1;
  return /Android|iPhone|iPad|iPod/i.test(agent) || iPadAsMac;
}
