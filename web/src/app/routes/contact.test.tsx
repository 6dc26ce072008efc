import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContactRequest } from '@/resources/contact-requests/contact-requests';
import type { LeaderboardEntry } from '@/resources/leaderboard/get-leaderboard';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const entry: LeaderboardEntry = {
  photo_id: '00000000-0000-4000-8000-0000000000aa',
  rank: 2,
  image_url: '/api/v1/leaderboard/entries/2/image?v=1',
  display_name: 'Eileen',
  bio: null,
  score: 9.6,
  rating_label: 'Stunning',
  owner_verified: false,
  featured: false,
  contact_fee: 950,
  is_own: false,
};

function request(extra: Partial<ContactRequest> = {}): ContactRequest {
  return {
    id: '00000000-0000-4000-8000-0000000000c1',
    photoId: entry.photo_id,
    contestantName: 'Eileen',
    requesterName: 'Sam',
    role: 'requester',
    rankAtRequest: 2,
    feeCents: 95_000,
    contestantShareCents: 71_250,
    platformShareCents: 23_750,
    messagePreview: 'Hello Eileen, I love your photo!',
    paid: false,
    paymentStatus: 'pending_payment',
    status: 'pending',
    expiresAt: null,
    closed: false,
    otherUserId: '00000000-0000-4000-8000-0000000000e1',
    createdAt: '2026-11-26T10:00:00Z',
    ...extra,
  };
}

const LEADERBOARD = 'GET /api/v1/leaderboard';
const CHECKOUT = { url: '/checkout/sandbox/cs_contact_1', sessionId: 'cs_contact_1', amountCents: 95_000, currency: 'usd' };
const SANDBOX = {
  id: 'cs_contact_1',
  description: 'Contact request',
  amountCents: 95_000,
  currency: 'usd',
  mode: 'payment',
  status: 'open',
  successUrl: '/leaderboard?contact=success',
  cancelUrl: '/leaderboard?contact=canceled',
  notice: 'This is a test payment.',
};

beforeAll(async () => {
  await import('./leaderboard');
  await import('./contestant-requests');
}, 30_000);

async function openContactDialog(displayName: string | null = 'Ada') {
  const app = renderApp('/leaderboard', { user: 'signed-in', displayName });
  await app.user.click(await screen.findByRole('button', { name: 'Contact · $950, Eileen' }, { timeout: 10_000 }));
  return { ...app, dialog: await screen.findByRole('dialog', { name: 'Contact Eileen' }) };
}

