import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function HandsUploadRoute() {
  return <RoutePlaceholder page={paths.handsUpload} />;
}
