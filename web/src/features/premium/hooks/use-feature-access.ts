import { useEffect, useState } from 'react';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useFeatureAccessQuery, useRecordFeatureUsage, type FeatureAccess, type FeatureName } from '@/resources/feature-access/feature-access';
import { FEATURE_CHECK_FAILED_MESSAGE, TRIAL_ACTIVATED_MESSAGE, TRIAL_FAILED_MESSAGE } from '../utils/messages';

/**
 * Where a visitor stands with a gated feature:
 * - `signed-out`: the server answers only signed-in users;
 * - `checking`: waiting for the server;
 * - `error`: the check failed ('Failed to check feature access');
 * - `open`: premium, or the free trial activated during this visit;
 * - `trial`: one free trial is left and can be activated;
 * - `locked`: the trial is used up (or none is offered): the premium offer.
 */
export type FeatureGateState = 'signed-out' | 'checking' | 'error' | 'open' | 'trial' | 'locked';

/** The gate's decision from the server's answer; a trial activated on this visit keeps the feature open. */
export function gateState(access: FeatureAccess | undefined, trialActivated: boolean): FeatureGateState | null {
  if (trialActivated || access?.hasAccess) return 'open';
  if (!access) return null;
  return access.trialRemaining > 0 ? 'trial' : 'locked';
}

/**
 * A gated feature's access (docs/spec-rules.md §4): the server's check,
 * and activating the one free trial, which records the use, checks access
 * again and says, in the server's words, what the trial gives (e.g. 'Trial
 * activated! You can score one photo of your feet.'). The
 * server's gated endpoints check again: this only decides what to show.
 */
export function useFeatureAccess(feature: FeatureName) {
  const { status: sessionStatus, session } = useSession();
  const query = useFeatureAccessQuery(feature);
  const record = useRecordFeatureUsage(feature);
  // Per user and feature: signing in as someone else starts without an activated trial.
  const owner = `${session?.user.id ?? ''}:${feature}`;
  const [activatedFor, setActivatedFor] = useState<string | null>(null);
  const trialActivated = activatedFor === owner;

  useEffect(() => {
    // One toast however often the gate mounts.
    if (query.isError) toast.error(FEATURE_CHECK_FAILED_MESSAGE, { id: `feature-access-${feature}` });
  }, [query.isError, feature]);

  let state: FeatureGateState;
  if (sessionStatus === 'loading') state = 'checking';
  else if (!session) state = 'signed-out';
  else if (query.isError && !trialActivated) state = 'error';
  else state = gateState(query.data, trialActivated) ?? 'checking';

  const activateTrial = async () => {
    let message: string;
    try {
      // The server's words say what this feature's trial gives (one
      // analysis, one completed quiz, one saved editor session).
      message = (await record.mutateAsync()).message || TRIAL_ACTIVATED_MESSAGE;
    } catch {
      toast.error(TRIAL_FAILED_MESSAGE);
      return;
    }
    setActivatedFor(owner);
    toast.success(message);
  };

  return {
    state,
    access: query.data,
    activateTrial,
    activating: record.isPending,
    retry: () => void query.refetch(),
  };
}
