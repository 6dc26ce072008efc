import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '@/lib/api-client';

/**
 * The partner programme's calls (issue 15). The server runs the programme:
 * codes, attribution, commissions, holds and payouts; these pages only show
 * its answers and send the user's choices.
 */
export type ApplyPartnerForm = ApiSchemas['ApplyPartnerForm'];
export type PartnerAccount = ApiSchemas['PartnerAccount'];
export type PartnerPortal = ApiSchemas['PartnerPortal'];
export type PartnerTotals = ApiSchemas['PartnerTotals'];
export type PartnerConversion = ApiSchemas['PartnerConversion'];
export type PartnerStanding = ApiSchemas['PartnerStanding'];
export type AdminPartner = ApiSchemas['AdminPartner'];
/** A payable row carries the partner's payout account state, `null` when none is connected. */
export type PayoutAccountState = 'onboarding' | 'enabled';
export type PayablePartner = ApiSchemas['PayablePartner'];
export type PartnerPayout = ApiSchemas['PartnerPayout'];
export type PartnerStatusFilter = 'all' | AdminPartner['status'];

export const partnerKeys = {
  all: ['partners'] as const,
  mine: () => [...partnerKeys.all, 'mine'] as const,
  /** The application page's one look, on opening, at whether the user is a partner already. */
  accountCheck: () => [...partnerKeys.all, 'account-check'] as const,
  leaderboard: () => [...partnerKeys.all, 'leaderboard'] as const,
  admin: ['admin', 'partners'] as const,
  adminList: (status: PartnerStatusFilter) => [...partnerKeys.admin, 'list', status] as const,
  payouts: () => [...partnerKeys.admin, 'payouts'] as const,
};

/** A 4xx answer is the server's decision: asking again would not change it. */
function retryServerErrors(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** POST /api/v1/partners: the application; the account starts pending. */
export function useApplyPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: ApplyPartnerForm) => unwrap(api.POST('/api/v1/partners', { body: form })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.mine() }),
  });
}

/** GET /api/v1/partners/me: the account, its totals and the 10 newest lines; 404 `partner_not_found` without one. */
export function useMyPartnerPortal() {
  return useQuery(
    queryOptions({
      queryKey: partnerKeys.mine(),
      queryFn: () => unwrap(api.GET('/api/v1/partners/me')),
      retry: retryServerErrors,
      staleTime: 0,
    }),
  );
}

/**
 * Whether the user already has a partner account when /partners/apply opens
 * (GET /api/v1/partners/me). Asked once per visit and never refreshed by the
 * application itself: the form's own success leads to the portal.
 */
export function usePartnerAccountCheck() {
  return useQuery(
    queryOptions({
      queryKey: partnerKeys.accountCheck(),
      queryFn: () => unwrap(api.GET('/api/v1/partners/me')),
      retry: retryServerErrors,
      staleTime: 0,
      gcTime: 0,
    }),
  );
}

/** The caller has no partner account (the portal then offers the application). */
export function isNoPartnerAccount(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'partner_not_found' || error.status === 404);
}

/** GET /api/v1/partners/leaderboard (public): the top 10 approved partners by total earned. */
export function usePartnerLeaderboard() {
  return useQuery(queryOptions({ queryKey: partnerKeys.leaderboard(), queryFn: () => unwrap(api.GET('/api/v1/partners/leaderboard')) }));
}

/**
 * POST /functions/v1/track-referral: counts the click; on success the
 * server's answer sets the `affiliate_code` cookie, so the call goes with
 * the browser's cookies (same origin).
 */
export async function trackReferral(code: string, signal?: AbortSignal): Promise<boolean> {
  const { success } = await unwrap(api.POST('/functions/v1/track-referral', { body: { code }, credentials: 'same-origin', signal }));
  return success;
}

/** GET /api/v1/admin/partners?status=…: every account, or those in one status. */
export function useAdminPartners(status: PartnerStatusFilter) {
  return useQuery(
    queryOptions({
      queryKey: partnerKeys.adminList(status),
      queryFn: () =>
        unwrap(api.GET('/api/v1/admin/partners', { params: { query: status === 'all' ? {} : { status } } })),
      staleTime: 0,
    }),
  );
}

export type StatusChange = { id: string; status: 'approved' | 'suspended' };
export type TierChange = { id: string; tier: PartnerAccount['tier'] };

/** POST /api/v1/admin/partners/{id}/status: approve, suspend or reactivate. */
export function useSetPartnerStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: StatusChange) =>
      unwrap(api.POST('/api/v1/admin/partners/{id}/status', { params: { path: { id } }, body: { status } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.admin }),
  });
}

/** POST /api/v1/admin/partners/{id}/tier: the tier, and with it the commission rate. */
export function useSetPartnerTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tier }: TierChange) =>
      unwrap(api.POST('/api/v1/admin/partners/{id}/tier', { params: { path: { id } }, body: { tier } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.admin }),
  });
}

/** GET /api/v1/admin/payouts: partners with payable conversions. */
export function usePayablePartners() {
  return useQuery(queryOptions({ queryKey: partnerKeys.payouts(), queryFn: () => unwrap(api.GET('/api/v1/admin/payouts')), staleTime: 0 }));
}

/** POST /api/v1/admin/payouts/{id} (the partner's id): its payable lines paid, a payout sent; 409 `nothing_payable`. */
export function useMarkPayoutPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (partnerId: string) => unwrap(api.POST('/api/v1/admin/payouts/{id}', { params: { path: { id: partnerId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.admin }),
  });
}

/**
 * POST /api/v1/admin/payouts/{partnerId}/transfer, "Pay through Stripe": the
 * partner's payable lines sent to their connected payout account (201 a
 * payout with method 'stripe'). 409 `nothing_payable` or `no_payout_account`;
 * 502 `payment_provider_failed` marks nothing paid, and pressing again
 * retries the same transfer.
 */
export function transferPayout(partnerId: string): Promise<PartnerPayout> {
  return unwrap(api.POST('/api/v1/admin/payouts/{id}/transfer', { params: { path: { id: partnerId } } }));
}

export function useTransferPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: transferPayout,
    onSettled: () => queryClient.invalidateQueries({ queryKey: partnerKeys.admin }),
  });
}
