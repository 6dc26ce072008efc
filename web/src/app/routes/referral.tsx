import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { ReferralRedirect } from '@/features/partners/components/referral-redirect';

export default function ReferralRoute() {
  const { code = '' } = useParams();
  return (
    <>
      <PageTitle title={paths.referral.title} />
      <ReferralRedirect code={code} />
    </>
  );
}
