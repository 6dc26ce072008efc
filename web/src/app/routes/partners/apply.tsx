import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PartnersApplyRoute() {
  return <RoutePlaceholder page={paths.partnersApply} />;
}
