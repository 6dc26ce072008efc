import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '@/lib/session';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { createFakeAuthClient, testSession, testUser } from '@/testing/fake-auth-client';
import { billingKeys, formatMoney, isPremium, SUBSCRIPTION_POLL_MS, useSubscription, type SubscriptionStatus } from './billing';

const free = { subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false };
const premium = { ...free, subscribed: true, plan: 'premium_editing', status: 'active', expires_at: '2026-12-23T12:00:00Z' };

function setup(signedIn = true) {
  const auth = createFakeAuthClient({ session: signedIn ? testSession() : null });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <SessionProvider client={auth.client}>{children}</SessionProvider>
    </QueryClientProvider>
  );
  return { auth, wrapper };
}

describe('the billing resource', () => {
  it('keys the subscription and the payments under one root, without the user (the cache is emptied when the user changes)', () => {
    expect(billingKeys.subscription()).toEqual(['billing', 'subscription']);
    expect(billingKeys.payments().slice(0, 1)).toEqual([...billingKeys.all]);
  });

  it('counts only an active premium_editing subscription as premium', () => {
    expect(isPremium(premium)).toBe(true);
    expect(isPremium(free)).toBe(false);
    expect(isPremium({ ...premium, plan: 'pay_per_view' })).toBe(false);
    expect(isPremium({ ...premium, subscribed: false })).toBe(false);
    expect(isPremium(undefined)).toBe(false);
  });

  it('formats cents as dollars', () => {
    expect(formatMoney(999)).toBe('$9.99');
    expect(formatMoney(100000, 'usd')).toBe('$1,000.00');
  });

  it('asks nothing while signed out', async () => {
    const fetchMock = stubApi({ 'POST /functions/v1/check-subscription': () => json(free) });
    const { wrapper } = setup(false);
    const { result } = renderHook(() => useSubscription(), { wrapper });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.data).toBeUndefined();
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(0);
  });

  it('checks on load and again when another user signs in', async () => {
    const fetchMock = stubApi({ 'POST /functions/v1/check-subscription': () => json(free) });
    const { wrapper, auth } = setup();
    const { result } = renderHook(() => useSubscription(), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual(free));
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(1);

    act(() => auth.signIn(testSession({ ...testUser, id: '00000000-0000-4000-8000-000000000002', email: 'bob@example.com' })));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(2));
  });

  it('polls every 30 s when asked to (the dashboard), and not otherwise', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: SubscriptionStatus = free;
    const fetchMock = stubApi({ 'POST /functions/v1/check-subscription': () => json(answer) });
    const { wrapper } = setup();
    const polled = renderHook(() => useSubscription({ poll: true }), { wrapper });
    await waitFor(() => expect(polled.result.current.data).toEqual(free));
    const calls = () => callsTo(fetchMock, 'POST', '/functions/v1/check-subscription').length;
    expect(calls()).toBe(1);

    answer = premium;
    await act(() => vi.advanceTimersByTimeAsync(SUBSCRIPTION_POLL_MS - 1_000));
    expect(calls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(polled.result.current.data).toEqual(premium));
    expect(calls()).toBe(2);
    polled.unmount();

    const quiet = setup();
    const once = renderHook(() => useSubscription(), { wrapper: quiet.wrapper });
    await waitFor(() => expect(once.result.current.data).toEqual(premium));
    const before = calls();
    await act(() => vi.advanceTimersByTimeAsync(SUBSCRIPTION_POLL_MS * 2));
    expect(calls()).toBe(before);
  });
});
