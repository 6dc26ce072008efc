import { ChevronsLeftRightIcon, LoaderCircleIcon } from 'lucide-react';
import { useId, useState, type CSSProperties } from 'react';
import { cn } from '@/lib/utils';

type BeforeAfterSliderProps = {
  before: string;
  after: string;
  /** Shown while an edit runs: the comparison dims under a spinner. */
  busy?: boolean;
  className?: string;
  /** A CSS filter on the after image (the editor's live slider preview). */
  afterStyle?: CSSProperties;
};

/**
 * The edited photo over the original, split where the handle is. The handle
 * is a native range input (arrow keys, Home and End move it; screen readers
 * announce how much of the original shows), stretched over the photo.
 */
export function BeforeAfterSlider({ before, after, busy = false, className, afterStyle }: BeforeAfterSliderProps) {
  const [position, setPosition] = useState(50);
  const labelId = useId();
  return (
    <figure
      className={cn(
        'relative overflow-hidden rounded-3xl border bg-muted shadow-sm select-none has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2',
        className,
      )}
      data-testid="before-after"
    >
      <img src={after} alt="Your edited photo" className="block h-auto w-full" style={afterStyle} data-testid="after-image" />
      <img
        src={before}
        alt="Your original photo"
        className="absolute inset-0 size-full object-cover"
        style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}
        data-testid="before-image"
      />
      <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 bg-white shadow-[0_0_6px_rgba(0,0,0,0.45)]" style={{ left: `${position}%` }}>
        <span className="absolute top-1/2 left-1/2 grid size-10 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-brand-700 shadow-lg">
          <ChevronsLeftRightIcon className="size-5" />
        </span>
      </div>
      <span aria-hidden="true" className="pointer-events-none absolute top-3 left-3 rounded-full bg-black/60 px-2.5 py-1 text-xs font-semibold text-white">
        Before
      </span>
      <span aria-hidden="true" className="pointer-events-none absolute top-3 right-3 rounded-full bg-brand-700/85 px-2.5 py-1 text-xs font-semibold text-white">
        After
      </span>
      <span id={labelId} className="sr-only">
        Before and after comparison
      </span>
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={position}
        onChange={(event) => setPosition(Number(event.target.value))}
        aria-labelledby={labelId}
        aria-valuetext={`${position}% original, ${100 - position}% edited`}
        className="absolute inset-0 size-full cursor-ew-resize opacity-0"
        data-testid="before-after-handle"
      />
      {busy ? <BusyOverlay /> : null}
      <figcaption className="sr-only">The original on the left of the handle, the edit on the right.</figcaption>
    </figure>
  );
}

/** Dims a photo while an edit runs. */
export function BusyOverlay({ text = 'Editing your photo...' }: { text?: string }) {
  return (
    <div role="status" className="absolute inset-0 grid place-content-center gap-2 bg-white/60 text-center backdrop-blur-[1px]" data-testid="edit-busy">
      <LoaderCircleIcon aria-hidden="true" className="mx-auto size-9 animate-spin text-brand-600" />
      <span className="text-sm font-semibold text-brand-700">{text}</span>
    </div>
  );
}
