import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiErrorOf } from './export-account';

/**
 * DELETE /api/v1/account: removes the user, their sessions, photos and images
 * (204). A sign-in older than 5 minutes needs the code that
 * `reauthenticate()` mails; without it the server answers 403
 * `reauthentication_needed`.
 */
export async function deleteAccount(nonce?: string): Promise<void> {
  const { error, response } = await api.DELETE('/api/v1/account', nonce ? { body: { nonce } } : {});
  if (!response.ok) throw apiErrorOf(response, error);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: (nonce?: string) => deleteAccount(nonce) });
}
