import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function AdminVerificationRoute() {
  return <RoutePlaceholder page={paths.adminVerification} />;
}
