import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function ContestantRequestsRoute() {
  return <RoutePlaceholder page={paths.contestantRequests} />;
}
