import { Navigate, useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { BodyResultsPage } from '@/features/body-score/components/body-results-page';
import { isBodyResultState } from '@/features/body-score/kinds';

/** The score arrives in navigation state from /feet-upload; without one, back to the upload. */
export default function FeetResultsRoute() {
  const location = useLocation();
  if (!isBodyResultState<'feet'>(location.state)) return <Navigate to={paths.feetUpload.path} replace />;
  return (
    <>
      <PageTitle title={paths.feetResults.title} />
      <BodyResultsPage key={location.key} kind="feet" result={location.state} />
    </>
  );
}
