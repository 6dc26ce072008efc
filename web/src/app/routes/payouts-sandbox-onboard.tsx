import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { SandboxOnboardingPage } from '@/features/payouts/components/sandbox-onboarding-page';

export default function PayoutsSandboxOnboardRoute() {
  const { account = '' } = useParams();
  return (
    <>
      <PageTitle title={paths.payoutsSandboxOnboard.title} />
      {/* Another account id is another page: no message of the last one stays. */}
      <SandboxOnboardingPage key={account} accountId={account} />
    </>
  );
}
