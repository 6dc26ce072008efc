import type { UserIdentity } from '@supabase/auth-js';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionClient } from '@/lib/auth-client';
import { useSession } from '@/lib/session';

export const identityKeys = {
  all: ['account', 'identities'] as const,
};

/** The user's ways to sign in (the password account is provider "email"), read fresh from GET /auth/v1/user. */
export function identitiesQueryOptions(client: SessionClient) {
  return queryOptions({
    queryKey: identityKeys.all,
    queryFn: async (): Promise<UserIdentity[]> => {
      const { data, error } = await client.getUserIdentities();
      if (error) throw error;
      return data.identities;
    },
  });
}

export function useIdentities() {
  const { client } = useSession();
  return useQuery(identitiesQueryOptions(client));
}

/**
 * GET /auth/v1/user/identities/authorize: the server answers the provider's
 * address and auth-js goes there; the provider sends the browser back to
 * `redirectTo` with a code (linked) or an error. Resolves once the browser is
 * on its way, so the caller keeps its busy state until the page unloads.
 */
export function useLinkIdentity() {
  const { client } = useSession();
  return useMutation({
    mutationFn: async ({ provider, redirectTo }: { provider: string; redirectTo: string }) => {
      const { error } = await client.linkIdentity({ provider, options: { redirectTo } });
      if (error) throw error;
    },
  });
}

/**
 * DELETE /auth/v1/user/identities/{identity_id}. The server keeps the last
 * way in (422 single_identity_not_deletable). Afterwards the session is
 * refreshed, so its user (its email, its providers) is the server's again,
 * and the list is read anew.
 */
export function useUnlinkIdentity() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (identity: UserIdentity) => {
      const { error } = await client.unlinkIdentity(identity);
      if (error) throw error;
      // The identity is gone whatever the refresh says; a failed refresh only leaves the session's copy of the user older.
      await client.refreshSession().catch(() => undefined);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: identityKeys.all }),
  });
}
