import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { ClaimOpportunitiesPage } from '@/features/opportunities/components/claim-opportunities-page';

export default function ClaimOpportunitiesRoute() {
  return (
    <>
      <PageTitle title={paths.claimOpportunities.title} />
      <ClaimOpportunitiesPage />
    </>
  );
}
