import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function DashboardRoute() {
  return <RoutePlaceholder page={paths.dashboard} />;
}
