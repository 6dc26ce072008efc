import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function FeetUploadRoute() {
  return <RoutePlaceholder page={paths.feetUpload} />;
}
