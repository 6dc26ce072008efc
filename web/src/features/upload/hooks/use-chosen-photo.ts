import { useCallback, useState } from 'react';
import { loadUploadedImage, saveUploadedImage, UPLOADED_IMAGE_KEY } from '../utils/uploaded-image';
import { READ_FAILED_MESSAGE, readFileAsDataUrl } from '../utils/validate-image-file';
import { validateUploadFile } from '../utils/validate-upload';

type Options = {
  /** An image handed over in navigation state (the home drop zone does this). */
  initial?: string | null;
  /** Keep the photo for this tab (the face flow does; the pet flow does not). */
  remember?: boolean;
  /** Called with the message to show when a file is refused or cannot be read. */
  onError: (message: string) => void;
};

/**
 * The photo picked on an upload page, as a data URL: checked (an image, under
 * 10 MB), read, and for the face flow kept in this tab's session storage so
 * the home drop zone and the upload page share it.
 */
export function useChosenPhoto({ initial, remember = false, onError }: Options) {
  const [image, setImage] = useState<string | null>(() => initial ?? (remember ? loadUploadedImage() : null));
  const [file, setFile] = useState<File | null>(null);
  const [reading, setReading] = useState(false);

  const choose = useCallback(
    async (picked: File | null | undefined) => {
      if (!picked) return;
      const check = validateUploadFile(picked);
      if (!check.ok) {
        onError(check.message);
        return;
      }
      setReading(true);
      try {
        const dataUrl = await readFileAsDataUrl(picked);
        setImage(dataUrl);
        setFile(picked);
        if (remember) {
          try {
            saveUploadedImage(dataUrl);
          } catch {
            // Storage full or disabled: the photo still lives in this page.
          }
        }
      } catch {
        onError(READ_FAILED_MESSAGE);
      } finally {
        setReading(false);
      }
    },
    [onError, remember],
  );

  const clear = useCallback(() => {
    setImage(null);
    setFile(null);
    if (remember) {
      try {
        sessionStorage.removeItem(UPLOADED_IMAGE_KEY);
      } catch {
        // Nothing kept, nothing to remove.
      }
    }
  }, [remember]);

  return { image, file, reading, choose, clear };
}
