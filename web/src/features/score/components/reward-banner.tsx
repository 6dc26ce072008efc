import { ArrowRightIcon, AwardIcon, CrownIcon, GemIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { rewardBanner } from '../utils/rewards';

type RewardBannerProps = {
  score: number;
  /** Opens the leaderboard entry form (the WORLD RECORD banner offers it). */
  onJoinLeaderboard: () => void;
};

/** The tiered reward banner of the results screen, read on the 100-point scale. */
export function RewardBanner({ score, onJoinLeaderboard }: RewardBannerProps) {
  const banner = rewardBanner(score);
  if (banner === 'world-record') {
    return (
      <section
        aria-labelledby="reward-heading"
        data-testid="reward-banner"
        className="relative overflow-hidden rounded-3xl bg-linear-to-br from-orange-700 via-rose-700 to-fuchsia-800 p-6 text-white shadow-xl sm:p-8"
      >
        <CrownIcon aria-hidden="true" className="absolute -top-4 -right-4 size-32 rotate-12 text-white/15" />
        <p className="text-sm font-semibold tracking-widest uppercase">A perfect 10</p>
        <h2 id="reward-heading" className="mt-1 text-3xl font-black tracking-tight sm:text-4xl">
          WORLD RECORD
        </h2>
        <p className="mt-2 max-w-prose text-white/95">
          You scored a perfect 10. You have earned:
        </p>
        <ul className="mt-3 grid gap-1.5 font-semibold sm:grid-cols-2">
          <li>A $100,000 prize</li>
          <li>Agent representation</li>
          <li>The #1 spot on the leaderboard</li>
          <li>Brand partnerships</li>
        </ul>
        <p className="mt-4 text-white/95">Our team will contact you within 24 hours.</p>
        <Button variant="inverse" className="mt-5" onClick={onJoinLeaderboard}>
          Join the Leaderboard
          <ArrowRightIcon aria-hidden="true" />
        </Button>
      </section>
    );
  }
  if (banner === 'elite') {
    return (
      <section
        aria-labelledby="reward-heading"
        data-testid="reward-banner"
        className="relative overflow-hidden rounded-3xl bg-linear-to-br from-violet-700 to-fuchsia-700 p-6 text-white shadow-xl sm:p-8"
      >
        <GemIcon aria-hidden="true" className="absolute -top-4 -right-4 size-32 rotate-12 text-white/15" />
        <h2 id="reward-heading" className="text-3xl font-black tracking-tight sm:text-4xl">
          ELITE BEAUTY STATUS
        </h2>
        <ul className="mt-3 grid gap-1.5 font-semibold sm:grid-cols-2">
          <li>A $50,000 prize</li>
          <li>A top-10 placement on the leaderboard</li>
        </ul>
        <p className="mt-4 text-white/95">Our team will contact you within 48 hours.</p>
      </section>
    );
  }
  if (banner === 'exceptional') {
    return (
      <section
        aria-labelledby="reward-heading"
        data-testid="reward-banner"
        className="flex flex-col gap-4 rounded-3xl border border-brand-100 bg-brand-50 p-6 sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="flex items-start gap-4">
          <span aria-hidden="true" className="brand-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white">
            <AwardIcon className="size-6" />
          </span>
          <div>
            <h2 id="reward-heading" className="text-2xl font-extrabold">
              Exceptional Score
            </h2>
            <p className="text-muted-foreground">You are in the top 1% of all scores.</p>
          </div>
        </div>
        <Button asChild>
          <Link to={paths.claimOpportunities.path}>
            Claim Opportunities
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </section>
    );
  }
  return null;
}
