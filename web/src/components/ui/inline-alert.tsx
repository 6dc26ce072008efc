import { TriangleAlertIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * A failure that stays on the page until the next try (not a toast that
 * fades): what came back from another site, or what a card could not do.
 * The sandbox checkout's declined-card message has the same look.
 */
export function InlineAlert({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div role="alert" className={cn('flex items-start gap-3 rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950', className)}>
      <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
      <p className="text-sm font-semibold">{children}</p>
    </div>
  );
}
