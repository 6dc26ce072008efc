import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const pending = {
  id: 'v1',
  fullName: 'Ada Lovelace',
  reason: 'People copy my photos.',
  instagramHandle: 'ada.l',
  otherSocial: null,
  status: 'pending',
  adminNotes: null,
  createdAt: '2026-11-20T10:00:00Z',
  reviewedAt: null,
};

beforeAll(async () => {
  await import('./request-verification');
  await import('./admin/verification');
}, 30_000);

describe('/request-verification', { timeout: 20_000 }, () => {
  it('needs a name and a reason, then sends the request and shows it pending', async () => {
    let request: typeof pending | null = null;
    const fetchMock = stubApi({
      'GET /api/v1/verification/mine': () => json({ verified: false, request }),
      'POST /api/v1/verification/requests': () => {
        request = pending;
        return json(pending, 201);
      },
    });
    const { user } = renderApp('/request-verification', { user: 'signed-in' });
    await user.click(await screen.findByRole('button', { name: 'Submit Verification Request' }, { timeout: 10_000 }));
    expect(await screen.findByText('Full name is required')).toBeInTheDocument();
    expect(screen.getByText('Please tell us why you should be verified')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Full Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Why should you be verified?'), 'People copy my photos.');
    await user.type(screen.getByLabelText('Instagram Handle'), '@ada.l');
    await user.click(screen.getByRole('button', { name: 'Submit Verification Request' }));
    expect(await screen.findByText("Verification request submitted! We'll review it soon.")).toBeInTheDocument();
    expect(await screen.findByTestId('verification-request')).toHaveTextContent('pending');
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/verification/requests');
    expect(await sent!.json()).toEqual({ fullName: 'Ada Lovelace', reason: 'People copy my photos.', instagramHandle: '@ada.l' });
  });

  it('shows a rejected request with its notes, and a verified user the badge', async () => {
    stubApi({ 'GET /api/v1/verification/mine': () => json({ verified: false, request: { ...pending, status: 'rejected', adminNotes: 'No public profile.' } }) });
    const first = renderApp('/request-verification', { user: 'signed-in' });
    const card = await screen.findByTestId('verification-request', undefined, { timeout: 10_000 });
    expect(card).toHaveTextContent('Your request was rejected. Please contact support for more information.');
    expect(card).toHaveTextContent('No public profile.');
    first.unmount();

    stubApi({ 'GET /api/v1/verification/mine': () => json({ verified: true, request: { ...pending, status: 'approved' } }) });
    renderApp('/request-verification', { user: 'signed-in' });
    const verified = await screen.findByTestId('verified', undefined, { timeout: 10_000 });
    expect(verified).toHaveTextContent("You're Verified!");
    expect(within(verified).getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('says the request failed', async () => {
    stubApi({
      'GET /api/v1/verification/mine': () => json({ verified: false, request: null }),
      'POST /api/v1/verification/requests': () => apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.'),
    });
    const { user } = renderApp('/request-verification', { user: 'signed-in' });
    await user.type(await screen.findByLabelText('Full Name', {}, { timeout: 10_000 }), 'Ada');
    await user.type(screen.getByLabelText('Why should you be verified?'), 'Because.');
    await user.click(screen.getByRole('button', { name: 'Submit Verification Request' }));
    expect(await screen.findByText('Failed to submit verification request')).toBeInTheDocument();
  });
});

describe('/admin/verification', { timeout: 20_000 }, () => {
  it('approves a pending request with notes', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/verification/requests': () => json([pending]),
      'POST /api/v1/admin/verification/requests/v1/approve': () => json({ ...pending, status: 'approved' }),
    });
    const { user } = renderApp('/admin/verification', { user: 'signed-in' });
    const card = within(await screen.findByRole('listitem', { name: 'Ada Lovelace' }, { timeout: 10_000 }));
    expect(card.getByText('@ada.l')).toBeInTheDocument();
    await user.type(card.getByLabelText('Admin Notes'), 'Checked.');
    await user.click(card.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Verification request approved!')).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/admin/verification/requests/v1/approve');
    expect(await sent!.json()).toEqual({ adminNotes: 'Checked.' });
  });

  it('says when nothing is there, and when the list fails', async () => {
    stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/verification/requests': () => json([]),
    });
    const first = renderApp('/admin/verification', { user: 'signed-in' });
    expect(await screen.findByText('No verification requests found.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    first.unmount();
    stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/verification/requests': () => apiError(500, 'internal_error', 'x'),
    });
    renderApp('/admin/verification', { user: 'signed-in' });
    expect(await screen.findByText('Failed to load verification requests', undefined, { timeout: 10_000 })).toBeInTheDocument();
  });
});
