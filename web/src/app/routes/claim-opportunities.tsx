import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function ClaimOpportunitiesRoute() {
  return <RoutePlaceholder page={paths.claimOpportunities} />;
}
