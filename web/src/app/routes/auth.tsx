import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function AuthRoute() {
  return <RoutePlaceholder page={paths.auth} />;
}
