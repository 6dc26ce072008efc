import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiErrorFrom, fetchWithSession } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/**
 * The feature gates (spec document 2, sections 4 and 7): premium members use
 * every gated feature; everyone else gets one free trial of each. The server
 * decides and its gated endpoints check again; the web app's check only
 * decides what to show.
 */

export const FEATURES = ['ai_editor', 'personality_test', 'feet_scoring', 'hands_scoring'] as const;
export type FeatureName = (typeof FEATURES)[number];

export type FeatureAccessReason = 'granted' | 'trial_available' | 'trial_exceeded' | 'requires_premium';

/** POST /functions/v1/check-feature-access {featureName}. */
export type FeatureAccess = {
  hasAccess: boolean;
  reason: FeatureAccessReason;
  trialRemaining: number;
};

export const featureKeys = {
  all: ['features'] as const,
  access: (userId: string | null, feature: FeatureName) => [...featureKeys.all, 'access', userId ?? 'anonymous', feature] as const,
};

async function call<T>(name: string, feature: FeatureName): Promise<T> {
  const response = await fetchWithSession(`/functions/v1/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ featureName: feature }),
  });
  if (!response.ok) throw await apiErrorFrom(response);
  return (await response.json()) as T;
}

export function checkFeatureAccess(feature: FeatureName): Promise<FeatureAccess> {
  return call('check-feature-access', feature);
}

/** Uses the one free trial of a feature (the server counts it once, however often it is called). */
export function recordFeatureUsage(feature: FeatureName): Promise<unknown> {
  return call('record-feature-usage', feature);
}

export function featureAccessQueryOptions(userId: string | null, feature: FeatureName) {
  return queryOptions({
    queryKey: featureKeys.access(userId, feature),
    queryFn: () => checkFeatureAccess(feature),
    // Asked on every visit: a subscription or a used trial changes the answer.
    staleTime: 0,
  });
}

/** The server's answer for the signed-in user (not asked while signed out). */
export function useFeatureAccessQuery(feature: FeatureName) {
  const { session } = useSession();
  return useQuery({ ...featureAccessQueryOptions(session?.user.id ?? null, feature), enabled: Boolean(session) });
}

export function useRecordFeatureUsage(feature: FeatureName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => recordFeatureUsage(feature),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: featureKeys.all }),
  });
}
