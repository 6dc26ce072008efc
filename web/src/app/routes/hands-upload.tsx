import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { BodyUploadPage } from './body-upload-page';

// The results page's code, fetched while the user looks at the preview (router.tsx loads the same chunk).
const preloadResults = () => import('./hands-results');

export default function HandsUploadRoute() {
  return (
    <>
      <PageTitle title={paths.handsUpload.title} />
      <BodyUploadPage kind="hands" preloadResults={preloadResults} />
    </>
  );
}
