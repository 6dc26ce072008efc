import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, callsTo, json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const free = { subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false };
const member = (extra: Partial<typeof free> = {}) => ({
  subscribed: true,
  plan: 'premium_editing',
  status: 'active',
  expires_at: '2026-12-23T12:00:00Z',
  cancel_at_period_end: false,
  ...extra,
});
const sandboxCheckout = {
  id: 'cs_sandbox_1',
  description: 'Premium Editing (monthly)',
  amountCents: 999,
  renewalCents: null,
  currency: 'usd',
  mode: 'subscription',
  status: 'open',
  successUrl: '/premium?success=true',
  cancelUrl: '/premium?canceled=true',
  notice: 'This is a test payment: no real card is charged and no money moves.',
};

async function openPremium(url = '/premium', user: 'signed-in' | 'signed-out' = 'signed-in') {
  const app = renderApp(url, { user });
  await screen.findByRole('heading', { level: 1, name: 'Go Premium' }, { timeout: 10_000 });
  return app;
}

// A lazily loaded page renders slowly in jsdom the first time, more so on a loaded machine: 20 s per test.
beforeAll(async () => {
  await import('./premium');
  await import('./checkout-sandbox');
}, 30_000);

describe('/premium', { timeout: 20_000 }, () => {
  it('shows the price, what Premium includes and the free plan against it', async () => {
    stubApi({ 'POST /functions/v1/check-subscription': () => json(free) });
    await openPremium('/premium', 'signed-out');
    expect(screen.getByTestId('premium-price')).toHaveTextContent('$9.99');
    expect(screen.getByText('/ month')).toBeInTheDocument();
    const features = screen.getByRole('list', { name: 'What Premium includes' });
    expect(within(features).getByText('Unlimited AI photo edits')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Free' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Premium' })).toBeInTheDocument();
    const edits = within(table).getByRole('row', { name: /AI photo edits/ });
    expect(edits).toHaveTextContent('5 per session');
    expect(edits).toHaveTextContent('Unlimited');
  });

  it('asks a signed-out visitor to sign in to upgrade, and comes back here afterwards', async () => {
    const fetchMock = stubApi({});
    const { user, router } = await openPremium('/premium', 'signed-out');
    await user.click(screen.getByRole('button', { name: 'Upgrade to Premium' }));
    expect(await screen.findByText('Please sign in to upgrade')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(router.state.location.search).toBe('?returnTo=%2Fpremium');
    expect(callsTo(fetchMock, 'POST', '/functions/v1/create-checkout')).toHaveLength(0);
  });

  it('waits for the stored session before Upgrade does anything, so a quick click does not ask a member to sign in', async () => {
    let release!: () => void;
    const sessionRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(free),
      'POST /functions/v1/create-checkout': () => json({ url: '/checkout/sandbox/cs_sandbox_1', sessionId: 'cs_sandbox_1', amountCents: 999, currency: 'usd' }),
      'GET /api/v1/billing/sandbox/cs_sandbox_1': () => json(sandboxCheckout),
    });
    const { user, router } = renderApp('/premium', { user: 'signed-in', auth: { sessionRead } });
    await screen.findByRole('heading', { level: 1, name: 'Go Premium' }, { timeout: 10_000 });
    const upgrade = screen.getByRole('button', { name: 'Upgrade to Premium' });
    expect(upgrade).toBeDisabled();
    release();
    await waitFor(() => expect(upgrade).toBeEnabled());
    await user.click(upgrade);
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_sandbox_1'));
    expect(screen.queryByText('Please sign in to upgrade')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/functions/v1/create-checkout')).toHaveLength(1);
  });

  it('starts a checkout for the subscription without any price of its own and opens the sandbox checkout', async () => {
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(free),
      'POST /functions/v1/create-checkout': () => json({ url: '/checkout/sandbox/cs_sandbox_1', sessionId: 'cs_sandbox_1', amountCents: 999, currency: 'usd' }),
      'GET /api/v1/billing/sandbox/cs_sandbox_1': () => json(sandboxCheckout),
    });
    const { user, router } = await openPremium();
    await user.click(screen.getByRole('button', { name: 'Upgrade to Premium' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_sandbox_1'));
    const [request] = callsTo(fetchMock, 'POST', '/functions/v1/create-checkout');
    const body = await request!.json();
    expect(body).toEqual({ userId: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', type: 'subscription', metadata: { plan_name: 'premium_editing' } });
    expect(body).not.toHaveProperty('priceId');
    expect(request!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends a promo code trimmed and upper case, and shows the server’s word for a bad one', async () => {
    const answers = [
      () => apiError(422, 'invalid_promo_code', 'This promo code is not valid'),
      () => json({ url: '/checkout/sandbox/cs_sandbox_1', sessionId: 'cs_sandbox_1', amountCents: 899, currency: 'usd' }),
    ];
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(free),
      'POST /functions/v1/create-checkout': () => answers.shift()!(),
      'GET /api/v1/billing/sandbox/cs_sandbox_1': () => json(sandboxCheckout),
    });
    const { user, router } = await openPremium();
    expect(screen.getByText("Optional. A PrettyScore partner's promo code takes 10% off your first payment.")).toBeInTheDocument();
    const promo = screen.getByLabelText('Promo code');
    await user.type(promo, ' nope ');
    await user.click(screen.getByRole('button', { name: 'Upgrade to Premium' }));
    expect(await screen.findByText('This promo code is not valid')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upgrade to Premium' })).toBeEnabled());
    await user.clear(promo);
    await user.type(promo, ' ada10 ');
    await user.click(screen.getByRole('button', { name: 'Upgrade to Premium' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_sandbox_1'));
    const requests = callsTo(fetchMock, 'POST', '/functions/v1/create-checkout');
    expect((await requests[0]!.json()).promoCode).toBe('NOPE');
    expect((await requests[1]!.json()).promoCode).toBe('ADA10');
    // A corrected code is a new checkout, not a retry of the refused one.
    expect(requests[0]!.headers.get('Idempotency-Key')).not.toBe(requests[1]!.headers.get('Idempotency-Key'));
  });

  it('says No active session when the session is gone by the time of the click', async () => {
    const fetchMock = stubApi({ 'POST /functions/v1/check-subscription': () => json(free) });
    const { user, auth } = await openPremium();
    auth.mocks.getSession.mockResolvedValue({ data: { session: null }, error: null } as never);
    await user.click(screen.getByRole('button', { name: 'Upgrade to Premium' }));
    expect(await screen.findByText('No active session. Please sign in again.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/functions/v1/create-checkout')).toHaveLength(0);
  });

  it("shows the server's message, or the spec's fallback, and retries with the same idempotency key", async () => {
    const answers = [
      () => apiError(409, 'checkout_in_progress', 'A checkout is already open. Please finish it or try again shortly.'),
      () => new Response('Bad Gateway', { status: 502 }),
    ];
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(free),
      'POST /functions/v1/create-checkout': () => answers.shift()!(),
    });
    const { user, router } = await openPremium();
    const upgrade = screen.getByRole('button', { name: 'Upgrade to Premium' });
    await user.click(upgrade);
    expect(await screen.findByText('A checkout is already open. Please finish it or try again shortly.')).toBeInTheDocument();
    await waitFor(() => expect(upgrade).toBeEnabled());
    await user.click(upgrade);
    expect(await screen.findByText('Failed to start checkout. Please try again.')).toBeInTheDocument();
    const keys = callsTo(fetchMock, 'POST', '/functions/v1/create-checkout').map((request) => request.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(router.state.location.pathname).toBe('/premium');
  });

  it('shows a member their plan and its renewal date instead of Upgrade', async () => {
    stubApi({ 'POST /functions/v1/check-subscription': () => json(member()) });
    await openPremium();
    const card = await screen.findByTestId('premium-member');
    expect(card).toHaveTextContent("You're a Premium Member");
    expect(card).toHaveTextContent('Plan: Premium Editing');
    expect(screen.getByTestId('premium-renewal')).toHaveTextContent('Renews on December 23, 2026');
    expect(screen.queryByRole('button', { name: 'Upgrade to Premium' })).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Manage in My Account' })).toHaveAttribute('href', '/account');
  });

  it('says when a cancelled membership ends', async () => {
    stubApi({ 'POST /functions/v1/check-subscription': () => json(member({ cancel_at_period_end: true })) });
    await openPremium();
    expect(await screen.findByTestId('premium-renewal')).toHaveTextContent('Ends on December 23, 2026');
  });

  it('back from checkout, says Payment successful only once the server confirms it, then the dashboard 1 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(member()),
      'GET /api/v1/photos': () => json([]),
      'GET /api/v1/edits/quota': () => json(quota(null)),
    });
    const { router } = await openPremium('/premium?success=true');
    expect(await screen.findByTestId('premium-success')).toHaveTextContent('Payment successful! Welcome to Premium.');
    expect(screen.queryByTestId('premium-confirming')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/premium');

    await vi.advanceTimersByTimeAsync(1_000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription').length).toBeGreaterThanOrEqual(1);
    expect(await screen.findByTestId('premium-member-badge', undefined, { timeout: 10_000 })).toHaveTextContent('Premium Member');
  });

  it('back from checkout without a confirmed subscription: We are confirming your payment…, a recheck every 2 s, never Payment successful', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let confirmed = false;
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(confirmed ? member() : free),
      'GET /api/v1/photos': () => json([]),
      'GET /api/v1/edits/quota': () => json(quota(null)),
    });
    const { router } = await openPremium('/premium?success=true');
    expect(await screen.findByTestId('premium-confirming')).toHaveTextContent('We are confirming your payment…');
    expect(screen.queryByTestId('premium-success')).not.toBeInTheDocument();
    expect(screen.queryByText(/Payment successful/)).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(1));

    await vi.advanceTimersByTimeAsync(2_100);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(2));
    expect(screen.getByTestId('premium-confirming')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/premium');

    // The provider's event arrives: the next recheck confirms it.
    confirmed = true;
    await vi.advanceTimersByTimeAsync(2_100);
    expect(await screen.findByTestId('premium-success')).toHaveTextContent('Payment successful! Welcome to Premium.');
    await vi.advanceTimersByTimeAsync(1_000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('back from checkout with no payment at all: stops waiting after 30 s and says so, and Check again asks again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(free),
      'GET /api/v1/photos': () => json([]),
      'GET /api/v1/edits/quota': () => json(quota(null)),
    });
    await openPremium('/premium?success=true');
    expect(await screen.findByTestId('premium-confirming')).toHaveTextContent('We are confirming your payment…');
    await vi.advanceTimersByTimeAsync(28_000);
    expect(screen.getByTestId('premium-confirming')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(2_100);
    const honest = await screen.findByTestId('premium-no-payment');
    expect(honest).toHaveTextContent('We have not received a payment from you.');
    expect(honest).toHaveTextContent('If you left the checkout before paying, nothing was charged.');
    expect(screen.queryByTestId('premium-confirming')).not.toBeInTheDocument();
    expect(screen.queryByText(/Payment successful/)).not.toBeInTheDocument();
    // No more asking once it said so.
    const asked = callsTo(fetchMock, 'POST', '/functions/v1/check-subscription').length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription')).toHaveLength(asked);
    // Check again: asks at once, and waits again.
    fireEvent.click(within(honest).getByRole('button', { name: 'Check again' }));
    expect(await screen.findByTestId('premium-confirming')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/check-subscription').length).toBeGreaterThan(asked));
  });

  it('tells a member who tries to buy again what the server says', async () => {
    stubApi({
      'POST /functions/v1/check-subscription': () => json(free),
      'POST /functions/v1/create-checkout': () => apiError(409, 'already_subscribed', 'You are already a Premium member.'),
    });
    const { user } = await openPremium();
    await user.click(screen.getByRole('button', { name: 'Upgrade to Premium' }));
    expect(await screen.findByText('You are already a Premium member.')).toBeInTheDocument();
  });

  it('says so when the checkout was cancelled', async () => {
    stubApi({ 'POST /functions/v1/check-subscription': () => json(free) });
    await openPremium('/premium?canceled=true');
    expect(screen.getByTestId('premium-canceled')).toHaveTextContent('Checkout canceled. You were not charged.');
  });
});

