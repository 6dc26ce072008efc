import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AdminPayments } from '@/features/admin/components/admin-payments';

export default function AdminPaymentsRoute() {
  return (
    <>
      <PageTitle title={paths.adminPayments.title} />
      <AdminPayments />
    </>
  );
}
