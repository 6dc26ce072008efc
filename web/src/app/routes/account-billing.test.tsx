import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const status = (extra: Record<string, unknown> = {}) => ({
  subscribed: true,
  plan: 'premium_editing',
  status: 'active',
  expires_at: '2026-12-23T12:00:00Z',
  cancel_at_period_end: false,
  ...extra,
});
const payments = [
  {
    id: 'p2',
    purpose: 'subscription',
    description: 'Premium Editing (monthly)',
    amount_cents: 999,
    refunded_cents: 0,
    currency: 'usd',
    status: 'succeeded',
    created_at: '2026-11-23T10:00:00Z',
  },
  {
    id: 'p1',
    purpose: 'personality_detailed',
    description: 'Detailed personality analysis',
    amount_cents: 499,
    refunded_cents: 499,
    currency: 'usd',
    status: 'refunded',
    created_at: '2026-10-02T10:00:00Z',
  },
];

async function openAccount() {
  const app = renderApp('/account', { user: 'signed-in' });
  await screen.findByRole('heading', { level: 1, name: 'My Account' }, { timeout: 10_000 });
  return app;
}

// A lazily loaded page renders slowly in jsdom the first time, more so on a loaded machine: 20 s per test.
beforeAll(async () => {
  await import('./account');
}, 30_000);

describe('My Account: subscription and payments', { timeout: 20_000 }, () => {
  it('shows the plan, its renewal date and the payments with amounts and dates', async () => {
    stubApi({
      'POST /functions/v1/check-subscription': () => json(status()),
      'GET /api/v1/billing/payments': () => json(payments),
    });
    await openAccount();
    expect(await screen.findByTestId('subscription-plan')).toHaveTextContent('Premium Editing');
    const card = screen.getByTestId('subscription-card');
    expect(within(card).getByText('Renews on')).toBeInTheDocument();
    expect(screen.getByTestId('subscription-date')).toHaveTextContent('December 23, 2026');
    const rows = await screen.findAllByTestId('payment-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Premium Editing (monthly)');
    expect(rows[0]).toHaveTextContent('November 23, 2026');
    expect(rows[0]).toHaveTextContent('$9.99');
    expect(rows[0]).toHaveTextContent('Paid');
    expect(rows[1]).toHaveTextContent('$4.99');
    // A refund (e.g. a second Premium paid by mistake) says how much came back.
    expect(rows[1]).toHaveTextContent('Refunded ($4.99 back)');
  });

  it('cancels at the period end (premium stays to the end date) and resumes', async () => {
    let current = status();
    const fetchMock = stubApi({
      'POST /functions/v1/check-subscription': () => json(current),
      'GET /api/v1/billing/payments': () => json(payments),
      'POST /api/v1/billing/subscription/cancel': () => {
        current = status({ cancel_at_period_end: true });
        return json(current);
      },
      'POST /api/v1/billing/subscription/resume': () => {
        current = status();
        return json(current);
      },
    });
    const { user } = await openAccount();
    await user.click(await screen.findByRole('button', { name: 'Cancel at Period End' }));
    expect(await screen.findByText('Premium will end on December 23, 2026. You keep it until then.')).toBeInTheDocument();
    const card = screen.getByTestId('subscription-card');
    expect(await within(card).findByText('Ends on')).toBeInTheDocument();
    expect(screen.getByTestId('subscription-plan')).toHaveTextContent('Premium Editing');
    expect(callsTo(fetchMock, 'POST', '/api/v1/billing/subscription/cancel')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Resume Subscription' }));
    expect(await screen.findByText('Premium resumed. It renews on December 23, 2026.')).toBeInTheDocument();
    expect(await within(card).findByText('Renews on')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/billing/subscription/resume')).toHaveLength(1);
  });

  it("shows the server's message when the change is refused", async () => {
    stubApi({
      'POST /functions/v1/check-subscription': () => json(status()),
      'GET /api/v1/billing/payments': () => json([]),
      'POST /api/v1/billing/subscription/cancel': () => apiError(404, 'no_subscription', 'You have no subscription to cancel.'),
    });
    const { user } = await openAccount();
    await user.click(await screen.findByRole('button', { name: 'Cancel at Period End' }));
    expect(await screen.findByText('You have no subscription to cancel.')).toBeInTheDocument();
  });

  it('shows the free plan with the way to Premium, and no payments yet', async () => {
    stubApi({
      'POST /functions/v1/check-subscription': () => json({ subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false }),
      'GET /api/v1/billing/payments': () => json([]),
    });
    await openAccount();
    expect(await screen.findByTestId('subscription-plan')).toHaveTextContent('Free');
    expect(within(screen.getByTestId('subscription-card')).getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/premium');
    expect(await screen.findByText('No payments yet.')).toBeInTheDocument();
  });

  it('shows an expired subscription as the free plan', async () => {
    stubApi({
      'POST /functions/v1/check-subscription': () => json(status({ subscribed: false, status: 'canceled', expires_at: '2026-10-01T00:00:00Z' })),
      'GET /api/v1/billing/payments': () => json([]),
    });
    await openAccount();
    expect(await screen.findByTestId('subscription-plan')).toHaveTextContent('Free');
    expect(screen.queryByRole('button', { name: 'Cancel at Period End' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Loading your payments...')).not.toBeInTheDocument());
  });
});
