import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { MyPhotosPanel } from './my-photos-panel';

/** My Photos: the user's saved photos, each opening in /editor or in its details dialog with the AI editor. */
export default function DashboardRoute() {
  return (
    <>
      <PageTitle title={paths.dashboard.title} />
      <MyPhotosPanel />
    </>
  );
}
