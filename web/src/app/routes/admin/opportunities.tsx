import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AdminApplications } from '@/features/opportunities/components/admin-applications';

export default function AdminOpportunitiesRoute() {
  return (
    <>
      <PageTitle title={paths.adminOpportunities.title} />
      <AdminApplications />
    </>
  );
}
