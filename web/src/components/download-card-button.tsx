import { DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { canvasToPngBlob, downloadBlob } from '@/lib/image';
import { toast } from '@/lib/toast';

export const CARD_DOWNLOADED_MESSAGE = 'Result card downloaded!';
export const CARD_DOWNLOAD_FAILED_MESSAGE = 'Failed to download. Please try again.';

type DownloadCardButtonProps = Omit<ButtonProps, 'onClick'> & {
  fileName: string;
  /** Draws the card onto a fresh canvas. */
  draw: (canvas: HTMLCanvasElement) => Promise<void> | void;
  label?: string;
};

/** Draws a card on a canvas and downloads it as a PNG. */
export function DownloadCardButton({ fileName, draw, label = 'Download Result Card', ...props }: DownloadCardButtonProps) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const canvas = document.createElement('canvas');
      await document.fonts?.ready;
      await draw(canvas);
      downloadBlob(await canvasToPngBlob(canvas), fileName);
      toast.success(CARD_DOWNLOADED_MESSAGE);
    } catch {
      toast.error(CARD_DOWNLOAD_FAILED_MESSAGE);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="outline" {...props} disabled={busy || props.disabled} onClick={() => void download()}>
      <DownloadIcon aria-hidden="true" />
      {label}
    </Button>
  );
}
