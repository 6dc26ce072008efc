import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PartnerApplyPage } from '@/features/partners/components/apply-form';

export default function PartnersApplyRoute() {
  return (
    <>
      <PageTitle title={paths.partnersApply.title} />
      <PartnerApplyPage />
    </>
  );
}
