import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PartnersLanding } from '@/features/partners/components/partners-landing';

export default function PartnersRoute() {
  return (
    <>
      <PageTitle title={paths.partners.title} />
      <PartnersLanding />
    </>
  );
}
