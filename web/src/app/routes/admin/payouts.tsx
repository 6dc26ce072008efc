import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function AdminPayoutsRoute() {
  return <RoutePlaceholder page={paths.adminPayouts} />;
}
