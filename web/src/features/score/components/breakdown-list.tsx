import { barWidth, breakdownItems, formatOutOfTen } from '../utils/breakdown';
import type { FaceBreakdown } from '../types';

/** The four sub-scores, each 'n/10' with a bar of width value / 10. */
export function BreakdownList({ breakdown }: { breakdown: FaceBreakdown }) {
  return (
    <dl className="space-y-4" data-testid="breakdown">
      {breakdownItems(breakdown).map((item) => (
        <div key={item.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <dt className="font-medium text-foreground/80">{item.label}</dt>
            <dd className="font-bold">{formatOutOfTen(item.value)}</dd>
          </div>
          <div aria-hidden="true" className="mt-1.5 h-2.5 overflow-hidden rounded-full bg-brand-100">
            <div
              className="brand-gradient h-full rounded-full"
              style={{ width: barWidth(item.value) }}
              data-testid={`bar-${item.key}`}
            />
          </div>
        </div>
      ))}
    </dl>
  );
}
