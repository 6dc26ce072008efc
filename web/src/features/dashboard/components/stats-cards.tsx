import { BrainIcon, CrownIcon, ImagesIcon, StarIcon, WandSparklesIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { DashboardSummary } from '../api/get-dashboard';

function StatCard({ icon: Icon, label, value, detail, testId }: { icon: LucideIcon; label: string; value: ReactNode; detail?: ReactNode; testId: string }) {
  return (
    <div className="rounded-2xl border bg-card p-4 shadow-sm" data-testid={testId}>
      <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <Icon aria-hidden="true" className="size-4 text-primary" />
        {label}
      </p>
      <p className="mt-2 text-2xl font-extrabold">{value}</p>
      {detail ? <p className="mt-1 text-xs text-muted-foreground">{detail}</p> : null}
    </div>
  );
}

/** The five stats cards: photos, face scores, free edits, personality type, membership. */
export function StatsCards({ summary }: { summary: DashboardSummary }) {
  const edits = summary.freeEdits;
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
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
    </div>
  );
}
