/**
 * The photo chosen on the home page, kept as a data URL for the current tab
 * only (sessionStorage), where the upload page picks it up.
 */
export const UPLOADED_IMAGE_KEY = 'prettyscore:uploadedImage';

export function saveUploadedImage(dataUrl: string): void {
  sessionStorage.setItem(UPLOADED_IMAGE_KEY, dataUrl);
}

export function loadUploadedImage(): string | null {
  try {
    return sessionStorage.getItem(UPLOADED_IMAGE_KEY);
  } catch {
    return null;
  }
}
