import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/**
 * The feature gates (docs/spec-rules.md §4 and §7): premium members use
 * every gated feature; everyone else gets one free trial of each. The server
 * decides and its gated endpoints check again; the web app's check only
 * decides what to show.
 */

/** `ai_editor`, `personality_test`, `feet_scoring` or `hands_scoring`. */
export type FeatureName = ApiSchemas['Feature'];
/**
 * `granted` (Premium), `trial_available` (the activated trial, usable now),
 * `requires_premium` (no access; the trial can be activated), `trial_exceeded`.
 */
export type FeatureAccessReason = ApiSchemas['AccessReason'];
/** POST /functions/v1/check-feature-access {featureName}: `{hasAccess, reason, trialRemaining}`. */
export type FeatureAccess = ApiSchemas['FeatureAccess'];
/** POST /functions/v1/record-feature-usage: the spec's message and the access after it. */
export type TrialActivated = ApiSchemas['TrialActivated'];

export const featureKeys = {
  all: ['features'] as const,
  access: (feature: FeatureName) => [...featureKeys.all, 'access', feature] as const,
};

export function checkFeatureAccess(feature: FeatureName): Promise<FeatureAccess> {
  return unwrap(api.POST('/functions/v1/check-feature-access', { body: { featureName: feature } }));
}

/** Activates the one free trial of a feature (the server records it once, however often it is called). */
export function recordFeatureUsage(feature: FeatureName): Promise<TrialActivated> {
  return unwrap(api.POST('/functions/v1/record-feature-usage', { body: { featureName: feature } }));
}

export function featureAccessQueryOptions(feature: FeatureName) {
  return queryOptions({
    queryKey: featureKeys.access(feature),
    queryFn: () => checkFeatureAccess(feature),
    // Asked on every visit: a subscription or a used trial changes the answer.
    staleTime: 0,
  });
}

/** The server's answer for the signed-in user (not asked while signed out). */
export function useFeatureAccessQuery(feature: FeatureName) {
  const { session } = useSession();
  return useQuery({ ...featureAccessQueryOptions(feature), enabled: Boolean(session) });
}

export function useRecordFeatureUsage(feature: FeatureName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => recordFeatureUsage(feature),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: featureKeys.all }),
  });
}
