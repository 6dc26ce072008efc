import { useParams, useSearchParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { DecisionCard } from '@/features/reports/components/appeal-panel';
import { useSession } from '@/lib/session';
import { useDecision } from '@/resources/reports/reports';

/** `/appeal/:decisionId?token=…`: the decision mail's link; works signed out (a suspended user cannot sign in). */
export default function AppealRoute() {
  const { decisionId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? undefined;
  const { session, status } = useSession();
  const canAsk = Boolean(token) || (status !== 'loading' && Boolean(session));
  const decision = useDecision(decisionId, token, canAsk);
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.appeal.title} />
      <h1 className="text-3xl font-extrabold tracking-tight">{paths.appeal.title}</h1>
      {!canAsk && status !== 'loading' && <p>Please open the link in the mail we sent you, or sign in to see the decisions about your content.</p>}
      {canAsk && decision.isPending && <p>Loading the decision…</p>}
      {decision.isError && <p role="alert">{decision.error.message}</p>}
      {decision.data && <DecisionCard decision={decision.data} token={token} level={2} />}
    </div>
  );
}
