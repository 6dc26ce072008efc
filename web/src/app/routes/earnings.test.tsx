import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONFIRM_FOR_MS } from '@/features/payouts/components/earnings-page';
import { ONBOARDING_CONFIRM_POLL_MS, type Earnings, type EarningsLine } from '@/resources/payouts/payouts';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const EARNINGS = '/api/v1/payouts/earnings';
const CONNECT = '/api/v1/payouts/account';
const SANDBOX = '/api/v1/payouts/sandbox/accounts/acct_sbx_1';

function line(extra: Partial<EarningsLine> = {}): EarningsLine {
  return {
    id: 'l1',
    description: 'Contact request from Alex',
    feeCents: 95_000,
    amountCents: 71_250,
    state: 'held',
    payableAt: null,
    transferredAt: null,
    reversedAt: null,
    replied: false,
    replyBy: null,
    reason: null,
    createdAt: '2026-11-20T12:00:00Z',
    ...extra,
  };
}

function earnings(extra: Partial<Earnings> = {}): Earnings {
  return {
    account: null,
    canConnect: true,
    payoutWindowDays: 7,
    replyWindowDays: 7,
    totals: { pendingCents: 0, availableCents: 0, paidCents: 0 },
    lines: [],
    ...extra,
  };
}

const enabledAccount = { status: 'enabled' as const, connectedAt: '2026-11-23T10:00:00Z' };

beforeAll(async () => {
  await Promise.all([import('./earnings'), import('./payouts-sandbox-onboard')]);
}, 30_000);

async function findHeading() {
  return screen.findByRole('heading', { level: 1, name: 'Earnings' }, { timeout: 10_000 });
}

