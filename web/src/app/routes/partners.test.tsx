import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const account = {
  id: 'p1',
  displayName: 'Ada Partner',
  code: 'ADA1',
  promoCode: 'ADA10',
  status: 'approved',
  tier: 'pro',
  commissionRate: 0.2,
  totalClicks: 1234,
  totalConversions: 3,
  totalEarnedCents: 600,
  createdAt: '2026-11-01T10:00:00Z',
};
const conversion = {
  id: 'c1',
  kind: 'sale',
  amountCents: 999,
  commissionCents: 200,
  status: 'pending',
  payableAt: '2026-12-20T12:00:00Z',
  createdAt: '2026-11-20T12:00:00Z',
};
const portal = (extra: Record<string, unknown> = {}) => ({
  account,
  totals: { pendingCents: 200, payableCents: 300, paidCents: 100 },
  holdDays: 14,
  recent: [conversion, { ...conversion, id: 'c2', status: 'paid', commissionCents: 300, amountCents: 1499 }],
  ...extra,
});
const ACCESS = '/api/v1/admin/access';
const admin = { [`GET ${ACCESS}`]: () => new Response(null, { status: 204 }) };

beforeAll(async () => {
  await Promise.all([
    import('./partners/partners'),
    import('./partners/apply'),
    import('./partners/portal'),
    import('./partners/leaderboard'),
    import('./referral'),
    import('./admin/partners'),
    import('./admin/payouts'),
  ]);
}, 30_000);

