import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function ResultsRoute() {
  return <RoutePlaceholder page={paths.results} />;
}
