import { RoutePlaceholder } from '@/components/layout/route-placeholder';
import { paths } from '@/config/paths';

export default function EditorRoute() {
  return <RoutePlaceholder page={paths.editor} />;
}
