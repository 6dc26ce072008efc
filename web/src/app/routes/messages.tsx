import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function MessagesRoute() {
  return <RoutePlaceholder page={paths.messages} />;
}
