import { CrownIcon, FootprintsIcon, HandIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { isPremium, useSubscription } from '@/resources/billing/billing';

/**
 * The dashboard's membership line. The subscription is checked when the
 * dashboard opens and every 30 s while it is open (docs/spec-rules.md,
 * section 9), so a payment or a lapse shows without a reload. Members see
 * the Premium Member badge and shortcuts to feet and hands scoring; others a
 * quiet offer.
 */
export function PremiumMemberBanner() {
  const subscription = useSubscription({ poll: true });
  if (!subscription.data) return null;
  if (!isPremium(subscription.data)) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="premium-offer">
        <Link to={paths.premium.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
          Go Premium
        </Link>{' '}
        for unlimited AI edits, the AI Photo Editor, and feet and hands scoring.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-2xl border border-brand-100 bg-brand-50/60 p-3">
      <span
        className="brand-gradient inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-bold text-white shadow-md shadow-brand-600/20"
        data-testid="premium-member-badge"
      >
        <CrownIcon aria-hidden="true" className="size-4" />
        Premium Member
      </span>
      <Button asChild variant="outline" size="sm">
        <Link to={paths.feetUpload.path}>
          <FootprintsIcon aria-hidden="true" />
          Feet Score
        </Link>
      </Button>
      <Button asChild variant="outline" size="sm">
        <Link to={paths.handsUpload.path}>
          <HandIcon aria-hidden="true" />
          Hands Score
        </Link>
      </Button>
    </div>
  );
}
