import { CrownIcon, TrophyIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { formatMoney } from '@/resources/billing/billing';
import { usePartnerLeaderboard, type PartnerStanding } from '@/resources/partners/partners';
import { LEADERBOARD_EMPTY_MESSAGE, LEADERBOARD_LOADING_MESSAGE } from '../utils/messages';
import { tierName } from '../utils/rules';

const TIER_STYLE: Record<string, string> = {
  starter: 'border-border bg-muted text-foreground',
  pro: 'border-sky-300 bg-sky-50 text-sky-900',
  elite: 'border-brand-100 bg-brand-50 text-brand-700',
};

/** /partners/leaderboard (public): the top 10 approved partners by total earned. */
export function PartnerLeaderboard() {
  const standings = usePartnerLeaderboard();
  // A failed load is only logged (docs/spec-rules.md §8); the page says there is no one yet.
  useEffect(() => {
    if (standings.isError) console.warn('Partner leaderboard failed to load', standings.error);
  }, [standings.isError, standings.error]);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
      <header className="text-center">
        <TrophyIcon aria-hidden="true" className="mx-auto size-10 text-amber-500" />
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Partner Leaderboard</h1>
        <p className="mt-2 text-muted-foreground">Our top 10 partners by total earned.</p>
      </header>
      {standings.isPending ? (
        <p role="status" className="text-center text-muted-foreground">
          {LEADERBOARD_LOADING_MESSAGE}
        </p>
      ) : standings.isError || standings.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed p-8 text-center text-muted-foreground" data-testid="partner-leaderboard-empty">
          {LEADERBOARD_EMPTY_MESSAGE}
        </p>
      ) : (
        // grid-cols-1 (minmax(0, 1fr)): a row never grows to its name's
        // unwrapped width, which made the page 641 px wide at 375 (issue 44).
        <ol className="grid grid-cols-1 gap-3" aria-label="Top partners">
          {standings.data.map((standing) => (
            <StandingRow key={`${standing.rank}-${standing.displayName}`} standing={standing} />
          ))}
        </ol>
      )}
      <div className="flex flex-col justify-center gap-2 sm:flex-row">
        <Button asChild>
          <Link to={paths.partnersApply.path}>Become a Partner</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.partners.path}>About the Partner Program</Link>
        </Button>
      </div>
    </div>
  );
}

function StandingRow({ standing }: { standing: PartnerStanding }) {
  const first = standing.rank === 1;
  return (
    <li
      className={cn(
        'flex items-center gap-3 rounded-2xl border bg-card p-3 shadow-sm sm:gap-4 sm:p-4',
        first && 'border-amber-300 bg-amber-50 shadow-md shadow-amber-500/10',
      )}
      data-testid="partner-standing"
      data-first={first || undefined}
    >
      <span
        className={cn('relative grid size-10 shrink-0 place-items-center rounded-full text-base font-extrabold', first ? 'bg-amber-400 text-amber-950' : 'bg-muted')}
      >
        <span className="sr-only">Rank </span>
        {first ? (
          <>
            <CrownIcon aria-hidden="true" className="size-5" />
            <span className="sr-only">1</span>
          </>
        ) : (
          standing.rank
        )}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
        <span className="truncate font-bold">{standing.displayName}</span>
        <Badge className={cn('self-start sm:self-auto', TIER_STYLE[standing.tier])}>{tierName(standing.tier)}</Badge>
      </div>
      <span className="shrink-0 text-lg font-extrabold tabular-nums">{formatMoney(standing.totalEarnedCents)}</span>
    </li>
  );
}
