import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function FeetResultsRoute() {
  return <RoutePlaceholder page={paths.feetResults} />;
}
