import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function AdminPartnersRoute() {
  return <RoutePlaceholder page={paths.adminPartners} />;
}
