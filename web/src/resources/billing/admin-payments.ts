import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';

/**
 * The admins' payments (issue 42): the newest payments with their payer,
 * and a refund with a reason. The server refunds once, through the
 * provider, and the ledgers take back the contestant's or partner's share;
 * these calls only show its answers.
 */
export type AdminPayment = ApiSchemas['AdminPayment'];

export const adminPaymentKeys = {
  all: ['admin', 'payments'] as const,
  list: (email: string) => [...adminPaymentKeys.all, 'list', email] as const,
};

/** GET /api/v1/admin/payments: the newest 100, or those of one payer's address. */
export function useAdminPayments(email: string) {
  const filter = email.trim();
  return useQuery(
    queryOptions({
      queryKey: adminPaymentKeys.list(filter),
      queryFn: () => unwrap(api.GET('/api/v1/admin/payments', { params: { query: filter ? { email: filter } : {} } })),
      staleTime: 0,
    }),
  );
}

/**
 * POST /api/v1/admin/payments/{id}/refund with a reason: 409
 * `already_refunded` when it was refunded (or is being refunded) before.
 */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      unwrap(api.POST('/api/v1/admin/payments/{id}/refund', { params: { path: { id } }, body: { reason } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminPaymentKeys.all }),
  });
}
