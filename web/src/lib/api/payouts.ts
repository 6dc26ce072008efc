import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiErrorFrom, fetchWithSession } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/**
 * The payouts resource (issue 23, items 5 and 6): the caller's earnings from
 * approved contact fees, the payout account they are sent to (Stripe Connect,
 * or the embedded sandbox's test accounts) and the sandbox's onboarding page.
 * The earnings page and the partner portal both connect an account, so the
 * module lives here: features never import each other.
 *
 * The server decides everything (who may connect, what is payable, when it is
 * sent); these calls only mirror its answers.
 *
 * These paths are not in the generated schema yet: the types below are the
 * contract (notes/payouts-contract.md) written out by hand, and the calls go
 * through `fetchWithSession`. Once scripts/gen-api-types.sh picks the paths
 * up, the types become aliases of `ApiSchemas[...]` and the calls move to the
 * typed `api` client, so a contract change breaks the build.
 */

export type PayoutAccountStatus = 'onboarding' | 'enabled';

/** The caller's payout account; `connectedAt` is when it became enabled. */
export type PayoutAccount = { status: PayoutAccountStatus; connectedAt: string | null };

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
export type EarningsLineState = 'held' | 'captured' | 'payable' | 'transferred' | 'reversed' | 'canceled' | 'released';

export type EarningsLine = {
  id: string;
  /** e.g. "Contact request from Alex". */
  description: string;
  /** What the requester paid (gross), in cents. */
  feeCents: number;
  /** The payee's share (75 %), in cents. */
  amountCents: number;
  state: EarningsLineState;
  payableAt: string | null;
  transferredAt: string | null;
  reversedAt: string | null;
  createdAt: string;
};

/** pending = held + captured still in the window; available = past the window, not yet sent; paid = sent. */
export type EarningsTotals = { pendingCents: number; availableCents: number; paidCents: number };

/** GET /api/v1/payouts/earnings: always the caller's own. */
export type Earnings = {
  account: PayoutAccount | null;
  /** The server's answer to "may this user open a payout account?" (has earnings, or is an approved partner). */
  canConnect: boolean;
  /** The refund window, in days, before a captured fee becomes payable. */
  payoutWindowDays: number;
  totals: EarningsTotals;
  /** Newest first. */
  lines: EarningsLine[];
};

/** POST /api/v1/payouts/account: Stripe's hosted onboarding (absolute) or the sandbox's page (a path of this app). */
export type ConnectPayoutAccountResponse = { url: string };

/** GET/POST /api/v1/payouts/sandbox/accounts/{accountId}[/complete]: the embedded provider's test account. */
export type SandboxPayoutAccount = { id: string; email: string | null; status: PayoutAccountStatus };

export const payoutKeys = {
  all: ['payouts'] as const,
  /** Per user: another account signing in on this tab never sees the last one's earnings. */
  earnings: (userId: string | null) => [...payoutKeys.all, 'earnings', userId ?? 'anonymous'] as const,
  sandboxAccount: (id: string) => [...payoutKeys.all, 'sandbox', id] as const,
};

/** A 4xx answer is the server's decision: asking again would not change it. */
function retryServerErrors(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** A JSON call to a path the generated schema does not have yet; a failure is the server's `ApiError`. */
async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetchWithSession(path, init);
  if (!response.ok) throw await apiErrorFrom(response);
  return (await response.json()) as T;
}

export function getEarnings(signal?: AbortSignal): Promise<Earnings> {
  return call<Earnings>('/api/v1/payouts/earnings', { signal });
}

/** While the earnings page waits for a new payout account to be confirmed, it asks this often. */
export const ONBOARDING_CONFIRM_POLL_MS = 2_000;

export function earningsQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: payoutKeys.earnings(userId),
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
    ...earningsQueryOptions(session?.user.id ?? null),
    enabled: Boolean(session),
    refetchInterval: confirmingAccount
      ? (query) => (query.state.data?.account?.status === 'enabled' ? false : ONBOARDING_CONFIRM_POLL_MS)
      : false,
  });
}

/** POST /api/v1/payouts/account: opens (or continues) onboarding; 403 `no_earnings`, 409 `already_connected`. */
export function connectPayoutAccount(): Promise<ConnectPayoutAccountResponse> {
  return call<ConnectPayoutAccountResponse>('/api/v1/payouts/account', { method: 'POST' });
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
  return call<SandboxPayoutAccount>(`/api/v1/payouts/sandbox/accounts/${encodeURIComponent(id)}`, { signal });
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
  return call<SandboxPayoutAccount>(`/api/v1/payouts/sandbox/accounts/${encodeURIComponent(id)}/complete`, { method: 'POST' });
}

export function useCompleteSandboxPayoutAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => completeSandboxPayoutAccount(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
  });
}
