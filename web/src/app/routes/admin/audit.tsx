import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AdminAudit } from '@/features/admin/components/admin-audit';

export default function AdminAuditRoute() {
  return (
    <>
      <PageTitle title={paths.adminAudit.title} />
      <AdminAudit />
    </>
  );
}
