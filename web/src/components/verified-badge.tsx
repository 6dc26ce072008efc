import { BadgeCheckIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * The verification badge (an admin approved the user's request): a pill
 * beside a name on the dashboards, plain text with the tick in lists.
 */
export function VerifiedBadge({ variant = 'pill', className }: { variant?: 'pill' | 'inline'; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 font-semibold',
        variant === 'pill' ? 'rounded-full bg-sky-100 px-2.5 py-1 text-sm text-sky-800' : 'text-xs text-sky-700',
        className,
      )}
      data-testid="verified-badge"
    >
      <BadgeCheckIcon aria-hidden="true" className="size-4" />
      Verified
    </span>
  );
}
