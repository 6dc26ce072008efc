import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { RequestVerificationPage } from '@/features/verification/components/request-verification-page';

export default function RequestVerificationRoute() {
  return (
    <>
      <PageTitle title={paths.requestVerification.title} />
      <RequestVerificationPage />
    </>
  );
}
