import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PetUploadRoute() {
  return <RoutePlaceholder page={paths.petUpload} />;
}
