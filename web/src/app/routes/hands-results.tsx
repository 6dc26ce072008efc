import { Navigate, useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { BodyResultsPage } from '@/features/body-score/components/body-results-page';
import { isBodyResultState } from '@/features/body-score/kinds';

/** The score arrives in navigation state from /hands-upload; without one, back to the upload. */
export default function HandsResultsRoute() {
  const location = useLocation();
  if (!isBodyResultState<'hands'>(location.state)) return <Navigate to={paths.handsUpload.path} replace />;
  return (
    <>
      <PageTitle title={paths.handsResults.title} />
      <BodyResultsPage key={location.key} kind="hands" result={location.state} />
    </>
  );
}
