import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { photoKeys } from '@/resources/photos/photos';

export type Standings = ApiSchemas['Standings'];
export type ContestSubmission = ApiSchemas['ContestSubmission'];

export const contestKeys = {
  all: ['contest'] as const,
  standings: () => [...contestKeys.all, 'standings'] as const,
};

/** GET /api/v1/contest/standings: this month's listed entries in leaderboard order, and the time left. */
export function getStandings(): Promise<Standings> {
  return unwrap(api.GET('/api/v1/contest/standings'));
}

export function useStandings() {
  return useQuery(queryOptions({ queryKey: contestKeys.standings(), queryFn: getStandings }));
}

/** POST /api/v1/contest/entries (signed in): one of the user's photos, with the attestation. */
export function submitEntry(body: ContestSubmission) {
  return unwrap(api.POST('/api/v1/contest/entries', { body }));
}

export function useSubmitEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitEntry,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: contestKeys.all });
      void queryClient.invalidateQueries({ queryKey: photoKeys.all });
    },
  });
}
