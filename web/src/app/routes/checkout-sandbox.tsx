import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { SandboxCheckoutPage } from '@/features/premium/components/sandbox-checkout-page';

export default function CheckoutSandboxRoute() {
  const { id = '' } = useParams();
  return (
    <>
      <PageTitle title={paths.checkoutSandbox.title} />
      {/* A new checkout id is a new page: no message of the last one stays. */}
      <SandboxCheckoutPage key={id} id={id} />
    </>
  );
}
