import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionClient } from '@/lib/auth-client';
import { useSession } from '@/lib/session';

/** One of the user's passkeys, as GET /auth/v1/passkeys lists it. */
export type Passkey = {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string;
};

export const passkeyKeys = {
  all: ['account', 'passkeys'] as const,
};

function orThrow<T>({ data, error }: { data: T | null; error: Error | null }): T {
  if (error) throw error;
  return data as T;
}

/** GET /auth/v1/passkeys: the signed-in user's passkeys, oldest first. */
export function passkeysQueryOptions(client: SessionClient) {
  return queryOptions({
    queryKey: passkeyKeys.all,
    queryFn: async (): Promise<Passkey[]> => orThrow(await client.passkey.list()) as Passkey[],
  });
}

export function usePasskeys(enabled = true) {
  const { client } = useSession();
  return useQuery({ ...passkeysQueryOptions(client), enabled });
}

/**
 * registerPasskey: the server's options, the browser's (or phone's) prompt,
 * then the server's check. Rejects with the browser's DOMException-based
 * error when the person cancels, or the server's AuthApiError.
 */
export function useAddPasskey() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => orThrow(await client.registerPasskey()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/** PATCH /auth/v1/passkeys/{id}: a new name (1–120 characters). */
export function useRenamePasskey() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) =>
      orThrow(await client.passkey.update({ passkeyId: id, friendlyName: name })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/** DELETE /auth/v1/passkeys/{id}. */
export function useRemovePasskey() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error } = await client.passkey.delete({ passkeyId: id });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}
