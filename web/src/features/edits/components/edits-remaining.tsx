import { CrownIcon, SparklesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import type { EditAllowance } from '@/resources/edits/get-edits-quota';
import { OUT_OF_EDITS_MESSAGE } from '../utils/edit-errors';

/** The free edits left as a small pill ('3 free edits left', 'Unlimited edits'). */
export function EditsRemainingPill({ allowance }: { allowance: EditAllowance }) {
  const { remaining } = allowance;
  if (remaining === undefined) return null;
  const left = remaining === null ? null : Math.max(0, remaining);
  const text = left === null ? 'Unlimited edits' : `${left} free ${left === 1 ? 'edit' : 'edits'} left`;
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full border border-brand-100 bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700"
      data-testid="edits-remaining"
    >
      <SparklesIcon aria-hidden="true" className="size-3.5" />
      {text}
    </span>
  );
}

/** At zero: the spec's message and the offer of Premium (every edit button is disabled meanwhile). */
export function OutOfEditsNotice({ className }: { className?: string }) {
  return (
    <div role="alert" className={className} data-testid="out-of-edits">
      <div className="flex flex-col items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center">
        <p className="flex-1 text-sm font-semibold">
          {OUT_OF_EDITS_MESSAGE} <span className="font-normal">Upgrade to Premium for unlimited edits.</span>
        </p>
        <Button asChild size="sm">
          <Link to={paths.premium.path}>
            <CrownIcon aria-hidden="true" />
            Go Premium
          </Link>
        </Button>
      </div>
    </div>
  );
}
