import { barWidth, breakdownItems, formatOutOfTen } from '../utils/breakdown';
import type { FaceBreakdown } from '../types';

/** The four sub-scores, each 'n/10' with a bar of width value / 10. */
export function BreakdownList({ breakdown }: { breakdown: FaceBreakdown }) {
  return (
    <dl className="space-y-4" data-testid="breakdown">
      {breakdownItems(breakdown).map((item) => (
        <div key={item.key} className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 text-sm">
          <dt className="font-medium text-foreground/80">{item.label}</dt>
          <dd className="font-bold">{formatOutOfTen(item.value)}</dd>
          <dd aria-hidden="true" className="col-span-2 mt-1.5 h-2.5 overflow-hidden rounded-full bg-brand-100">
            <div
              className="brand-gradient h-full rounded-full"
              style={{ width: barWidth(item.value) }}
              data-testid={`bar-${item.key}`}
            />
          </dd>
        </div>
      ))}
    </dl>
  );
}
