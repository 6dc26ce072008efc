import { ScanFaceIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Progress } from '@/components/ui/progress';

const steps = ['Finding your face…', 'Placing 468 landmarks…', 'Measuring symmetry and proportions…', 'Reading skin texture and light…'];

/**
 * Shown while the server analyses the photo. The bar eases towards 90% (the
 * request's length is unknown) and the steps name what the server measures.
 */
export function AnalysingCard() {
  const [elapsed, setElapsed] = useState(0);

  useEffect(() => {
    const started = Date.now();
    const timer = window.setInterval(() => setElapsed(Date.now() - started), 150);
    return () => window.clearInterval(timer);
  }, []);

  const value = Math.round(90 * (1 - Math.exp(-elapsed / 1200)));
  const step = steps[Math.min(steps.length - 1, Math.floor(elapsed / 700))];

  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="analysing"
      className="rounded-2xl border border-brand-100 bg-brand-50/70 p-4 sm:p-5"
    >
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-10 shrink-0 place-items-center rounded-xl text-white">
          <ScanFaceIcon className="size-5 animate-pulse" />
        </span>
        <div className="min-w-0">
          <p className="font-bold">Analyzing your photo...</p>
          <p className="truncate text-sm text-muted-foreground">{step}</p>
        </div>
      </div>
      <Progress value={value} aria-label="Analysis progress" className="mt-4" />
    </div>
  );
}
