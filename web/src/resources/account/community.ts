import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { servesApi, useSession } from '@/lib/session';

/**
 * Who may enter the community (issue 41): an adult date of birth on file,
 * the terms in force accepted and a confirmed email or phone. The server's
 * gate answers 403 with one of these codes on every community endpoint.
 */
export const COMMUNITY_CODES = ['age_required', 'terms_required', 'confirmation_required'] as const;
export type CommunityCode = (typeof COMMUNITY_CODES)[number];

export { isCommunityRefusal } from '@/lib/query-client';

export type Standing = ApiSchemas['Standing'];
export type Terms = ApiSchemas['Terms'];

export const communityKeys = {
  standing: () => ['account', 'standing'] as const,
  terms: () => ['terms'] as const,
};

/** GET /api/v1/account/standing: what is still to do before the community opens (signed in only). */
export function useStanding() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: [...communityKeys.standing(), session?.user.id ?? ''],
      queryFn: () => unwrap(api.GET('/api/v1/account/standing')),
      enabled: session !== null && servesApi(session),
      staleTime: 30 * 1000,
    }),
  );
}

/** Whether the signed-in user may use the community features (false while unknown). */
export function useIsMember(): boolean {
  return useStanding().data?.member === true;
}

/** GET /api/v1/terms: the version in force. */
export function useTerms() {
  return useQuery(
    queryOptions({
      queryKey: communityKeys.terms(),
      queryFn: () => unwrap(api.GET('/api/v1/terms')),
      staleTime: 5 * 60 * 1000,
    }),
  );
}

/** POST /api/v1/account/date-of-birth (`YYYY-MM-DD`), once. */
export function useDeclareDateOfBirth() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dateOfBirth: string) =>
      unwrap(api.POST('/api/v1/account/date-of-birth', { body: { date_of_birth: dateOfBirth } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityKeys.standing() }),
  });
}

/** POST /api/v1/account/terms with the version in force. */
export function useAcceptTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: string) => unwrap(api.POST('/api/v1/account/terms', { body: { version } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: communityKeys.standing() }),
  });
}
