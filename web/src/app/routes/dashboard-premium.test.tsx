import { act, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SubscriptionStatus } from '@/resources/billing/billing';
import { callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const free = { subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false };
const premium = { ...free, subscribed: true, plan: 'premium_editing', status: 'active', expires_at: '2026-12-23T12:00:00Z' };

// A lazily loaded page renders slowly in jsdom the first time, more so on a loaded machine: 20 s per test.
beforeAll(async () => {
  await import('./dashboard');
}, 30_000);

describe('the dashboard and the subscription', { timeout: 20_000 }, () => {
  it('shows the Premium Member badge and the feet and hands shortcuts to a member', async () => {
    stubApi({
      'POST /functions/v1/check-subscription': () => json(premium),
      'GET /api/v1/photos': () => json([]),
      'GET /api/v1/edits/quota': () => json(quota(null)),
    });
    renderApp('/dashboard', { user: 'signed-in' });
    const badge = await screen.findByTestId('premium-member-badge', undefined, { timeout: 10_000 });
    expect(badge).toHaveTextContent('Premium Member');
    const banner = within(badge.parentElement!);
    expect(banner.getByRole('link', { name: 'Feet Score' })).toHaveAttribute('href', '/feet-upload');
    expect(banner.getByRole('link', { name: 'Hands Score' })).toHaveAttribute('href', '/hands-upload');
  });

  it('checks again every 30 s, so a payment shows without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: SubscriptionStatus = free;
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(answer),
      'GET /api/v1/photos': () => json([]),
      'GET /api/v1/edits/quota': () => json(quota(5)),
    });
    renderApp('/dashboard', { user: 'signed-in' });
    expect(await screen.findByTestId('premium-offer', undefined, { timeout: 10_000 })).toHaveTextContent('Go Premium');
    expect(screen.queryByTestId('premium-member-badge')).not.toBeInTheDocument();

    answer = premium;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await screen.findByTestId('premium-member-badge')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription').length).toBeGreaterThanOrEqual(2);
  });

  it('checks on any page load: the header shows members a crown, and asks nothing signed out', async () => {
    const fetchMock = stubApi({ 'POST /functions/v1/check-subscription': () => json(premium) });
    const { unmount } = renderApp('/how-it-works', { user: 'signed-in' });
    expect(await screen.findByTestId('header-premium', undefined, { timeout: 10_000 })).toHaveAccessibleName('Premium Member');
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(1);
    unmount();

    const signedOut = stubApi({ 'POST /functions/v1/check-subscription': () => json(premium) });
    renderApp('/how-it-works');
    await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
    expect(screen.queryByTestId('header-premium')).not.toBeInTheDocument();
    expect(callsTo(signedOut, 'POST', '/functions/v1/check-subscription')).toHaveLength(0);
  });
});
