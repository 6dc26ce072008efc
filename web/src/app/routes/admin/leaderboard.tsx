import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { ContactReports } from '@/features/contact/components/contact-reports';
import { LeaderboardModeration } from '@/features/leaderboard/components/leaderboard-moderation';

export default function AdminLeaderboardRoute() {
  return (
    <>
      <PageTitle title={paths.adminLeaderboard.title} />
      <LeaderboardModeration>
        <ContactReports />
      </LeaderboardModeration>
    </>
  );
}
