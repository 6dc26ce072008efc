import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { BodyUploadPage } from './body-upload-page';

// The results page's code, fetched while the user looks at the preview (router.tsx loads the same chunk).
const preloadResults = () => import('./feet-results');

export default function FeetUploadRoute() {
  return (
    <>
      <PageTitle title={paths.feetUpload.title} />
      <BodyUploadPage kind="feet" preloadResults={preloadResults} />
    </>
  );
}
