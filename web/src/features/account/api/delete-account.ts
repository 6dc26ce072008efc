import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiErrorOf } from './export-account';

/** DELETE /api/v1/account: removes the user, their sessions, photos and images (204). */
export async function deleteAccount(): Promise<void> {
  const { error, response } = await api.DELETE('/api/v1/account');
  if (!response.ok) throw apiErrorOf(response, error);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
