import { readFileAsDataUrl, READ_FAILED_MESSAGE, validateImageFile } from './validate-image-file';
import { saveUploadedImage } from './uploaded-image';
import { makeWorkingCopy } from './working-copy';

export type AcceptResult = { ok: true; dataUrl: string } | { ok: false; message: string };

/**
 * Everything the drop zone does with a file before it moves on: check the
 * type, make its working copy (see working-copy.ts), read that, keep it for
 * this tab. Returns the message to show on failure.
 */
export async function acceptImageFile(
  file: File | null | undefined,
  read: (file: Blob) => Promise<string> = readFileAsDataUrl,
  prepare: (file: File) => Promise<Blob> = makeWorkingCopy,
): Promise<AcceptResult> {
  const check = validateImageFile(file);
  if (!check.ok) return check;

  let dataUrl: string;
  try {
    dataUrl = await read(await prepare(file as File));
  } catch {
    return { ok: false, message: READ_FAILED_MESSAGE };
  }

  try {
    saveUploadedImage(dataUrl);
  } catch {
    // Storage full or disabled: the upload page still receives the image
    // through navigation state.
  }
  return { ok: true, dataUrl };
}
