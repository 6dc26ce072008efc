import { CrownIcon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { isPremium, useSubscription } from '@/resources/billing/billing';

/**
 * The header's crown for members. Being in the header, it checks the
 * subscription on every page load and whenever the signed-in user changes
 * (SessionProvider empties the cache then), as the spec asks
 * (docs/spec-rules.md §4).
 */
export function PremiumHeaderBadge() {
  const subscription = useSubscription();
  if (!isPremium(subscription.data)) return null;
  return (
    <Link
      to={paths.premium.path}
      className="mr-2 inline-flex items-center gap-1.5 rounded-full border border-brand-100 bg-brand-50 px-2.5 py-1 text-xs font-bold text-brand-700 outline-none hover:bg-brand-100 focus-visible:ring-2 focus-visible:ring-ring"
      aria-label="Premium Member"
      data-testid="header-premium"
    >
      <CrownIcon aria-hidden="true" className="size-4" />
      <span className="max-sm:sr-only">Premium</span>
    </Link>
  );
}
