import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PartnersPortalRoute() {
  return <RoutePlaceholder page={paths.partnersPortal} />;
}
