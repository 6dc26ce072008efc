import { ImageUpIcon, LoaderCircleIcon } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useFileDrop } from '@/features/upload/hooks/use-file-drop';
import { acceptImageFile } from '@/features/upload/utils/accept-image-file';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';

/** Pick or drop a photo; a valid one is kept for this tab and opens the upload page. */
export function UploadDropZone({ className }: { className?: string }) {
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [busy, setBusy] = useState(false);

  async function handleFile(file: File | null | undefined) {
    setBusy(true);
    const result = await acceptImageFile(file);
    setBusy(false);
    if (inputRef.current) inputRef.current.value = '';
    if (!result.ok) {
      toast.error(result.message);
      return;
    }
    await navigate(paths.upload.path, { state: { image: result.dataUrl } });
  }

  const { dragging, handlers: dropHandlers } = useFileDrop((file) => void handleFile(file));

  return (
    <div
      className={cn(
        'group relative rounded-3xl border-2 border-dashed bg-white/90 p-1 shadow-xl shadow-brand-600/10 transition-colors',
        dragging ? 'border-brand-600 bg-brand-50' : 'border-brand-500/50 hover:border-brand-600',
        className,
      )}
      {...dropHandlers}
      data-testid="upload-drop-zone"
    >
      <button
        type="button"
        onClick={() => inputRef.current?.click()}
        disabled={busy}
        aria-describedby={hintId}
        className="flex w-full cursor-pointer flex-col items-center gap-3 rounded-[1.35rem] px-6 py-9 text-center outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-wait sm:py-12"
      >
        <span
          aria-hidden="true"
          className="brand-gradient grid size-16 place-items-center rounded-2xl text-white shadow-lg shadow-brand-600/30 transition-transform group-hover:scale-105"
        >
          {busy ? <LoaderCircleIcon className="size-7 animate-spin" /> : <ImageUpIcon className="size-7" />}
        </span>
        <span className="text-lg font-bold">{dragging ? 'Drop your photo here' : 'Upload your photo'}</span>
        <span id={hintId} className="text-sm text-muted-foreground">
          Click to choose, or drag and drop an image here
        </span>
      </button>
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        className="hidden"
        tabIndex={-1}
        aria-label="Choose a photo"
        onChange={(event) => void handleFile(event.target.files?.[0])}
        data-testid="upload-input"
      />
    </div>
  );
}
