import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function HandsResultsRoute() {
  return <RoutePlaceholder page={paths.handsResults} />;
}
