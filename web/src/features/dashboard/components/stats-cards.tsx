import { BrainIcon, CrownIcon, ImagesIcon, StarIcon, WalletIcon, WandSparklesIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { formatMoney } from '@/resources/billing/billing';
import type { DashboardSummary } from '@/resources/dashboard/get-dashboard';

export const CONTACT_EARNINGS_NOTE = 'Your 75% of approved contact requests. See what is paid out and when.';

type StatCardProps = { icon: LucideIcon; label: string; value: ReactNode; detail?: ReactNode; testId: string; to?: string };

const cardClass = 'rounded-2xl border bg-card p-4 shadow-sm';

/** One stat; with `to`, the whole card is a link there (its text is the link's name). */
function StatCard({ icon: Icon, label, value, detail, testId, to }: StatCardProps) {
  const body = (
    <>
      <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <Icon aria-hidden="true" className="size-4 text-primary" />
        {label}
      </p>
      <p className="mt-2 text-2xl font-extrabold break-words">{value}</p>
      {detail ? <p className="mt-1 text-xs text-muted-foreground">{detail}</p> : null}
    </>
  );
  if (to) {
    return (
      <Link
        to={to}
        className={cn(
          cardClass,
          'block transition-colors outline-none hover:border-brand-500 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
        )}
        data-testid={testId}
      >
        {body}
      </Link>
    );
  }
  return (
    <div className={cardClass} data-testid={testId}>
      {body}
    </div>
  );
}

/** The six stats cards: photos, face scores, free edits, personality type, membership, contact earnings. */
export function StatsCards({ summary }: { summary: DashboardSummary }) {
  const edits = summary.freeEdits;
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <StatCard icon={ImagesIcon} label="Photos Saved" value={summary.photosSaved} testId="stat-photos" />
      <StatCard
        icon={StarIcon}
        label="Best Score"
        value={summary.bestFaceScore === null ? '–' : summary.bestFaceScore.toFixed(1)}
        detail={summary.averageFaceScore === null ? 'No face photos yet' : `Average ${summary.averageFaceScore.toFixed(1)}`}
        testId="stat-scores"
      />
      <StatCard
        icon={WandSparklesIcon}
        label="Free Edits"
        value={edits.unlimited ? 'Unlimited' : `${edits.remaining ?? 0} left`}
        detail={edits.unlimited ? 'Premium member' : `of ${edits.limit} on this browser`}
        testId="stat-edits"
      />
      <StatCard
        icon={BrainIcon}
        label="Personality"
        value={summary.personality ? summary.personality.personalityType : '–'}
        detail={summary.personality ? `Score ${summary.personality.score}/100` : 'Take the test'}
        testId="stat-personality"
      />
      <StatCard icon={CrownIcon} label="Membership" value={summary.premium ? 'Premium' : 'Free'} testId="stat-membership" />
      <StatCard
        icon={WalletIcon}
        label="Contact earnings"
        value={formatMoney(summary.contactEarningsCents)}
        detail={CONTACT_EARNINGS_NOTE}
        testId="stat-contact-earnings"
        to={paths.earnings.path}
      />
    </div>
  );
}
