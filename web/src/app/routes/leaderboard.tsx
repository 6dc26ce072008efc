import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function LeaderboardRoute() {
  return <RoutePlaceholder page={paths.leaderboard} />;
}
