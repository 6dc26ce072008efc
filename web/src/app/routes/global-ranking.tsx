import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { GlobalRankingPage } from '@/features/ranking/components/global-ranking-page';

export default function GlobalRankingRoute() {
  return (
    <>
      <PageTitle title={paths.globalRanking.title} />
      <GlobalRankingPage />
    </>
  );
}
