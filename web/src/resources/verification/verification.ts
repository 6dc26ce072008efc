import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

export type VerificationRequest = ApiSchemas['VerificationRequest'];
export type VerificationRequestForm = ApiSchemas['VerificationRequestForm'];

export const verificationKeys = {
  mine: () => ['verification', 'mine'] as const,
  admin: () => ['admin', 'verification'] as const,
};

/** GET /api/v1/verification/mine: the badge and the request, if any (not asked while signed out). */
export function useMyVerification() {
  const { session } = useSession();
  return useQuery(
    queryOptions({
      queryKey: verificationKeys.mine(),
      queryFn: () => unwrap(api.GET('/api/v1/verification/mine')),
      enabled: Boolean(session),
    }),
  );
}

/** POST /api/v1/verification/requests: once per user (409 `already_requested`). */
export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: VerificationRequestForm) => unwrap(api.POST('/api/v1/verification/requests', { body: form })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: verificationKeys.mine() }),
  });
}

export function useVerificationRequests() {
  return useQuery(queryOptions({ queryKey: verificationKeys.admin(), queryFn: () => unwrap(api.GET('/api/v1/admin/verification/requests')) }));
}

export type Decision = { id: string; approve: boolean; adminNotes: string };

/** Approves (the user gets the badge) or rejects a pending request; the server applies each decision once. */
export function useDecideVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve, adminNotes }: Decision) => {
      const options = { params: { path: { id } }, body: { adminNotes: adminNotes.trim() || undefined } };
      return unwrap(
        approve
          ? api.POST('/api/v1/admin/verification/requests/{id}/approve', options)
          : api.POST('/api/v1/admin/verification/requests/{id}/reject', options),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: verificationKeys.admin() }),
  });
}
