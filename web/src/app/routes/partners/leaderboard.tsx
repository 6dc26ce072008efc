import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PartnersLeaderboardRoute() {
  return <RoutePlaceholder page={paths.partnersLeaderboard} />;
}
