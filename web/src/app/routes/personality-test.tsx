import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function PersonalityTestRoute() {
  return <RoutePlaceholder page={paths.personalityTest} />;
}
