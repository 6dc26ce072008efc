import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function UserDashboardRoute() {
  return <RoutePlaceholder page={paths.userDashboard} />;
}
