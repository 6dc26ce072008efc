import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PremiumPage } from '@/features/premium/components/premium-page';

export default function PremiumRoute() {
  return (
    <>
      <PageTitle title={paths.premium.title} />
      <PremiumPage />
    </>
  );
}
