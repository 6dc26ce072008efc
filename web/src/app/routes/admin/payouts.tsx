import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AdminPayouts } from '@/features/partners/components/admin-payouts';

export default function AdminPayoutsRoute() {
  return (
    <>
      <PageTitle title={paths.adminPayouts.title} />
      <AdminPayouts />
    </>
  );
}
