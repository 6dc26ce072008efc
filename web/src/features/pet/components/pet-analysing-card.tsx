import { PawPrintIcon } from 'lucide-react';

const lines = [
  { label: 'Adorableness', width: 'w-4/5' },
  { label: 'Fur quality', width: 'w-3/5' },
  { label: 'Overall cuteness', width: 'w-11/12' },
];

/** The card shown while the pet photo is analysed, with three decorative progress lines. */
export function PetAnalysingCard() {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="pet-analysing"
      className="rounded-2xl border border-amber-200 bg-amber-50 p-5"
    >
      <p className="flex items-center gap-2 font-bold">
        <PawPrintIcon className="size-5 animate-bounce text-amber-600" aria-hidden="true" />
        Analyzing Your Pet&apos;s Photo...
      </p>
      <ul aria-hidden="true" className="mt-4 space-y-3">
        {lines.map((line) => (
          <li key={line.label}>
            <span className="text-xs font-medium text-amber-900">{line.label}</span>
            <span className="mt-1 block h-2 overflow-hidden rounded-full bg-amber-100">
              <span className={`block h-full animate-pulse rounded-full bg-linear-to-r from-amber-400 to-pink-500 ${line.width}`} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
