import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const pending = {
  photo_id: 'p1',
  image_url: '/media/p1.jpg?token=t',
  score: 9.6,
  rating_label: 'Gorgeous',
  display_name: 'Astro',
  bio: null,
  owner_id: 'u1',
  owner_email: 'owner@example.com',
  status: 'pending',
  rejection_reason: null,
  featured: false,
  listed: false,
  contest_month: '2026-11',
  attested_adult: true,
  attested_original: true,
  open_reports: 0,
  created_at: '2026-11-01T00:00:00Z',
  reviewed_at: null,
};

describe('/admin/leaderboard', () => {
  it('lists pending entries with photo, score and owner, and approves or rejects with a reason', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/leaderboard/entries': () => json([pending]),
      'GET /api/v1/admin/leaderboard/reports': () => json([]),
      'POST /api/v1/admin/leaderboard/entries/p1/approve': () => json({ ...pending, status: 'approved', listed: true }),
      'POST /api/v1/admin/leaderboard/entries/p1/reject': () => json({ ...pending, status: 'rejected' }),
    });
    const { user } = renderApp('/admin/leaderboard', { user: 'signed-in' });
    const card = within(await screen.findByTestId('moderation-entry', {}, { timeout: 5000 }));
    expect(card.getByText(/Astro · 9.6\/10 Gorgeous/)).toBeInTheDocument();
    expect(card.getByText('Owner: owner@example.com')).toBeInTheDocument();
    expect(card.getByRole('img', { name: 'Entry of Astro' })).toHaveAttribute('src', '/media/p1.jpg?token=t');

    const reject = card.getByRole('button', { name: 'Reject' });
    expect(reject).toBeDisabled();
    await user.type(card.getByLabelText(/Reason for rejection/), 'Not you');
    await user.click(reject);
    expect(await screen.findByText('Entry rejected')).toBeInTheDocument();
    const [rejection] = callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p1/reject');
    expect(await rejection!.json()).toEqual({ reason: 'Not you' });

    await user.click(card.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Entry approved')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p1/approve')).toHaveLength(1);
  });
});
