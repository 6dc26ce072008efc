import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function RequestVerificationRoute() {
  return <RoutePlaceholder page={paths.requestVerification} />;
}
