import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PartnerPortalPage } from '@/features/partners/components/partner-portal';

export default function PartnersPortalRoute() {
  return (
    <>
      <PageTitle title={paths.partnersPortal.title} />
      <PartnerPortalPage />
    </>
  );
}
