import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { LeaderboardModeration } from '@/features/leaderboard/components/leaderboard-moderation';

export default function AdminLeaderboardRoute() {
  return (
    <>
      <PageTitle title={paths.adminLeaderboard.title} />
      <LeaderboardModeration />
    </>
  );
}
