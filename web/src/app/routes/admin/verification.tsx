import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { AdminVerification } from '@/features/verification/components/admin-verification';

export default function AdminVerificationRoute() {
  return (
    <>
      <PageTitle title={paths.adminVerification.title} />
      <AdminVerification />
    </>
  );
}