describe('/partners', { timeout: 20_000 }, () => {
  it('shows the programme: three tiers, four benefits and the ways in', async () => {
    stubApi({});
    renderApp('/partners');
    expect(await screen.findByRole('heading', { level: 1, name: 'Partner With Us' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Apply Now' })).toHaveAttribute('href', '/partners/apply');
    expect(screen.getByRole('link', { name: 'Apply to Partner Program' })).toHaveAttribute('href', '/partners/apply');
    expect(screen.getByRole('link', { name: 'View Leaderboard' })).toHaveAttribute('href', '/partners/leaderboard');
    expect(screen.getAllByTestId('tier-card').map((card) => card.textContent)).toEqual([
      expect.stringMatching(/^Starter15%/),
      expect.stringMatching(/^Pro20%/),
      expect.stringMatching(/^Elite30%/),
    ]);
    expect(screen.getAllByTestId('benefit-card')).toHaveLength(4);
  });
});

describe('/partners/apply', { timeout: 20_000 }, () => {
  it('sends a signed-out visitor to sign in with the way back', async () => {
    stubApi({});
    const { router } = renderApp('/partners/apply');
    expect(await screen.findByText('Please sign in to apply', undefined, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toBe('?returnTo=%2Fpartners%2Fapply');
  });

  it('normalises the short code as it is typed, checks the form, sends it and opens the portal', async () => {
    let applied = false;
    const fetchMock = stubApi({
      'POST /api/v1/partners': () => {
        applied = true;
        return json({ ...account, status: 'pending', tier: 'starter', commissionRate: 0.15 }, 201);
      },
      'GET /api/v1/partners/me': () =>
        applied ? json(portal({ account: { ...account, status: 'pending' }, recent: [] })) : apiError(404, 'partner_not_found', 'No partner account'),
    });
    const { user, router } = renderApp('/partners/apply', { user: 'signed-in' });
    const shortCode = await screen.findByLabelText(/Custom Short Code/, undefined, { timeout: 10_000 });
    await user.type(shortCode, 'my-code 2!xyzw');
    expect(shortCode).toHaveValue('MYCODE2XYZ');
    expect(screen.getByTestId('referral-link-preview')).toHaveTextContent(`${window.location.host}/r/MYCODE2XYZ`);
    expect(screen.getByText('What happens next?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/partners');

    await user.clear(shortCode);
    await user.type(shortCode, 'ab');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('Display name is required')).toBeInTheDocument();
    expect(screen.getByText('Short code must be 3-10 alphanumeric characters')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/partners')).toHaveLength(0);

    await user.type(screen.getByLabelText('Display Name'), 'Ada Partner');
    await user.type(shortCode, 'c1');
    await user.type(screen.getByLabelText(/Preferred Promo Code/), ' ada10 ');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText("Application submitted! We'll review it shortly.")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/partners/portal'));
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/partners');
    expect(await sent!.json()).toEqual({ displayName: 'Ada Partner', shortCode: 'ABC1', promoCode: 'ADA10' });
    // The portal reads the new account from the server.
    expect(await screen.findByText('Your application is under review', undefined, { timeout: 10_000 })).toBeInTheDocument();
    // The success was said once, and not taken for an existing account.
    expect(screen.queryByText('You already have a partner account')).toBeNull();
  });

  it('sends null codes when they are blank, and shows a taken code under its field', async () => {
    const fetchMock = stubApi({
      'POST /api/v1/partners': () => apiError(409, 'short_code_taken', 'This short code is already taken. Please choose another.'),
    });
    const { user } = renderApp('/partners/apply', { user: 'signed-in' });
    await user.type(await screen.findByLabelText('Display Name', undefined, { timeout: 10_000 }), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('This short code is already taken. Please choose another.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Custom Short Code/)).toHaveAttribute('aria-invalid', 'true');
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/partners');
    expect(await sent!.json()).toEqual({ displayName: 'Ada', shortCode: null, promoCode: null });
  });

  it('sends an existing partner who opens the page to the portal, saying why, without showing the form', async () => {
    const fetchMock = stubApi({ 'GET /api/v1/partners/me': () => json(portal()) });
    const { router } = renderApp('/partners/apply', { user: 'signed-in' });
    expect(await screen.findByText('You already have a partner account', undefined, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/partners/portal'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Partner Portal' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Partner application' })).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/api/v1/partners')).toHaveLength(0);
  });

  it('sends a partner whose account was made meanwhile (the server says partner_exists) to the portal', async () => {
    let exists = false;
    stubApi({
      'POST /api/v1/partners': () => {
        exists = true;
        return apiError(409, 'partner_exists', 'You already have a partner account');
      },
      'GET /api/v1/partners/me': () => (exists ? json(portal()) : apiError(404, 'partner_not_found', 'No partner account')),
    });
    const { user, router } = renderApp('/partners/apply', { user: 'signed-in' });
    await user.type(await screen.findByLabelText('Display Name', undefined, { timeout: 10_000 }), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('You already have a partner account')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/partners/portal'));
  });
});

describe('/partners/portal', { timeout: 20_000 }, () => {
  it('shows the status, the four stats, the link and promo code, the totals and the conversions', async () => {
    stubApi({ 'GET /api/v1/partners/me': () => json(portal()) });
    const { user } = renderApp('/partners/portal', { user: 'signed-in' });
    const badge = await screen.findByTestId('partner-status', undefined, { timeout: 10_000 });
    expect(badge).toHaveTextContent('APPROVED');
    expect(badge).toHaveAttribute('data-tone', 'green');
    expect(screen.getByTestId('stat-clicks')).toHaveTextContent('Clicks1,234');
    expect(screen.getByTestId('stat-conversions')).toHaveTextContent('Conversions3');
    expect(screen.getByTestId('stat-earned')).toHaveTextContent('Total Earned$6.00');
    expect(screen.getByTestId('stat-rate')).toHaveTextContent('20%');
    expect(screen.getByTestId('stat-rate')).toHaveTextContent('Pro tier');
    expect(screen.getByTestId('referral-link')).toHaveValue(`${window.location.origin}/r/ADA1`);
    expect(screen.getByTestId('promo-code')).toHaveValue('ADA10');
    expect(screen.getByTestId('total-pending')).toHaveTextContent('$2.00');
    // The refund window the server is configured with.
    expect(screen.getByTestId('total-pending')).toHaveTextContent('In the 14-day refund window');
    expect(screen.getByTestId('total-payable')).toHaveTextContent('$3.00');
    expect(screen.getByTestId('total-paid')).toHaveTextContent('$1.00');
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date', 'Amount', 'Commission', 'Status']);
    const [first, second] = screen.getAllByTestId('conversion-row');
    expect(first).toHaveTextContent('$9.99');
    expect(first).toHaveTextContent('$2.00');
    expect(within(first!).getByTestId('payable-on')).toHaveTextContent('Payable on December 20, 2026');
    expect(second).toHaveTextContent('Paid');
    expect(within(second!).queryByTestId('payable-on')).toBeNull();
    expect(screen.getByRole('link', { name: 'View Leaderboard' })).toHaveAttribute('href', '/partners/leaderboard');

    await user.click(screen.getByRole('button', { name: 'Copy referral link' }));
    expect(await screen.findByText('Referral link copied!')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy promo code' }));
    expect(await screen.findByText('Promo code copied!')).toBeInTheDocument();
  });

  it('has a Payouts card that connects a payout account the same way as /earnings', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/partners/me': () => json(portal()),
      'GET /api/v1/payouts/earnings': () =>
        json({ account: null, canConnect: true, payoutWindowDays: 7, totals: { pendingCents: 0, availableCents: 0, paidCents: 0 }, lines: [] }),
      'POST /api/v1/payouts/account': () => json({ url: '/payouts/sandbox/onboard/acct_sbx_9' }),
    });
    const { user, router } = renderApp('/partners/portal', { user: 'signed-in' });
    const card = await screen.findByTestId('partner-payouts', undefined, { timeout: 10_000 });
    expect(within(card).getByRole('heading', { name: 'Payouts' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View earnings' })).toHaveAttribute('href', '/earnings');
    await user.click(await within(card).findByRole('button', { name: 'Connect payout account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payouts/sandbox/onboard/acct_sbx_9'));
    expect(callsTo(fetchMock, 'POST', '/api/v1/payouts/account')).toHaveLength(1);
  });

  it("says a partner's payout account is connected, with no button to connect it again", async () => {
    stubApi({
      'GET /api/v1/partners/me': () => json(portal()),
      'GET /api/v1/payouts/earnings': () =>
        json({
          account: { status: 'enabled', connectedAt: '2026-11-23T10:00:00Z' },
          canConnect: true,
          payoutWindowDays: 7,
          totals: { pendingCents: 0, availableCents: 0, paidCents: 0 },
          lines: [],
        }),
    });
    renderApp('/partners/portal', { user: 'signed-in' });
    const card = await screen.findByTestId('partner-payouts', undefined, { timeout: 10_000 });
    expect(await within(card).findByTestId('partner-payout-connected')).toHaveTextContent('Payout account connected');
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('says pending in yellow with the review text, and has no promo box without a code', async () => {
    stubApi({ 'GET /api/v1/partners/me': () => json(portal({ account: { ...account, status: 'pending', promoCode: null }, recent: [] })) });
    renderApp('/partners/portal', { user: 'signed-in' });
    const badge = await screen.findByTestId('partner-status', undefined, { timeout: 10_000 });
    expect(badge).toHaveTextContent('PENDING');
    expect(badge).toHaveAttribute('data-tone', 'yellow');
    expect(screen.getByText('Your application is under review')).toBeInTheDocument();
    expect(screen.queryByTestId('promo-code')).toBeNull();
    expect(screen.getByText('No conversions yet. Start sharing your referral link!')).toBeInTheDocument();
  });

  it('shows a suspended account in red', async () => {
    stubApi({ 'GET /api/v1/partners/me': () => json(portal({ account: { ...account, status: 'suspended' } })) });
    renderApp('/partners/portal', { user: 'signed-in' });
    const badge = await screen.findByTestId('partner-status', undefined, { timeout: 10_000 });
    expect(badge).toHaveTextContent('SUSPENDED');
    expect(badge).toHaveAttribute('data-tone', 'red');
  });

  it('sends a user without an account to the application, each page asking once', async () => {
    const fetchMock = stubApi({ 'GET /api/v1/partners/me': () => apiError(404, 'partner_not_found', 'No partner account') });
    const { router } = renderApp('/partners/portal', { user: 'signed-in' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/partners/apply'), { timeout: 10_000 });
    // The portal asks once; the application page asks once for itself
    // (its own is-a-partner-already check). A 404 is never asked again.
    await screen.findByRole('heading', { name: 'Partner Application' }, { timeout: 10_000 });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/partners/me')).toHaveLength(2), { timeout: 10_000 });
    expect(await screen.findByRole('button', { name: /submit/i }, { timeout: 10_000 })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/partners/me')).toHaveLength(2);
  });
});

describe('/partners/leaderboard', { timeout: 20_000 }, () => {
  it('lists the top partners with the first highlighted', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({ 'GET /api/v1/partners/leaderboard': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderApp('/partners/leaderboard');
    expect(await screen.findByText('Loading leaderboard...', undefined, { timeout: 10_000 })).toBeInTheDocument();
    // The loading state can show before the request leaves (a busy machine): answer it once it has.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/v1/partners/leaderboard')).toHaveLength(1), { timeout: 10_000 });
    await act(async () =>
      answer(
        json([
          { rank: 1, displayName: 'Ada', tier: 'elite', totalEarnedCents: 123456 },
          { rank: 2, displayName: 'Bob', tier: 'starter', totalEarnedCents: 999 },
        ]),
      ),
    );
    const rows = await screen.findAllByTestId('partner-standing', undefined, { timeout: 10_000 });
    expect(rows[0]).toHaveTextContent('Rank 1');
    expect(rows[0]).toHaveTextContent('Ada');
    expect(rows[0]).toHaveTextContent('Elite');
    expect(rows[0]).toHaveTextContent('$1,234.56');
    expect(rows[0]).toHaveAttribute('data-first', 'true');
    expect(rows[1]).toHaveTextContent('Rank 2');
    expect(rows[1]).not.toHaveAttribute('data-first');
  });

  it('says when there is no one yet', async () => {
    stubApi({ 'GET /api/v1/partners/leaderboard': () => json([]) });
    renderApp('/partners/leaderboard');
    expect(await screen.findByText('No partners on the leaderboard yet', undefined, { timeout: 10_000 })).toBeInTheDocument();
  });
});

describe('/r/:code', { timeout: 20_000 }, () => {
  it('says Redirecting..., records the click once with the code, then goes home', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({ 'POST /functions/v1/track-referral': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { router } = renderApp('/r/ADA1');
    expect(await screen.findByText('Redirecting...', undefined, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/track-referral')).toHaveLength(1));
    expect(router.state.location.pathname).toBe('/r/ADA1');
    await act(async () => answer(json({ success: true })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const [sent] = callsTo(fetchMock, 'POST', '/functions/v1/track-referral');
    expect(await sent!.json()).toEqual({ code: 'ADA1' });
    expect(sent!.credentials).toBe('same-origin');
    expect(callsTo(fetchMock, 'POST', '/functions/v1/track-referral')).toHaveLength(1);
  });

  it('goes home when the tracking fails too', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'POST /functions/v1/track-referral': () => apiError(500, 'internal_error', 'Internal error') });
    const { router } = renderApp('/r/NOPE');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 10_000 });
    expect(warn).toHaveBeenCalled();
  });
});

describe('/admin/partners', { timeout: 20_000 }, () => {
  const adminPartner = { ...account, email: 'ada@example.com', status: 'pending', tier: 'starter', commissionRate: 0.15 };

  it('lists partners by status, approves one and sets its tier', async () => {
    const fetchMock = stubApi({
      ...admin,
      'GET /api/v1/admin/partners': () => json([adminPartner]),
      'POST /api/v1/admin/partners/p1/status': () => json({ ...adminPartner, status: 'approved' }),
      'POST /api/v1/admin/partners/p1/tier': () => json({ ...adminPartner, tier: 'pro', commissionRate: 0.2 }),
    });
    const { user } = renderApp('/admin/partners', { user: 'signed-in' });
    const row = await screen.findByTestId('partner-row', undefined, { timeout: 10_000 });
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Partner',
      'Code',
      'Status',
      'Tier',
      'Clicks',
      'Conv.',
      'Earned',
      'Actions',
    ]);
    expect(row).toHaveTextContent('ada@example.com');
    expect(row).toHaveTextContent('PENDING');
    expect(screen.getByRole('link', { name: 'View Payouts' })).toHaveAttribute('href', '/admin/payouts');

    await user.click(within(row).getByRole('button', { name: /Approve/ }));
    expect(await screen.findByText('Partner approved')).toBeInTheDocument();
    expect(await callsTo(fetchMock, 'POST', '/api/v1/admin/partners/p1/status')[0]!.json()).toEqual({ status: 'approved' });

    await user.selectOptions(within(row).getByLabelText('Tier for Ada Partner'), 'pro');
    expect(await screen.findByText('Tier updated to pro')).toBeInTheDocument();
    expect(await callsTo(fetchMock, 'POST', '/api/v1/admin/partners/p1/tier')[0]!.json()).toEqual({ tier: 'pro' });

    await user.click(screen.getByRole('button', { name: 'Suspended' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'GET', '/api/v1/admin/partners').some((request) => new URL(request.url).search === '?status=suspended')).toBe(true),
    );
    expect(new URL(callsTo(fetchMock, 'GET', '/api/v1/admin/partners')[0]!.url).search).toBe('');
  });

  it('offers Suspend for an approved partner and Reactivate for a suspended one', async () => {
    stubApi({
      ...admin,
      'GET /api/v1/admin/partners': () => json([{ ...adminPartner, status: 'approved' }, { ...adminPartner, id: 'p2', code: 'BOB1', status: 'suspended' }]),
    });
    renderApp('/admin/partners', { user: 'signed-in' });
    const [approved, suspended] = await screen.findAllByTestId('partner-row', undefined, { timeout: 10_000 });
    expect(within(approved!).getByRole('button', { name: /Suspend/ })).toBeInTheDocument();
    expect(within(suspended!).getByRole('button', { name: /Reactivate/ })).toBeInTheDocument();
  });

  it('asks before suspending a partner, saying what will happen, and suspends only on confirmation', async () => {
    const fetchMock = stubApi({
      ...admin,
      'GET /api/v1/admin/partners': () => json([{ ...adminPartner, status: 'approved' }]),
      [`POST /api/v1/admin/partners/${adminPartner.id}/status`]: () => json({ ...adminPartner, status: 'suspended' }),
    });
    const { user } = renderApp('/admin/partners', { user: 'signed-in' });
    const row = await screen.findByTestId('partner-row', undefined, { timeout: 10_000 });
    await user.click(within(row).getByRole('button', { name: /Suspend/ }));
    const confirm = await screen.findByRole('alertdialog', { name: `Suspend ${adminPartner.displayName}?` });
    expect(confirm).toHaveAccessibleDescription(/stop earning commission/);
    expect(callsTo(fetchMock, 'POST', `/api/v1/admin/partners/${adminPartner.id}/status`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Partner suspended')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const [sent] = callsTo(fetchMock, 'POST', `/api/v1/admin/partners/${adminPartner.id}/status`);
    expect(await sent!.json()).toEqual({ status: 'suspended' });
  });

  it('says when there are none, or when they cannot be loaded', async () => {
    stubApi({ ...admin, 'GET /api/v1/admin/partners': () => json([]) });
    const first = renderApp('/admin/partners', { user: 'signed-in' });
    expect(await screen.findByText('No partners found', undefined, { timeout: 10_000 })).toBeInTheDocument();
    first.unmount();
    stubApi({ ...admin, 'GET /api/v1/admin/partners': () => apiError(500, 'internal_error', 'Internal error') });
    renderApp('/admin/partners', { user: 'signed-in' });
    expect(await screen.findByText('Failed to load partners', undefined, { timeout: 10_000 })).toBeInTheDocument();
  });
});

describe('/admin/payouts', { timeout: 20_000 }, () => {
  it('lists partners with unpaid conversions and marks one paid', async () => {
    let payable = [{ partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payableCount: 2, payableCents: 400, pendingCount: 0, pendingCents: 0, nextPayableAt: null }];
    const fetchMock = stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () => json(payable),
      'POST /api/v1/admin/payouts/p1': () => {
        payable = [];
        return json({ id: 'po1', partnerId: 'p1', periodStart: '2026-11-01', periodEnd: '2026-11-23', totalAmountCents: 400, status: 'sent', createdAt: '2026-11-23T10:00:00Z' });
      },
    });
    const { user } = renderApp('/admin/payouts', { user: 'signed-in' });
    expect(await screen.findByRole('heading', { name: 'Partners with Unpaid Conversions' }, { timeout: 10_000 })).toBeInTheDocument();
    const row = await screen.findByRole('listitem', { name: 'Ada Partner' });
    expect(within(row).getByTestId('unpaid-count')).toHaveTextContent('2');
    expect(within(row).getByTestId('unpaid-amount')).toHaveTextContent('$4.00');
    expect(screen.getByRole('link', { name: 'Back to Partners' })).toHaveAttribute('href', '/admin/partners');
    await user.click(within(row).getByRole('button', { name: /Mark as Paid/ }));
    // Nothing is sent until the admin confirms, in a dialog that says what will happen.
    const confirm = await screen.findByRole('alertdialog', { name: "Mark Ada Partner's payout as paid?" });
    expect(confirm).toHaveAccessibleDescription(/records a payout of \$4\.00 for 2 conversions as sent to Ada Partner/);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1')).toHaveLength(0);
    await user.click(within(row).getByRole('button', { name: /Mark as Paid/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Mark as Paid' }));
    expect(await screen.findByText('Payout marked as sent')).toBeInTheDocument();
    expect(await screen.findByText('No unpaid conversions')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1')).toHaveLength(1);
  });

  it('lists a partner who owes money back, with the amount, and offers no payout', async () => {
    stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () =>
        json([
          { partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payableCount: 0, payableCents: 0, pendingCount: 0, pendingCents: 0, nextPayableAt: null, owedBackCents: 135 },
        ]),
    });
    renderApp('/admin/payouts', { user: 'signed-in' });
    const row = await screen.findByRole('listitem', { name: 'Ada Partner' }, { timeout: 10_000 });
    expect(within(row).getByTestId('owed-back-amount')).toHaveTextContent('$1.35');
    expect(within(row).getByTestId('owed-back-amount')).toHaveTextContent('deducted from the next payout');
    expect(within(row).getByRole('button', { name: /^Mark as Paid/ })).toBeDisabled();
  });

  it('pays a partner with a connected account through Stripe once, with both buttons disabled while it is sent', async () => {
    let payable = [
      { partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payableCount: 2, payableCents: 400, pendingCount: 0, pendingCents: 0, nextPayableAt: null, payoutAccount: 'enabled' },
    ];
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () => json(payable),
      'POST /api/v1/admin/payouts/p1/transfer': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user } = renderApp('/admin/payouts', { user: 'signed-in' });
    const row = await screen.findByRole('listitem', { name: 'Ada Partner' }, { timeout: 10_000 });
    expect(within(row).getByTestId('payout-account-status')).toHaveTextContent('Payout account: connected');
    const stripe = within(row).getByRole('button', { name: /^Pay through Stripe/ });
    const markPaid = within(row).getByRole('button', { name: /^Mark as Paid/ });
    await user.click(stripe);
    const confirm = await screen.findByRole('alertdialog', { name: 'Pay Ada Partner through Stripe?' });
    expect(confirm).toHaveAccessibleDescription(/sends \$4\.00 for 2 conversions to Ada Partner's connected payout account through Stripe/);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1/transfer')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Pay through Stripe' }));
    const sending = await within(confirm).findByRole('button', { name: 'Sending...' });
    expect(sending).toBeDisabled();
    expect(stripe).toBeDisabled();
    expect(markPaid).toBeDisabled();
    await user.click(sending);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1/transfer')).toHaveLength(1);
    payable = [];
    answer(
      json(
        { id: 'po1', partnerId: 'p1', periodStart: '2026-11-01', periodEnd: '2026-11-23', totalAmountCents: 400, status: 'sent', createdAt: '2026-11-23T10:00:00Z', method: 'stripe', transferId: 'tr_1' },
        201,
      ),
    );
    expect(await screen.findByText('Sent $4.00 to Ada Partner through Stripe')).toBeInTheDocument();
    expect(await screen.findByText('No unpaid conversions')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1/transfer')).toHaveLength(1);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1')).toHaveLength(0);
  });

  it('offers Pay through Stripe only to a connected account, and says each account state', async () => {
    const row = { payableCount: 1, payableCents: 200, pendingCount: 0, pendingCents: 0, nextPayableAt: null };
    stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () =>
        json([
          { ...row, partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payoutAccount: 'onboarding' },
          { ...row, partnerId: 'p2', displayName: 'Bo Partner', code: 'BO1', payoutAccount: null },
          { ...row, partnerId: 'p3', displayName: 'Cy Partner', code: 'CY1', payoutAccount: 'enabled', payableCents: 0, payableCount: 0, pendingCount: 1, pendingCents: 100 },
        ]),
    });
    renderApp('/admin/payouts', { user: 'signed-in' });
    const ada = await screen.findByRole('listitem', { name: 'Ada Partner' }, { timeout: 10_000 });
    const bo = screen.getByRole('listitem', { name: 'Bo Partner' });
    const cy = screen.getByRole('listitem', { name: 'Cy Partner' });
    expect(within(ada).getByTestId('payout-account-status')).toHaveTextContent('Payout account: setting up');
    expect(within(bo).getByTestId('payout-account-status')).toHaveTextContent('Payout account: not connected');
    expect(within(cy).getByTestId('payout-account-status')).toHaveTextContent('Payout account: connected');
    for (const item of [ada, bo, cy]) expect(within(item).queryByRole('button', { name: /Pay through Stripe/ })).toBeNull();
    expect(within(ada).getByRole('button', { name: /Mark as Paid/ })).toBeEnabled();
  });

  it("says a failed Stripe payout in words and leaves the dialog for another try", async () => {
    let answer = () => apiError(409, 'no_payout_account', 'This partner has not connected a payout account.');
    stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () =>
        json([{ partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payableCount: 1, payableCents: 200, pendingCount: 0, pendingCents: 0, nextPayableAt: null, payoutAccount: 'enabled' }]),
      'POST /api/v1/admin/payouts/p1/transfer': () => answer(),
    });
    const { user } = renderApp('/admin/payouts', { user: 'signed-in' });
    const row = await screen.findByRole('listitem', { name: 'Ada Partner' }, { timeout: 10_000 });
    await user.click(within(row).getByRole('button', { name: /Pay through Stripe/ }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Pay through Stripe' }));
    expect(await screen.findByText('This partner has not connected a payout account.')).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    const unconfirmed = 'Stripe did not confirm the transfer. Nothing is lost: press Pay through Stripe again to send the same transfer.';
    answer = () => apiError(502, 'payment_provider_failed', unconfirmed);
    await user.click(within(confirm).getByRole('button', { name: 'Pay through Stripe' }));
    expect(await screen.findByText(unconfirmed)).toBeInTheDocument();
    answer = () => apiError(502, 'payment_provider_failed', '');
    await user.click(within(confirm).getByRole('button', { name: 'Pay through Stripe' }));
    expect(await screen.findByText('Stripe did not accept the transfer. Nothing was marked as paid; press Pay through Stripe again to retry.')).toBeInTheDocument();
  });

  it('offers to send an unconfirmed Stripe transfer again, even with nothing new payable', async () => {
    const fetchMock = stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () =>
        json([
          { partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payableCount: 0, payableCents: 0, pendingCount: 0, pendingCents: 0, nextPayableAt: null, payoutAccount: 'enabled', unconfirmedTransferCents: 450 },
        ]),
      'POST /api/v1/admin/payouts/p1/transfer': () =>
        json({ id: 'po1', partnerId: 'p1', periodStart: '2026-11-01', periodEnd: '2026-11-28', totalAmountCents: 450, status: 'sent', createdAt: '2026-11-28T10:00:00Z', method: 'stripe', transferId: 'tr_1' }, 201),
    });
    const { user } = renderApp('/admin/payouts', { user: 'signed-in' });
    const row = await screen.findByRole('listitem', { name: 'Ada Partner' }, { timeout: 10_000 });
    expect(within(row).getByTestId('unconfirmed-amount')).toHaveTextContent('$4.50');
    expect(within(row).getByRole('button', { name: /^Mark as Paid/ })).toBeDisabled();
    await user.click(within(row).getByRole('button', { name: /^Pay through Stripe/ }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveAccessibleDescription(/unconfirmed transfer of \$4\.50 to Ada Partner again/);
    await user.click(within(confirm).getByRole('button', { name: 'Pay through Stripe' }));
    expect(await screen.findByText('Sent $4.50 to Ada Partner through Stripe')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/payouts/p1/transfer')).toHaveLength(1);
  });

  it('shows money still in its refund window with the date it becomes payable, with nothing to mark as paid yet', async () => {
    stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () =>
        json([
          { partnerId: 'p2', displayName: 'Bo Partner', code: 'BO1', payableCount: 0, payableCents: 0, pendingCount: 1, pendingCents: 150, nextPayableAt: '2026-12-27T10:00:00Z' },
        ]),
    });
    renderApp('/admin/payouts', { user: 'signed-in' });
    const row = await screen.findByRole('listitem', { name: 'Bo Partner' }, { timeout: 10_000 });
    expect(screen.queryByText('No unpaid conversions')).not.toBeInTheDocument();
    expect(within(row).getByTestId('pending-amount')).toHaveTextContent('$1.50 (1)payable on December 27, 2026');
    expect(within(row).getByRole('button', { name: /Mark as Paid/ })).toBeDisabled();
  });

  it("shows the server's message when there is nothing to pay", async () => {
    stubApi({
      ...admin,
      'GET /api/v1/admin/payouts': () =>
        json([{ partnerId: 'p1', displayName: 'Ada Partner', code: 'ADA1', payableCount: 1, payableCents: 200, pendingCount: 0, pendingCents: 0, nextPayableAt: null }]),
      'POST /api/v1/admin/payouts/p1': () => apiError(409, 'nothing_payable', 'No unpaid conversions'),
    });
    const { user } = renderApp('/admin/payouts', { user: 'signed-in' });
    const row = await screen.findByRole('listitem', { name: 'Ada Partner' }, { timeout: 10_000 });
    await user.click(within(row).getByRole('button', { name: /Mark as Paid/ }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Mark as Paid' }));
    expect(await screen.findByText('No unpaid conversions')).toBeInTheDocument();
    // A refusal leaves the dialog open, for Cancel or another try.
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});
