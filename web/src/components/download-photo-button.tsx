import { DownloadIcon, LoaderCircleIcon } from 'lucide-react';
import { useState } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { downloadImageUrl } from '@/lib/image';
import { toast } from '@/lib/toast';

/** The spec's messages of a photo download (docs/spec-rules.md §8). */
export const PHOTO_DOWNLOADED_MESSAGE = 'Photo downloaded!';
export const PHOTO_DOWNLOAD_FAILED_MESSAGE = 'Failed to download photo';
export const NO_PHOTO_TO_DOWNLOAD_MESSAGE = 'No photo to download';

/** The spec's file name of a photo download: `{base}-edited` or `{base}-original`, the extension from its type. */
export function photoDownloadName(base: string, edited: boolean): string {
  return `${base}-${edited ? 'edited' : 'original'}`;
}

type DownloadPhotoButtonProps = Omit<ButtonProps, 'onClick'> & {
  /** The photo: a data URL or one of our /media URLs. */
  url: string | null | undefined;
  /** The file name without extension (see photoDownloadName). */
  fileName: string;
};

/** Downloads the photo itself (not a card), with the spec's messages. */
export function DownloadPhotoButton({ url, fileName, children = 'Download Photo', disabled, ...props }: DownloadPhotoButtonProps) {
  const [busy, setBusy] = useState(false);

  async function download() {
    if (!url) {
      toast.error(NO_PHOTO_TO_DOWNLOAD_MESSAGE);
      return;
    }
    setBusy(true);
    try {
      await downloadImageUrl(url, fileName);
      toast.success(PHOTO_DOWNLOADED_MESSAGE);
    } catch {
      toast.error(PHOTO_DOWNLOAD_FAILED_MESSAGE);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="outline" {...props} disabled={busy || disabled || !url} aria-busy={busy} onClick={() => void download()}>
      {busy ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <DownloadIcon aria-hidden="true" />}
      {children}
    </Button>
  );
}
