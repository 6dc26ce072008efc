import { useCallback, useRef, useState } from 'react';
import { loadUploadedImage, saveUploadedImage, UPLOADED_IMAGE_KEY } from '../utils/uploaded-image';
import { READ_FAILED_MESSAGE, readFileAsDataUrl } from '../utils/validate-image-file';
import { FACE_UPLOAD_MESSAGES, validateUploadFile, type UploadMessages } from '../utils/validate-upload';
import { makeWorkingCopy } from '../utils/working-copy';

type Options = {
  /** An image handed over in navigation state (the home drop zone does this). */
  initial?: string | null;
  /** Keep the photo for this tab (the face flow does; the pet flow does not). */
  remember?: boolean;
  /** Called with the message to show when a file is refused or cannot be read. */
  onError: (message: string) => void;
  /** Makes the working copy (tests pass their own; the browser's canvas otherwise). */
  prepare?: (file: File) => Promise<Blob>;
  /** The page's words for a refused file. */
  messages?: UploadMessages;
};

/**
 * The photo picked on an upload page: checked (an image, under 10 MB), turned
 * into its working copy (upright, at most 1536 px, JPEG: see working-copy.ts),
 * read as a data URL, and for the face flow kept in this tab's session storage
 * so the home drop zone and the upload page share it. `file` is the copy that
 * goes to the server.
 */
export function useChosenPhoto({ initial, remember = false, onError, prepare = makeWorkingCopy, messages = FACE_UPLOAD_MESSAGES }: Options) {
  const [image, setImage] = useState<string | null>(() => initial ?? (remember ? loadUploadedImage() : null));
  const [file, setFile] = useState<Blob | null>(null);
  const [reading, setReading] = useState(false);
  // A photo picked while the last one is still being prepared wins.
  const latest = useRef(0);

  const choose = useCallback(
    async (picked: File | null | undefined) => {
      if (!picked) return;
      const check = validateUploadFile(picked, messages);
      if (!check.ok) {
        onError(check.message);
        return;
      }
      const pick = ++latest.current;
      setReading(true);
      try {
        const copy = await prepare(picked);
        const dataUrl = await readFileAsDataUrl(copy);
        if (pick !== latest.current) return;
        setImage(dataUrl);
        setFile(copy);
        if (remember) {
          try {
            saveUploadedImage(dataUrl);
          } catch {
            // Storage full or disabled: the photo still lives in this page.
          }
        }
      } catch {
        if (pick === latest.current) onError(READ_FAILED_MESSAGE);
      } finally {
        if (pick === latest.current) setReading(false);
      }
    },
    [onError, prepare, remember, messages],
  );

  const clear = useCallback(() => {
    latest.current += 1;
    setReading(false);
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
