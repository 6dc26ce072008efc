import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function GlobalRankingRoute() {
  return <RoutePlaceholder page={paths.globalRanking} />;
}
