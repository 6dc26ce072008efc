import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PremiumRoute() {
  return <RoutePlaceholder page={paths.premium} />;
}
