import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { leaderboardKeys } from './get-leaderboard';

/** An entry as the moderators see it (signed image URL, owner's email, open reports, the nudity check's scores). */
export type ModerationEntry = ApiSchemas['ModerationEntry'];
/** `held`: photos the nudity check holds, shared ones included. */
export type EntryStatus = 'pending' | 'approved' | 'rejected' | 'unlisted' | 'held';

export const moderationKeys = {
  all: ['admin', 'leaderboard'] as const,
  entries: (status: EntryStatus) => [...moderationKeys.all, 'entries', status] as const,
};

export function useModerationEntries(status: EntryStatus) {
  return useQuery(
    queryOptions({
      queryKey: moderationKeys.entries(status),
      queryFn: () => unwrap(api.GET('/api/v1/admin/leaderboard/entries', { params: { query: { status } } })),
    }),
  );
}

export type ModerationAction =
  | { kind: 'approve'; id: string }
  | { kind: 'release'; id: string }
  | { kind: 'reject'; id: string; reason: string }
  | { kind: 'unlist'; id: string; reason?: string }
  | { kind: 'feature'; id: string; featured: boolean };

/** POST to the admin endpoint of one decision. The server checks the role again and applies each decision once. */
export async function moderate(action: ModerationAction): Promise<void> {
  switch (action.kind) {
    case 'approve':
      await unwrap(api.POST('/api/v1/admin/leaderboard/entries/{id}/approve', { params: { path: { id: action.id } } }));
      return;
    case 'release':
      await unwrap(api.POST('/api/v1/admin/leaderboard/entries/{id}/release', { params: { path: { id: action.id } } }));
      return;
    case 'reject':
      await unwrap(api.POST('/api/v1/admin/leaderboard/entries/{id}/reject', { params: { path: { id: action.id } }, body: { reason: action.reason } }));
      return;
    case 'unlist':
      await unwrap(api.POST('/api/v1/admin/leaderboard/entries/{id}/unlist', { params: { path: { id: action.id } }, body: { reason: action.reason } }));
      return;
    case 'feature':
      await unwrap(
        api.POST('/api/v1/admin/leaderboard/entries/{id}/feature', { params: { path: { id: action.id } }, body: { featured: action.featured } }),
      );
  }
}

export function useModerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moderate,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
    },
  });
}