describe('/checkout/sandbox/:id', { timeout: 20_000 }, () => {
  async function openSandbox(extra: Parameters<typeof stubApi>[0] = {}) {
    const fetchMock = stubApi({
      'GET /api/v1/billing/sandbox/cs_sandbox_1': () => json(sandboxCheckout),
      'POST /functions/v1/check-subscription': () => json(free),
      ...extra,
    });
    const app = renderApp('/checkout/sandbox/cs_sandbox_1', { user: 'signed-in' });
    await screen.findByRole('heading', { level: 1, name: 'Test Checkout' }, { timeout: 10_000 });
    await screen.findByTestId('sandbox-description');
    return { ...app, fetchMock };
  }

  it('says plainly that it is a test payment, and what is bought for how much', async () => {
    await openSandbox();
    expect(screen.getByTestId('sandbox-notice')).toHaveTextContent('Test checkout. This is a test payment: no real card is charged and no money moves.');
    expect(screen.getByTestId('sandbox-description')).toHaveTextContent('Premium Editing (monthly)');
    expect(screen.getByTestId('sandbox-amount')).toHaveTextContent('$9.99 / month');
    expect(screen.getByRole('button', { name: 'Pay $9.99 / month' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Decline card' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('shows a promo checkout as the first month discounted, then the full price', async () => {
    await openSandbox({
      'GET /api/v1/billing/sandbox/cs_sandbox_1': () => json({ ...sandboxCheckout, amountCents: 899, renewalCents: 999 }),
    });
    expect(screen.getByTestId('sandbox-amount')).toHaveTextContent('$8.99 for the first month, then $9.99 / month');
    expect(screen.getByRole('button', { name: 'Pay $8.99' })).toBeEnabled();
  });

  it('pays and goes to the success address the server gives', async () => {
    const { user, router, fetchMock } = await openSandbox({
      'POST /api/v1/billing/sandbox/cs_sandbox_1/pay': () => json({ status: 'complete', redirectUrl: '/premium?success=true' }),
    });
    await user.click(screen.getByRole('button', { name: 'Pay $9.99 / month' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/premium'));
    expect(router.state.location.search).toBe('?success=true');
    expect(callsTo(fetchMock, 'POST', '/api/v1/billing/sandbox/cs_sandbox_1/pay')).toHaveLength(1);
  });

  it('says clearly that a declined card took nothing and granted nothing, and stays to try again', async () => {
    const { user, router } = await openSandbox({
      'POST /api/v1/billing/sandbox/cs_sandbox_1/decline': () =>
        apiError(402, 'card_declined', 'Your card was declined. This was a test payment: nothing was charged and nothing was granted.'),
    });
    await user.click(screen.getByRole('button', { name: 'Decline card' }));
    expect(await screen.findByTestId('sandbox-declined')).toHaveTextContent(
      'Your card was declined. This was a test payment: nothing was charged and nothing was granted.',
    );
    expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_sandbox_1');
    expect(screen.getByRole('button', { name: 'Pay $9.99 / month' })).toBeEnabled();
  });

  it('cancels and goes back to the cancel address', async () => {
    const { user, router } = await openSandbox({
      'POST /api/v1/billing/sandbox/cs_sandbox_1/cancel': () => json({ status: 'expired', redirectUrl: '/premium?canceled=true' }),
    });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('premium-canceled', undefined, { timeout: 10_000 })).toHaveTextContent('Checkout canceled');
    expect(router.state.location.search).toBe('?canceled=true');
  });

  it("shows the server's words when the checkout is closed", async () => {
    const { user } = await openSandbox({
      'POST /api/v1/billing/sandbox/cs_sandbox_1/pay': () => apiError(409, 'checkout_closed', 'This checkout has been paid already.'),
    });
    await user.click(screen.getByRole('button', { name: 'Pay $9.99 / month' }));
    expect(await screen.findByText('This checkout has been paid already.')).toBeInTheDocument();
  });

  it('has nothing to pay once the checkout is complete', async () => {
    stubApi({ 'GET /api/v1/billing/sandbox/cs_sandbox_1': () => json({ ...sandboxCheckout, status: 'complete' }) });
    renderApp('/checkout/sandbox/cs_sandbox_1', { user: 'signed-in' });
    expect(await screen.findByTestId('sandbox-closed', undefined, { timeout: 10_000 })).toHaveTextContent('This checkout is already paid.');
    expect(screen.queryByRole('button', { name: /Pay/ })).not.toBeInTheDocument();
  });
});
