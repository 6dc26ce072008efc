import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PetResultsRoute() {
  return <RoutePlaceholder page={paths.petResults} />;
}
