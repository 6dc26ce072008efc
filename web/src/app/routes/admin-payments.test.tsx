import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const ACCESS = 'GET /api/v1/admin/access';
const PAYMENT_ID = '00000000-0000-4000-8000-0000000000e1';

function payment(extra: Record<string, unknown> = {}) {
  return {
    id: PAYMENT_ID,
    userId: '00000000-0000-4000-8000-0000000000b1',
    email: 'fan@example.com',
    purpose: 'contact_request',
    description: 'Contact request fee',
    amountCents: 95_000,
    refundedCents: 0,
    currency: 'usd',
    status: 'succeeded',
    provider: 'sandbox',
    createdAt: '2026-12-01T10:00:00Z',
    duplicate: false,
    refundable: true,
    refund: null,
    share: 'transferred',
    ...extra,
  };
}

describe('/admin/payments', { timeout: 20_000 }, () => {
  it('refunds a payment with a reason, and says what became of the share', async () => {
    let refunded = false;
    const fetchMock = stubApi({
      [ACCESS]: () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/payments': () =>
        json([
          refunded
            ? payment({ status: 'refunded', refundedCents: 95_000, refundable: false, share: 'reversed', refund: { reason: 'Never answered', requestedAt: '2026-12-02T10:00:00Z', doneAt: '2026-12-02T10:00:01Z', lastError: null } })
            : payment(),
        ]),
      [`POST /api/v1/admin/payments/${PAYMENT_ID}/refund`]: () => {
        refunded = true;
        return json(payment({ status: 'refunded', refundedCents: 95_000, refundable: false, share: 'reversed' }));
      },
    });
    const { user } = renderApp('/admin/payments', { user: 'signed-in' });
    const row = await screen.findByTestId('admin-payment', {}, { timeout: 5000 });
    expect(row).toHaveTextContent('Contact request fee');
    expect(row).toHaveTextContent('fan@example.com');
    expect(row).toHaveTextContent('Payee’s share: paid out');
    expect(row).toHaveTextContent('test payment');
    await user.click(within(row).getByRole('button', { name: /Refund/ }));
    const dialog = await screen.findByTestId('refund-dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Refund $950.00' });
    // A reason is needed.
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Never answered');
    await user.click(confirm);
    expect(await screen.findByText(/Refunded\. The payer gets the money back/)).toBeInTheDocument();
    const calls = callsTo(fetchMock, 'POST', `/api/v1/admin/payments/${PAYMENT_ID}/refund`);
    expect(calls).toHaveLength(1);
    expect(await calls[0]!.json()).toEqual({ reason: 'Never answered' });
    await waitFor(() => expect(screen.getByTestId('payment-status')).toHaveTextContent('Refunded ($950.00 back)'));
    expect(screen.getByTestId('payment-share')).toHaveTextContent('taken back');
    expect(screen.getByTestId('payment-refund')).toHaveTextContent('Never answered');
    expect(screen.queryByRole('button', { name: /Refund/ })).toBeNull();
  });

  it('shows the server’s words when the payment was refunded before', async () => {
    stubApi({
      [ACCESS]: () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/payments': () => json([payment({ status: 'held', share: 'held', description: 'Contact request fee' })]),
      [`POST /api/v1/admin/payments/${PAYMENT_ID}/refund`]: () => apiError(409, 'already_refunded', 'A refund of this payment is already under way.'),
    });
    const { user } = renderApp('/admin/payments', { user: 'signed-in' });
    const row = await screen.findByTestId('admin-payment', {}, { timeout: 5000 });
    await user.click(within(row).getByRole('button', { name: /Refund/ }));
    const dialog = await screen.findByTestId('refund-dialog');
    expect(dialog).toHaveTextContent('The hold on their card is released');
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Duplicate');
    await user.click(within(dialog).getByRole('button', { name: 'Release hold' }));
    expect(await screen.findByText('A refund of this payment is already under way.')).toBeInTheDocument();
  });
});