describe('Contact on /leaderboard', { timeout: 20_000 }, () => {
  it('shows the price and the hold notice before payment, and keeps Send off while the message is empty', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }) });
    const { dialog, user } = await openContactDialog();
    expect(within(dialog).getByTestId('contact-price')).toHaveTextContent('$950');
    expect(within(dialog).getByTestId('contact-hold-notice')).toHaveTextContent(
      "Your card is only held, not charged, until the contestant answers. If they deny or don't answer within 7 days, the hold is released.",
    );
    // Paid for a conversation: the rule is said before paying, with the server's window.
    expect(await within(dialog).findByTestId('contact-reply-rule')).toHaveTextContent(
      'You pay for a conversation: if the contestant approves but sends you nothing within 7 days, you are refunded in full, automatically.',
    );
    const send = within(dialog).getByRole('button', { name: 'Send and pay $950' });
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Your message'), 'Hi there');
    expect(within(dialog).getByTestId('contact-counter')).toHaveTextContent('8/1000');
    expect(send).toBeEnabled();
    await user.click(send);
    expect(await within(dialog).findByText('Message must be at least 10 characters')).toBeInTheDocument();
  });

  it('opens the existing chat instead of a second request when the server says they are chatting', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      [`GET /api/v1/contact-requests/with/${entry.photo_id}`]: () =>
        json({ state: 'chatting', requestId: '00000000-0000-4000-8000-0000000000c1', expiresAt: null }),
    });
    const app = renderApp('/leaderboard', { user: 'signed-in' });
    await app.user.click(await screen.findByRole('button', { name: 'Contact · $950, Eileen' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'You are already chatting with Eileen' });
    expect(within(dialog).queryByRole('button', { name: /Send and pay/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Open chat' })).toHaveAttribute('href', '/messages/00000000-0000-4000-8000-0000000000c1');
    expect(callsTo(fetchMock, 'POST', '/api/v1/contact-requests')).toHaveLength(0);
  });

  it('says the request is waiting, with its answer-by date, instead of offering a second one', async () => {
    stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      [`GET /api/v1/contact-requests/with/${entry.photo_id}`]: () =>
        json({ state: 'waiting', requestId: '00000000-0000-4000-8000-0000000000c1', expiresAt: '2026-12-03T10:00:00Z' }),
    });
    const app = renderApp('/leaderboard', { user: 'signed-in' });
    await app.user.click(await screen.findByRole('button', { name: 'Contact · $950, Eileen' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Your request is waiting' });
    expect(within(dialog).getByTestId('contact-waiting')).toHaveTextContent('If they do not answer by December 3, 2026, the hold on your card is released.');
    expect(within(dialog).queryByRole('button', { name: /Send and pay/ })).not.toBeInTheDocument();
  });

  it('stores the request, starts its checkout with the spec’s metadata and opens the sandbox checkout', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      'POST /api/v1/contact-requests': () => json(request(), 201),
      'POST /functions/v1/create-checkout': () => json(CHECKOUT),
      'GET /api/v1/billing/sandbox/cs_contact_1': () => json(SANDBOX),
    });
    const { dialog, user, router } = await openContactDialog();
    await user.type(within(dialog).getByLabelText('Your message'), '  Hello Eileen, I love your photo!  ');
    await user.click(within(dialog).getByRole('button', { name: 'Send and pay $950' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_contact_1'));
    const [created] = callsTo(fetchMock, 'POST', '/api/v1/contact-requests');
    expect(await created!.json()).toEqual({ photoId: entry.photo_id, message: 'Hello Eileen, I love your photo!' });
    const [checkout] = callsTo(fetchMock, 'POST', '/functions/v1/create-checkout');
    expect(await checkout!.json()).toEqual({
      userId: '00000000-0000-4000-8000-000000000001',
      email: 'ada@example.com',
      type: 'contact_request',
      metadata: { contact_request_id: request().id, fee_amount: 950, rank: 2 },
    });
    expect(checkout!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('asks a requester without a display name for one, saves it to the account, then sends', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      'POST /api/v1/contact-requests': () => json(request({ requesterName: 'Sam Spade' }), 201),
      'POST /functions/v1/create-checkout': () => json(CHECKOUT),
      'GET /api/v1/billing/sandbox/cs_contact_1': () => json(SANDBOX),
    });
    const { dialog, user, auth, router } = await openContactDialog(null);
    const name = within(dialog).getByLabelText('Your display name');
    expect(within(dialog).getByText(/never your email/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Your message'), 'Hello Eileen, I love your photo!');
    await user.click(within(dialog).getByRole('button', { name: 'Send and pay $950' }));
    expect(await within(dialog).findByText('Please enter a display name')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(auth.mocks.updateUser).not.toHaveBeenCalled();
    expect(callsTo(fetchMock, 'POST', '/api/v1/contact-requests')).toHaveLength(0);

    await user.type(name, ' Sam Spade ');
    await user.click(within(dialog).getByRole('button', { name: 'Send and pay $950' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_contact_1'));
    expect(auth.mocks.updateUser).toHaveBeenCalledWith({ data: { display_name: 'Sam Spade' } });
    // The name was saved before the request was sent.
    expect(auth.mocks.updateUser.mock.invocationCallOrder[0]).toBeLessThan(fetchMock.mock.invocationCallOrder.at(-1)!);
    expect(callsTo(fetchMock, 'POST', '/api/v1/contact-requests')).toHaveLength(1);
  });

  it('asks for the name when the server says the requester has none, and does not ask a named requester', async () => {
    const answers = [
      () =>
        apiError(
          422,
          'display_name_required',
          'Please add a display name before contacting a contestant, so they know who is writing.',
        ),
      () => json(request(), 201),
    ];
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      'POST /api/v1/contact-requests': () => answers.shift()!(),
      'POST /functions/v1/create-checkout': () => json(CHECKOUT),
      'GET /api/v1/billing/sandbox/cs_contact_1': () => json(SANDBOX),
    });
    const { dialog, user, auth, router } = await openContactDialog('Ada');
    expect(within(dialog).queryByLabelText('Your display name')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Your message'), 'Hello Eileen, I love your photo!');
    await user.click(within(dialog).getByRole('button', { name: 'Send and pay $950' }));
    expect(
      await within(dialog).findByText('Please add a display name before contacting a contestant, so they know who is writing.'),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Your display name'), 'Ada L.');
    await user.click(within(dialog).getByRole('button', { name: 'Send and pay $950' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/sandbox/cs_contact_1'));
    expect(auth.mocks.updateUser).toHaveBeenCalledWith({ data: { display_name: 'Ada L.' } });
    expect(callsTo(fetchMock, 'POST', '/api/v1/contact-requests')).toHaveLength(2);
  });

  it('shows the server’s word for an open request, and the spec’s for a failure or a missing URL', async () => {
    const answers = [
      () => apiError(409, 'request_open', 'You already have an open request with this contestant'),
      () => apiError(500, 'internal_error', 'boom'),
      () => json(request(), 201),
    ];
    stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      'POST /api/v1/contact-requests': () => answers.shift()!(),
      'POST /functions/v1/create-checkout': () => json({ ...CHECKOUT, url: '' }),
    });
    const { dialog, user } = await openContactDialog();
    await user.type(within(dialog).getByLabelText('Your message'), 'Hello Eileen, I love your photo!');
    const send = within(dialog).getByRole('button', { name: 'Send and pay $950' });
    await user.click(send);
    expect(await screen.findByText('You already have an open request with this contestant')).toBeInTheDocument();
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    expect(await screen.findByText('Failed to process request. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    expect(await screen.findByText('No checkout URL returned')).toBeInTheDocument();
    // The message is still there to try again.
    expect(within(dialog).getByLabelText('Your message')).toHaveValue('Hello Eileen, I love your photo!');
  });

  it('says the request was sent, or that checkout was canceled, when the checkout comes back', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }) });
    const { router } = renderApp('/leaderboard?contact=success', { user: 'signed-in' });
    expect(await screen.findByText('Request sent! The contestant has 7 days to answer.', {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says when the payment was a second one for the request, released at once', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      'GET /api/v1/billing/checkouts/cs_second': () =>
        json({ status: 'complete', paymentStatus: 'canceled', givenBack: true, message: 'This request was paid for already. The hold was released at once.' }),
    });
    const { router } = renderApp('/leaderboard?contact=success&checkout=cs_second', { user: 'signed-in' });
    expect(await screen.findByText('This request was paid for already. The hold was released at once.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText('Request sent! The contestant has 7 days to answer.')).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/api/v1/billing/checkouts/cs_second')).toHaveLength(1);
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says the request was sent when its payment is the one that counts', async () => {
    stubApi({
      [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }),
      'GET /api/v1/billing/checkouts/cs_first': () => json({ status: 'complete', paymentStatus: 'held', givenBack: false, message: null }),
    });
    renderApp('/leaderboard?contact=success&checkout=cs_first', { user: 'signed-in' });
    expect(await screen.findByText('Request sent! The contestant has 7 days to answer.', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('says a canceled checkout charged nothing', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry], next_cursor: null }) });
    renderApp('/leaderboard?contact=canceled', { user: 'signed-in' });
    expect(await screen.findByText(/Checkout canceled/, {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});

describe('/contestant-requests', { timeout: 20_000 }, () => {
  const pending = request({
    id: '00000000-0000-4000-8000-0000000000d1',
    role: 'contestant',
    requesterName: 'Sam',
    paid: true,
    paymentStatus: 'paid',
    expiresAt: '2026-12-03T10:00:00Z',
  });
  const approved = request({ id: '00000000-0000-4000-8000-0000000000d2', role: 'contestant', requesterName: 'Kim', paid: true, paymentStatus: 'paid', status: 'approved' });
  const deniedSent = request({ id: '00000000-0000-4000-8000-0000000000d3', paid: true, paymentStatus: 'refunded', status: 'denied' });

  it('asks a visitor to sign in first', async () => {
    stubApi({});
    const { router } = renderApp('/contestant-requests');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('lists pending requests with the requester’s name, message, fee, the 75% share and the answer-by date', async () => {
    stubApi({
      'GET /api/v1/contact-requests/received': () => json([pending, approved]),
      'GET /api/v1/contact-requests/sent': () => json([deniedSent]),
      'GET /api/v1/contact-requests/unread': () => json({ awaitingAnswer: 1, unreadMessages: 2 }),
      'GET /api/v1/app-config': () => json({ contact_email: 'help@example.com', site_name: 'PrettyScore', reply_window_days: 5 }),
    });
    renderApp('/contestant-requests', { user: 'signed-in' });
    const card = await screen.findByTestId('received-request', {}, { timeout: 10_000 });
    expect(within(card).getByRole('heading', { name: 'Sam' })).toBeInTheDocument();
    expect(within(card).getByTestId('request-message')).toHaveTextContent('Hello Eileen, I love your photo!');
    expect(within(card).getByTestId('request-fee')).toHaveTextContent('$950.00');
    expect(within(card).getByTestId('request-share')).toHaveTextContent('$712.50');
    expect(within(card).getByTestId('request-expires')).toHaveTextContent('December 3, 2026');
    await waitFor(() =>
      expect(within(card).getByTestId('request-reply-rule')).toHaveTextContent(
        'You are paid for a conversation, not a click: after you approve, your 75% becomes payable once you have written to them in the chat and the refund window has passed. If you send nothing within 5 days of approving, they are refunded in full.',
      ),
    );
    expect(screen.getByTestId('payouts-note')).toHaveTextContent('sent to your payout account');
    expect(within(screen.getByTestId('payouts-note')).getByRole('link', { name: 'See your earnings' })).toHaveAttribute('href', '/earnings');
    expect(screen.getByRole('tab', { name: 'Pending (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Approved (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sent (1)' })).toBeInTheDocument();
    // The side menu's badge: requests to answer plus unread messages.
    expect(await screen.findByTestId('contact-unread-badge')).toHaveTextContent('3');
  });

  it('says a refunded approval earns nothing, on both sides', async () => {
    const refunded = { ...approved, paymentStatus: 'refunded' };
    stubApi({
      'GET /api/v1/contact-requests/received': () => json([refunded]),
      'GET /api/v1/contact-requests/sent': () => json([{ ...refunded, role: 'requester' }]),
    });
    const { user } = renderApp('/contestant-requests', { user: 'signed-in' });
    await user.click(await screen.findByRole('tab', { name: 'Approved (1)' }, { timeout: 10_000 }));
    const card = await screen.findByTestId('received-request');
    expect(within(card).getByTestId('request-refunded')).toHaveTextContent('The requester was refunded: this request earns you nothing.');
    expect(within(card).queryByTestId('request-reply-rule')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Sent (1)' }));
    const sent = await screen.findByTestId('sent-request');
    expect(within(sent).getByTestId('sent-status')).toHaveTextContent('Refunded');
    expect(sent).toHaveTextContent('Your fee was refunded to your card in full. We mailed you why.');
  });

  it('approves and denies through the server, and says when it failed', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/contact-requests/received': () => json([pending]),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`POST /api/v1/contact-requests/${pending.id}/approve`]: () => apiError(502, 'payment_provider_failed', 'The payment provider did not answer'),
      [`POST /api/v1/contact-requests/${pending.id}/deny`]: () => json({ ...pending, status: 'denied' }),
    });
    const { user } = renderApp('/contestant-requests', { user: 'signed-in' });
    const card = await screen.findByTestId('received-request', {}, { timeout: 10_000 });
    await user.click(within(card).getByRole('button', { name: "Approve Sam's request" }));
    expect(await screen.findByText('Failed to approve request')).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole('button', { name: "Deny Sam's request" })).toBeEnabled());
    await user.click(within(card).getByRole('button', { name: "Deny Sam's request" }));
    expect(await screen.findByText('Request denied. Their card hold was released.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `/api/v1/contact-requests/${pending.id}/deny`)).toHaveLength(1);
  });

  it('says the request was approved when the live update moves its card away before the answer arrives', async () => {
    let answered = false;
    let respond!: () => void;
    stubApi({
      'GET /api/v1/contact-requests/received': () => json([answered ? { ...pending, status: 'approved' } : pending]),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`POST /api/v1/contact-requests/${pending.id}/approve`]: async () => {
        answered = true;
        await new Promise<void>((resolve) => {
          respond = resolve;
        });
        return json({ ...pending, status: 'approved' });
      },
    });
    const { user, queryClient } = renderApp('/contestant-requests', { user: 'signed-in' });
    const card = await screen.findByTestId('received-request', {}, { timeout: 10_000 });
    await user.click(within(card).getByRole('button', { name: "Approve Sam's request" }));
    await waitFor(() => expect(answered).toBe(true));
    // The event stream's update: the lists refetch and the pending card goes.
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.queryByRole('button', { name: "Approve Sam's request" })).not.toBeInTheDocument());
    respond();
    expect(await screen.findByText('Request approved! You can now chat.')).toBeInTheDocument();
  });

  it('blocks a requester after a confirmation', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/contact-requests/received': () => json([pending]),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`POST /api/v1/contact-requests/${pending.id}/block`]: () => new Response(null, { status: 204 }),
    });
    const { user } = renderApp('/contestant-requests', { user: 'signed-in' });
    const card = await screen.findByTestId('received-request', {}, { timeout: 10_000 });
    await user.click(within(card).getByRole('button', { name: 'Block Sam' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Block Sam?' });
    expect(confirm).toHaveTextContent('Their open requests to you are denied');
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Requester blocked')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `/api/v1/contact-requests/${pending.id}/block`)).toHaveLength(1);
  });

  it('reports a requester with a reason, says it blocks them too, and refreshes the inbox', async () => {
    let reported = false;
    const fetchMock = stubApi({
      'GET /api/v1/contact-requests/received': () => json(reported ? [{ ...approved, closed: true }] : [pending, approved]),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`POST /api/v1/contact-requests/${pending.id}/report`]: () => {
        reported = true;
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderApp('/contestant-requests', { user: 'signed-in' });
    const card = await screen.findByTestId('received-request', {}, { timeout: 10_000 });
    await user.click(within(card).getByRole('button', { name: 'Report Sam' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report Sam' });
    expect(dialog).toHaveTextContent('Reporting also blocks them: their open requests to you are denied');
    expect(dialog).toHaveTextContent('any chat with them closes');

    const reason = within(dialog).getByLabelText('Why are you reporting this requester?');
    expect(reason).toHaveAttribute('maxlength', '500');
    const send = within(dialog).getByRole('button', { name: 'Report and block' });
    expect(send).toBeDisabled();
    await user.type(reason, '   ');
    expect(send).toBeDisabled();
    await user.type(reason, 'Rude and pushy ');
    expect(within(dialog).getByTestId('report-counter')).toHaveTextContent('18/500');
    await user.click(send);

    expect(await screen.findByText('Requester reported and blocked')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [call] = callsTo(fetchMock, 'POST', `/api/v1/contact-requests/${pending.id}/report`);
    expect(await call!.json()).toEqual({ reason: 'Rude and pushy' });
    // The inbox is read again: Sam's pending request is gone (denied by the block).
    expect(await screen.findByRole('tab', { name: 'Pending (0)' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/v1/contact-requests/received').length).toBeGreaterThan(1);
  });

  it('offers Report on approved requests and shows the server’s word for a repeated report or a refused reason', async () => {
    stubApi({
      'GET /api/v1/contact-requests/received': () => json([approved]),
      'GET /api/v1/contact-requests/sent': () => json([]),
      [`POST /api/v1/contact-requests/${approved.id}/report`]: async (call) => {
        const { reason } = (await call.json()) as { reason: string };
        return reason === 'again'
          ? apiError(409, 'conflict', 'You have reported this request already')
          : reason === 'bad'
            ? apiError(422, 'validation_failed', 'Reason contains characters that are not allowed')
            : apiError(500, 'internal_error', 'boom');
      },
    });
    const { user } = renderApp('/contestant-requests', { user: 'signed-in' });
    await user.click(await screen.findByRole('tab', { name: 'Approved (1)' }, { timeout: 10_000 }));
    const card = await screen.findByTestId('received-request');

    const openReport = async () => {
      await user.click(within(card).getByRole('button', { name: 'Report Kim' }));
      return screen.findByRole('dialog', { name: 'Report Kim' });
    };
    const report = async (text: string) => {
      const dialog = screen.queryByRole('dialog') ?? (await openReport());
      const reason = within(dialog).getByLabelText('Why are you reporting this requester?');
      await user.clear(reason);
      await user.type(reason, text);
      await user.click(within(dialog).getByRole('button', { name: 'Report and block' }));
    };

    await report('bad');
    expect(await screen.findByText('Reason contains characters that are not allowed')).toBeInTheDocument();
    await report('down');
    expect(await screen.findByText('Failed to report requester')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Report Kim' })).toBeInTheDocument();
    await report('again');
    expect(await screen.findByText('You have reported this request already')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('links approved requests to their chat and tells the requester a denied request released the hold', async () => {
    stubApi({
      'GET /api/v1/contact-requests/received': () => json([approved]),
      'GET /api/v1/contact-requests/sent': () => json([deniedSent]),
    });
    const { user } = renderApp('/contestant-requests', { user: 'signed-in' });
    await user.click(await screen.findByRole('tab', { name: 'Approved (1)' }, { timeout: 10_000 }));
    expect(await screen.findByRole('link', { name: 'Open chat with Kim' })).toHaveAttribute('href', `/messages/${approved.id}`);
    await user.click(screen.getByRole('tab', { name: 'Sent (1)' }));
    const sent = await screen.findByTestId('sent-request');
    expect(within(sent).getByTestId('sent-status')).toHaveTextContent('Denied');
    expect(sent).toHaveTextContent('The hold on your card was released');
  });

  it('says Failed to load contact requests when the inbox cannot be read', async () => {
    stubApi({
      'GET /api/v1/contact-requests/received': () => apiError(500, 'internal_error', 'boom'),
      'GET /api/v1/contact-requests/sent': () => json([]),
    });
    renderApp('/contestant-requests', { user: 'signed-in' });
    expect(await screen.findByText('Failed to load contact requests', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});
