import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { EarningsPage } from '@/features/payouts/components/earnings-page';

/** /earnings: the contact-fee earnings and the payout account (signed in; the router asks for sign-in first). */
export default function EarningsRoute() {
  return (
    <>
      <PageTitle title={paths.earnings.title} />
      <EarningsPage />
    </>
  );
}