describe('/earnings', { timeout: 20_000 }, () => {
  it('sends a signed-out visitor to sign in with the way back', async () => {
    stubApi({});
    const { router } = renderApp('/earnings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 10_000 });
    expect(router.state.location.search).toBe('?returnTo=%2Fearnings');
  });

  it('without earnings: the rule, zero totals, the empty state, and no way to connect yet', async () => {
    const fetchMock = stubApi({ [`GET ${EARNINGS}`]: () => json(earnings({ canConnect: false })) });
    renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    expect(await screen.findByTestId('payout-rule')).toHaveTextContent(
      'Your 75% of each approved contact fee becomes payable 7 days after the requester is charged (the refund window) and is then sent to your payout account. It counts only once you have written to them in the chat: if you send nothing within 7 days of approving, the requester is refunded in full and you earn nothing.',
    );
    const card = screen.getByTestId('payout-account');
    expect(card).toHaveTextContent('A payout account opens with your first earnings');
    expect(within(card).queryByRole('button')).toBeNull();
    expect(screen.getByTestId('total-pending')).toHaveTextContent('Pending$0.00');
    expect(screen.getByTestId('total-available')).toHaveTextContent('Available$0.00');
    expect(screen.getByTestId('total-paid')).toHaveTextContent('Paid$0.00');
    expect(screen.getByTestId('no-earnings')).toHaveTextContent('No earnings yet.');
    expect(within(screen.getByTestId('no-earnings')).getByRole('link', { name: 'Contact requests' })).toHaveAttribute('href', '/contestant-requests');
    expect(callsTo(fetchMock, 'POST', CONNECT)).toHaveLength(0);
  });

  it('shows the totals as money and each line with its fee, share and state in words', async () => {
    const lines = [
      line({ id: 'held', state: 'held' }),
      line({ id: 'captured', state: 'captured', payableAt: '2026-11-30T12:00:00Z' }),
      line({ id: 'payable', state: 'payable', payableAt: '2026-11-13T12:00:00Z' }),
      line({ id: 'transferred', state: 'transferred', transferredAt: '2026-11-14T12:00:00Z' }),
      line({ id: 'canceled', state: 'canceled' }),
      line({ id: 'released', state: 'released' }),
      line({ id: 'reversed', state: 'reversed', transferredAt: '2026-11-10T12:00:00Z', reversedAt: '2026-11-15T12:00:00Z' }),
    ];
    stubApi({
      [`GET ${EARNINGS}`]: () =>
        json(earnings({ account: enabledAccount, lines, totals: { pendingCents: 142_500, availableCents: 71_250, paidCents: 123_456_78 } })),
    });
    renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    const rows = await screen.findAllByTestId('earnings-line');
    expect(screen.getByTestId('total-pending')).toHaveTextContent('$1,425.00');
    expect(screen.getByTestId('total-pending')).toHaveTextContent('Waiting for your answer or in the 7-day refund window');
    expect(screen.getByTestId('total-available')).toHaveTextContent('$712.50');
    expect(screen.getByTestId('total-available')).toHaveTextContent('Sent at the next payout run');
    expect(screen.getByTestId('total-paid')).toHaveTextContent('$123,456.78');

    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual(['held', 'captured', 'payable', 'transferred', 'canceled', 'released', 'reversed']);
    expect(within(rows[0]!).getByText('Contact request from Alex')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('November 20, 2026')).toBeInTheDocument();
    expect(within(rows[0]!).getByTestId('line-fee')).toHaveTextContent('$950.00');
    expect(within(rows[0]!).getByTestId('line-share')).toHaveTextContent('$712.50');
    expect(rows.map((row) => within(row).getByTestId('line-status').textContent)).toEqual([
      'Waiting for your answer',
      'Payable on November 30, 2026',
      'Payable — sent at the next payout run',
      'Paid November 14, 2026',
      'Refunded before payout',
      'Hold released — nothing charged',
      'Reversed November 15, 2026',
    ]);
  });

  it('asks for a reply before a captured share counts, and says why a share was refunded', async () => {
    const lines = [
      line({ id: 'silent', state: 'captured', payableAt: '2026-11-30T12:00:00Z', replyBy: '2026-11-30T12:00:00Z' }),
      line({ id: 'no-reply', state: 'canceled', reason: 'no_reply' }),
      line({ id: 'disputed', state: 'reversed', reason: 'dispute', reversedAt: '2026-11-15T12:00:00Z' }),
    ];
    stubApi({ [`GET ${EARNINGS}`]: () => json(earnings({ account: enabledAccount, lines })) });
    renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    const rows = await screen.findAllByTestId('earnings-line');
    expect(within(rows[0]!).getByTestId('line-status')).toHaveTextContent('Reply by November 30, 2026 to earn it');
    expect(within(rows[0]!).getByTestId('line-reply-by')).toHaveTextContent(
      'Write to them in the chat by November 30, 2026: your share is paid for the conversation, and if you send nothing by then the requester is refunded in full.',
    );
    expect(within(rows[1]!).getByTestId('line-status')).toHaveTextContent('Refunded — no reply in time');
    expect(within(rows[1]!).getByTestId('line-reason')).toHaveTextContent(
      'Refunded to the requester: you did not write to them within 7 days of approving.',
    );
    expect(within(rows[2]!).getByTestId('line-reason')).toHaveTextContent('The requester disputed the charge with their bank.');
  });

  it('says that payable money needs a payout account when none is enabled', async () => {
    stubApi({
      [`GET ${EARNINGS}`]: () =>
        json(earnings({ account: { status: 'onboarding', connectedAt: null }, lines: [line({ state: 'payable' })], totals: { pendingCents: 0, availableCents: 71_250, paidCents: 0 } })),
    });
    renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    expect(await screen.findByTestId('line-status')).toHaveTextContent('Connect a payout account to receive it');
    expect(screen.getByTestId('total-available')).toHaveTextContent('Connect a payout account to receive it');
    // An unfinished onboarding is continued, not started again.
    const card = screen.getByTestId('payout-account');
    expect(card).toHaveTextContent('Your payout account setup is not finished yet.');
    expect(within(card).getByRole('button', { name: 'Continue setup' })).toBeEnabled();
    expect(within(card).queryByRole('button', { name: 'Connect payout account' })).toBeNull();
  });

  it('shows a connected account with the date it was connected, and no button', async () => {
    stubApi({ [`GET ${EARNINGS}`]: () => json(earnings({ account: enabledAccount })) });
    renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    const connected = await screen.findByTestId('payout-account-connected');
    expect(connected).toHaveTextContent('Payout account connected');
    expect(connected).toHaveTextContent('Since November 23, 2026.');
    expect(within(screen.getByTestId('payout-account')).queryByRole('button')).toBeNull();
  });

  it('Connect payout account asks the server once and goes to the page it names; the sandbox finishes and comes back', async () => {
    let account: Earnings['account'] = null;
    const fetchMock = stubApi({
      [`GET ${EARNINGS}`]: () => json(earnings({ account, lines: [line()], totals: { pendingCents: 71_250, availableCents: 0, paidCents: 0 } })),
      [`POST ${CONNECT}`]: () => {
        account = { status: 'onboarding', connectedAt: null };
        return json({ url: '/payouts/sandbox/onboard/acct_sbx_1' });
      },
      [`GET ${SANDBOX}`]: () => json({ id: 'acct_sbx_1', email: 'ada@example.com', status: account?.status ?? 'onboarding' }),
      [`POST ${SANDBOX}/complete`]: () => {
        account = enabledAccount;
        return json({ id: 'acct_sbx_1', email: 'ada@example.com', status: 'enabled' });
      },
    });
    const { user, router } = renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    const connect = await screen.findByRole('button', { name: 'Connect payout account' });
    expect(screen.getByTestId('payout-account')).toHaveTextContent('Connect a payout account to receive what you earn.');
    await user.click(connect);
    await waitFor(() => expect(router.state.location.pathname).toBe('/payouts/sandbox/onboard/acct_sbx_1'));
    expect(callsTo(fetchMock, 'POST', CONNECT)).toHaveLength(1);

    // The sandbox's page: a test, asking for nothing but a tap.
    expect(await screen.findByRole('heading', { level: 1, name: 'Test Payout Account' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('sandbox-onboarding-notice')).toHaveTextContent('Test payout account — no real bank details are asked for or stored.');
    expect(await screen.findByTestId('sandbox-onboarding-email')).toHaveTextContent('ada@example.com');
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Finish test setup' }));

    // Back on /earnings as Stripe's return_url would bring the user: said once, and the address loses ?onboarding.
    expect(await screen.findByText('Payout account set up', undefined, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/earnings'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByTestId('payout-account-connected')).toHaveTextContent('Payout account connected');
    expect(callsTo(fetchMock, 'POST', `${SANDBOX}/complete`)).toHaveLength(1);
  });

  it("says the server's refusal to connect, and a provider failure, in words", async () => {
    let answer = () => apiError(403, 'no_earnings', 'You have nothing to be paid yet: a payout account opens with your first earnings.');
    stubApi({
      [`GET ${EARNINGS}`]: () => json(earnings()),
      [`POST ${CONNECT}`]: () => answer(),
    });
    const { user, router } = renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    await user.click(await screen.findByRole('button', { name: 'Connect payout account' }));
    expect(await screen.findByTestId('connect-payout-error')).toHaveTextContent(
      'You have nothing to be paid yet: a payout account opens with your first earnings.',
    );
    answer = () => apiError(502, 'payment_provider_failed', 'upstream said 500');
    await user.click(screen.getByRole('button', { name: 'Connect payout account' }));
    expect(await screen.findByText('Our payment provider did not answer. Nothing was changed; please try again in a moment.')).toBeInTheDocument();
    expect(screen.queryByText('upstream said 500')).toBeNull();
    expect(router.state.location.pathname).toBe('/earnings');
  });

  it('on ?onboarding=return waits for the account to be confirmed, asking again, then says it is set up', async () => {
    let asked = 0;
    const fetchMock = stubApi({
      [`GET ${EARNINGS}`]: () => {
        asked += 1;
        return json(earnings({ account: asked < 2 ? { status: 'onboarding', connectedAt: null } : enabledAccount }));
      },
    });
    const { router } = renderApp('/earnings?onboarding=return', { user: 'signed-in' });
    await findHeading();
    expect(await screen.findByTestId('onboarding-confirming')).toHaveTextContent('We’re confirming your payout account…');
    expect(await screen.findByText('Payout account set up', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByTestId('payout-account-connected')).toBeInTheDocument();
    expect(screen.queryByTestId('onboarding-confirming')).toBeNull();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(callsTo(fetchMock, 'GET', EARNINGS).length).toBeGreaterThanOrEqual(2);
  });

  it('on ?onboarding=return stops asking after a while and says to come back later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({ [`GET ${EARNINGS}`]: () => json(earnings({ account: { status: 'onboarding', connectedAt: null } })) });
    renderApp('/earnings?onboarding=return', { user: 'signed-in' });
    await findHeading();
    expect(await screen.findByTestId('onboarding-confirming')).toHaveTextContent('We’re confirming your payout account…');
    await vi.advanceTimersByTimeAsync(CONFIRM_FOR_MS + ONBOARDING_CONFIRM_POLL_MS);
    expect(await screen.findByTestId('onboarding-confirming')).toHaveTextContent('We’re still confirming your payout account.');
    const asked = callsTo(fetchMock, 'GET', EARNINGS).length;
    expect(asked).toBeGreaterThanOrEqual(3);
    await vi.advanceTimersByTimeAsync(5 * ONBOARDING_CONFIRM_POLL_MS);
    expect(callsTo(fetchMock, 'GET', EARNINGS)).toHaveLength(asked);
    expect(screen.getByRole('button', { name: 'Continue setup' })).toBeEnabled();
  });

  it('on ?onboarding=refresh says the setup link expired and offers Continue setup', async () => {
    const fetchMock = stubApi({
      [`GET ${EARNINGS}`]: () => json(earnings({ account: { status: 'onboarding', connectedAt: null } })),
      [`POST ${CONNECT}`]: () => json({ url: '/payouts/sandbox/onboard/acct_sbx_1' }),
      [`GET ${SANDBOX}`]: () => json({ id: 'acct_sbx_1', email: null, status: 'onboarding' }),
    });
    const { user, router } = renderApp('/earnings?onboarding=refresh', { user: 'signed-in' });
    await findHeading();
    expect(await screen.findByTestId('onboarding-expired')).toHaveTextContent('Your setup link expired. Continue setup to pick up where you left off.');
    await user.click(screen.getByRole('button', { name: 'Continue setup' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payouts/sandbox/onboard/acct_sbx_1'));
    expect(callsTo(fetchMock, 'POST', CONNECT)).toHaveLength(1);
    expect(await screen.findByTestId('sandbox-onboarding-email')).toHaveTextContent('No email on file');
  });

  it('says when the earnings cannot be loaded, and asks again on Try again', async () => {
    let fail = true;
    stubApi({ [`GET ${EARNINGS}`]: () => (fail ? apiError(500, 'internal_error', 'Internal error') : json(earnings({ canConnect: false }))) });
    const { user } = renderApp('/earnings', { user: 'signed-in' });
    await findHeading();
    expect(await screen.findByText('Failed to load your earnings')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('no-earnings')).toBeInTheDocument();
  });
});

describe('/payouts/sandbox/onboard/:account', { timeout: 20_000 }, () => {
  it('asks a visitor to sign in first', async () => {
    stubApi({});
    const { router } = renderApp('/payouts/sandbox/onboard/acct_sbx_1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 10_000 });
  });

  it('finishes the test setup once, with the button disabled while it works, and goes to /earnings?onboarding=return', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({
      [`GET ${SANDBOX}`]: () => json({ id: 'acct_sbx_1', email: 'ada@example.com', status: 'onboarding' }),
      [`POST ${SANDBOX}/complete`]: () => new Promise<Response>((resolve) => (answer = resolve)),
      // Not confirmed yet: the earnings page keeps ?onboarding=return while it waits.
      [`GET ${EARNINGS}`]: () => json(earnings({ account: { status: 'onboarding', connectedAt: null } })),
    });
    const { user, router } = renderApp('/payouts/sandbox/onboard/acct_sbx_1', { user: 'signed-in' });
    const finish = await screen.findByRole('button', { name: 'Finish test setup' }, { timeout: 10_000 });
    await user.click(finish);
    await waitFor(() => expect(finish).toBeDisabled());
    await user.click(finish);
    answer(json({ id: 'acct_sbx_1', email: 'ada@example.com', status: 'enabled' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/earnings'));
    expect(router.state.location.search).toBe('?onboarding=return');
    expect(callsTo(fetchMock, 'POST', `${SANDBOX}/complete`)).toHaveLength(1);
  });

  it('says in words when the account is not there, or the setup fails, and stays', async () => {
    stubApi({ [`GET ${SANDBOX}`]: () => apiError(404, 'not_found', 'Not found') });
    const first = renderApp('/payouts/sandbox/onboard/acct_sbx_1', { user: 'signed-in' });
    expect(await screen.findByText(/This test payout account could not be found/, undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Earnings' })).toHaveAttribute('href', '/earnings');
    first.unmount();

    stubApi({
      [`GET ${SANDBOX}`]: () => json({ id: 'acct_sbx_1', email: 'ada@example.com', status: 'onboarding' }),
      [`POST ${SANDBOX}/complete`]: () => apiError(500, 'internal_error', 'database exploded'),
    });
    const { user, router } = renderApp('/payouts/sandbox/onboard/acct_sbx_1', { user: 'signed-in' });
    await user.click(await screen.findByRole('button', { name: 'Finish test setup' }, { timeout: 10_000 }));
    expect(await screen.findByTestId('sandbox-onboarding-error')).toHaveTextContent('Something went wrong finishing this test setup. Please try again.');
    expect(screen.queryByText('database exploded')).toBeNull();
    expect(router.state.location.pathname).toBe('/payouts/sandbox/onboard/acct_sbx_1');
    expect(screen.getByRole('button', { name: 'Finish test setup' })).toBeEnabled();
  });

  it('says an account that is already set up is done, with the way back', async () => {
    stubApi({ [`GET ${SANDBOX}`]: () => json({ id: 'acct_sbx_1', email: 'ada@example.com', status: 'enabled' }) });
    renderApp('/payouts/sandbox/onboard/acct_sbx_1', { user: 'signed-in' });
    expect(await screen.findByTestId('sandbox-onboarding-done', undefined, { timeout: 10_000 })).toHaveTextContent('This test payout account is already set up.');
    expect(screen.queryByRole('button', { name: 'Finish test setup' })).toBeNull();
  });
});
