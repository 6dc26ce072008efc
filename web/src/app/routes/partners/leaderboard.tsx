import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PartnerLeaderboard } from '@/features/partners/components/partner-leaderboard';

export default function PartnersLeaderboardRoute() {
  return (
    <>
      <PageTitle title={paths.partnersLeaderboard.title} />
      <PartnerLeaderboard />
    </>
  );
}
