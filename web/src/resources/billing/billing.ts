import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '@/lib/api-client';
import { servesApi, useSession } from '@/lib/session';

/**
 * The billing resource: checkout, the premium subscription, the user's
 * payments and the embedded sandbox checkout. Several features touch it
 * (the premium page, the dashboard's badge, My Account, the sandbox checkout
 * page, the feature gates' offer).
 *
 * The server decides who is premium, from payments that really happened
 * (provider events); everything here only mirrors its answers.
 */

/** What can be bought; the server sets every price from this. */
export type CheckoutType = ApiSchemas['Purchase'];
/** POST /functions/v1/create-checkout (docs/spec-rules.md §7): no amount, the server prices. */
export type CreateCheckoutRequest = ApiSchemas['CreateCheckoutRequest'];
/** Where to send the buyer (`url`: Stripe's page, or the sandbox's relative `/checkout/sandbox/{id}`). */
export type CreateCheckoutResponse = ApiSchemas['CreateCheckoutResponse'];
/** POST /functions/v1/check-subscription: `{subscribed, plan, status, expires_at, cancel_at_period_end}`. */
export type SubscriptionStatus = ApiSchemas['SubscriptionStatus'];
/** One payment of the user, amounts in cents. */
export type Payment = ApiSchemas['PaymentItem'];
/** A sandbox checkout: what is bought, for how much, where it stands, and its test-payment notice. */
export type SandboxCheckout = ApiSchemas['SandboxCheckout'];
/** What a sandbox button did, and where the browser goes next. A declined card is a 402 `card_declined`. */
export type SandboxOutcome = ApiSchemas['SandboxResult'];
export type SandboxAction = 'pay' | 'decline' | 'cancel';

/** The plan that premium is (docs/spec-rules.md §3). */
export const PREMIUM_PLAN = 'premium_editing';

export const billingKeys = {
  all: ['billing'] as const,
  subscription: () => [...billingKeys.all, 'subscription'] as const,
  payments: () => [...billingKeys.all, 'payments'] as const,
  sandbox: (id: string) => [...billingKeys.all, 'sandbox', id] as const,
};

/**
 * Starts a checkout and resolves to the page to send the browser to. The
 * idempotency key makes a retried call (a double tap, a flaky network)
 * return the same checkout instead of a second one.
 */
export function createCheckout(request: CreateCheckoutRequest, idempotencyKey: string): Promise<CreateCheckoutResponse> {
  return unwrap(api.POST('/functions/v1/create-checkout', { body: request, headers: { 'Idempotency-Key': idempotencyKey } }));
}

/** The server's answer to "is this user premium?". */
export function checkSubscription(): Promise<SubscriptionStatus> {
  return unwrap(api.POST('/functions/v1/check-subscription'));
}

export function subscriptionQueryOptions() {
  return queryOptions({
    queryKey: billingKeys.subscription(),
    queryFn: checkSubscription,
    // Checked on every page load and whenever the signed-in user changes (SessionProvider empties the cache then).
    staleTime: 0,
  });
}

/** Every 30 s on the dashboard (docs/spec-rules.md §9). */
export const SUBSCRIPTION_POLL_MS = 30_000;

/**
 * The signed-in user's subscription (not asked while signed out). `poll`
 * asks again every 30 s, for the dashboard.
 */
export function useSubscription({ poll = false }: { poll?: boolean } = {}) {
  const { session } = useSession();
  return useQuery({
    ...subscriptionQueryOptions(),
    enabled: session !== null && servesApi(session),
    refetchInterval: poll ? SUBSCRIPTION_POLL_MS : false,
  });
}

/** Whether the user is a premium member right now, as far as the server said last. */
export function isPremium(status: SubscriptionStatus | undefined): boolean {
  return Boolean(status?.subscribed && status.plan === PREMIUM_PLAN);
}

/** The signed-in user's payments, newest first. */
export function listPayments(): Promise<Payment[]> {
  return unwrap(api.GET('/api/v1/billing/payments'));
}

export function usePayments() {
  const { session } = useSession();
  return useQuery({ queryKey: billingKeys.payments(), queryFn: listPayments, enabled: Boolean(session) });
}

/** Cancel at the period's end, or resume a subscription that was going to end. */
export function changeRenewal(action: 'cancel' | 'resume'): Promise<SubscriptionStatus> {
  return unwrap(
    action === 'cancel' ? api.POST('/api/v1/billing/subscription/cancel') : api.POST('/api/v1/billing/subscription/resume'),
  );
}

export function useChangeRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRenewal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

export function getSandboxCheckout(id: string): Promise<SandboxCheckout> {
  return unwrap(api.GET('/api/v1/billing/sandbox/{id}', { params: { path: { id } } }));
}

export function useSandboxCheckout(id: string) {
  return useQuery({ queryKey: billingKeys.sandbox(id), queryFn: () => getSandboxCheckout(id), staleTime: 0 });
}

/** One of the sandbox page's buttons: the server turns it into provider events, fulfilled like Stripe's. */
export function actOnSandboxCheckout(id: string, action: SandboxAction): Promise<SandboxOutcome> {
  const params = { params: { path: { id } } };
  const calls = {
    pay: () => api.POST('/api/v1/billing/sandbox/{id}/pay', params),
    decline: () => api.POST('/api/v1/billing/sandbox/{id}/decline', params),
    cancel: () => api.POST('/api/v1/billing/sandbox/{id}/cancel', params),
  };
  return unwrap(calls[action]());
}

export function useSandboxAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: SandboxAction) => actOnSandboxCheckout(id, action),
    // Whatever the button did, the status, payments and the checkout itself are to be read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

/** $9.99 from 999 cents. */
export function formatMoney(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** A date as 'November 23, 2026'. */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' }).format(new Date(iso));
}

/** What became of one of the user's checkouts: its state, its payment's, and whether it was given back as a second payment. */
export type CheckoutOutcome = ApiSchemas['CheckoutOutcome'];

/** GET /api/v1/billing/checkouts/{sessionId}, for the page the buyer returns to. */
export function getCheckoutOutcome(sessionId: string): Promise<CheckoutOutcome> {
  return unwrap(api.GET('/api/v1/billing/checkouts/{session_id}', { params: { path: { session_id: sessionId } } }));
}
