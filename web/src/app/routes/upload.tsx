import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function UploadRoute() {
  return <RoutePlaceholder page={paths.upload} />;
}
