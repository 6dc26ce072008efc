import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AdminPartners } from '@/features/partners/components/admin-partners';

export default function AdminPartnersRoute() {
  return (
    <>
      <PageTitle title={paths.adminPartners.title} />
      <AdminPartners />
    </>
  );
}
