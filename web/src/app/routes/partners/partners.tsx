import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PartnersRoute() {
  return <RoutePlaceholder page={paths.partners} />;
}
