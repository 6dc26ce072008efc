import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

// Referral tracking (track-referral, the affiliate_code cookie, the redirect
// home) is a later issue; until then the link only names itself.

export default function ReferralRoute() {
  return <RoutePlaceholder page={paths.referral} />;
}
