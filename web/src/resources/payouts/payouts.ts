import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/**
 * The payouts resource (issue 23, items 5 and 6): the caller's earnings from
 * approved contact fees, the payout account they are sent to (Stripe Connect,
 * or the embedded sandbox's test accounts) and the sandbox's onboarding page.
 * The earnings page and the partner portal both connect an account.
 *
 * The server decides everything (who may connect, what is payable, when it is
 * sent); these calls only mirror its answers.
 *
 * The types are the server's OpenAPI schemas, so a contract change breaks
 * the build.
 */

export type PayoutAccount = ApiSchemas['PayoutAccount'];
export type PayoutAccountStatus = 'onboarding' | 'enabled';
export type EarningsLine = ApiSchemas['EarningLine'];
/**
 * Where one line of earnings stands:
 * - held: the requester's card hold is placed, waiting for the contestant's answer;
 * - captured: approved and charged, payable on `payableAt` (the refund window);
 * - payable: the window passed, sent at the next payout run (needs an enabled account);
 * - transferred: sent to the payout account (`transferredAt`);
 * - canceled: refunded or disputed before it was sent;
 * - released: the hold was released (denied or expired), nothing earned;
 * - reversed: refunded or disputed after it was sent, the transfer taken back (`reversedAt`).
 */
export type EarningsLineState = EarningsLine['state'];
/** pending = held + captured still in the window; available = past the window, not yet sent; paid = sent. */
export type EarningsTotals = ApiSchemas['Totals'];
/** GET /api/v1/payouts/earnings: always the caller's own. */
export type Earnings = ApiSchemas['Earnings'];
/** POST /api/v1/payouts/account: Stripe's hosted onboarding (absolute) or the sandbox's page (a path of this app). */
export type ConnectPayoutAccountResponse = ApiSchemas['OnboardingLink'];
/** GET/POST /api/v1/payouts/sandbox/accounts/{id}[/complete]: the embedded provider's test account. */
export type SandboxPayoutAccount = ApiSchemas['SandboxAccount'];

export const payoutKeys = {
  all: ['payouts'] as const,
  earnings: () => [...payoutKeys.all, 'earnings'] as const,
  sandboxAccount: (id: string) => [...payoutKeys.all, 'sandbox', id] as const,
};

/** A 4xx answer is the server's decision: asking again would not change it. */
function retryServerErrors(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function getEarnings(signal?: AbortSignal): Promise<Earnings> {
  return unwrap(api.GET('/api/v1/payouts/earnings', { signal }));
}

/** While the earnings page waits for a new payout account to be confirmed, it asks this often. */
export const ONBOARDING_CONFIRM_POLL_MS = 2_000;

export function earningsQueryOptions() {
  return queryOptions({
    queryKey: payoutKeys.earnings(),
    queryFn: ({ signal }) => getEarnings(signal),
    retry: retryServerErrors,
    staleTime: 0,
  });
}

/**
 * The signed-in user's earnings. `confirmingAccount` asks again every 2 s
 * until the payout account is enabled: after onboarding the provider's
 * answer (a webhook) may arrive a moment after the browser comes back.
 */
export function useEarnings({ confirmingAccount = false }: { confirmingAccount?: boolean } = {}) {
  const { session } = useSession();
  return useQuery({
    ...earningsQueryOptions(),
    enabled: Boolean(session),
    refetchInterval: confirmingAccount
      ? (query) => (query.state.data?.account?.status === 'enabled' ? false : ONBOARDING_CONFIRM_POLL_MS)
      : false,
  });
}

/** POST /api/v1/payouts/account: opens (or continues) onboarding; 403 `no_earnings`, 409 `already_connected`. */
export function connectPayoutAccount(): Promise<ConnectPayoutAccountResponse> {
  return unwrap(api.POST('/api/v1/payouts/account'));
}

export function useConnectPayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectPayoutAccount,
    // A refusal (already connected, nothing to be paid) means the page's picture was old.
    onError: () => queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
  });
}

export function getSandboxPayoutAccount(id: string, signal?: AbortSignal): Promise<SandboxPayoutAccount> {
  return unwrap(api.GET('/api/v1/payouts/sandbox/accounts/{id}', { params: { path: { id } }, signal }));
}

/** The sandbox's test account (its owner only: 404 `not_found` for anyone else). */
export function useSandboxPayoutAccount(id: string) {
  return useQuery({
    queryKey: payoutKeys.sandboxAccount(id),
    queryFn: ({ signal }) => getSandboxPayoutAccount(id, signal),
    retry: retryServerErrors,
    staleTime: 0,
  });
}

/** "Finish test setup": the sandbox enables the account, as Stripe's onboarding would. */
export function completeSandboxPayoutAccount(id: string): Promise<SandboxPayoutAccount> {
  return unwrap(api.POST('/api/v1/payouts/sandbox/accounts/{id}/complete', { params: { path: { id } } }));
}

export function useCompleteSandboxPayoutAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => completeSandboxPayoutAccount(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
  });
}
