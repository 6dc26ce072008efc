export const NOT_AN_IMAGE_MESSAGE = 'Please upload an image file';
export const READ_FAILED_MESSAGE = 'Failed to read image file';

export type ImageFileCheck = { ok: true } | { ok: false; message: string };

/** The home drop zone's rule: the file's type must start with `image/`. */
export function validateImageFile(file: Pick<File, 'type'> | null | undefined): ImageFileCheck {
  if (!file || !file.type.startsWith('image/')) return { ok: false, message: NOT_AN_IMAGE_MESSAGE };
  return { ok: true };
}

/** Reads a file into a data URL; rejects if the browser cannot read it. */
export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') resolve(reader.result);
      else reject(new Error('FileReader returned no data URL'));
    };
    reader.onerror = () => reject(reader.error ?? new Error('FileReader failed'));
    reader.onabort = () => reject(new Error('FileReader aborted'));
    reader.readAsDataURL(file);
  });
}
