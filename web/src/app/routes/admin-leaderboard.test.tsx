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
    const confirm = await screen.findByRole('alertdialog', { name: 'Reject Astro?' });
    expect(confirm).toHaveAccessibleDescription(/its owner sees it rejected with your reason: “Not you”/);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p1/reject')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Entry rejected')).toBeInTheDocument();
    const [rejection] = callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p1/reject');
    expect(await rejection!.json()).toEqual({ reason: 'Not you' });

    await user.click(card.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Entry approved')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p1/approve')).toHaveLength(1);
  });

  it('shows the nudity check’s scores beside a held photo and releases it after a confirmation', async () => {
    const held = {
      ...pending,
      photo_id: 'p2',
      display_name: null,
      status: '',
      contest_month: null,
      screening: { scores: { drawing: 0.13, hentai: 0.81, neutral: 0.003, porn: 0.05, sexy: 0.006 }, unsafe_share: 0.86, flagged: true, held: true },
    };
    let released = false;
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/leaderboard/entries': (request) =>
        json(new URL(request.url).searchParams.get('status') === 'held' && !released ? [held] : []),
      'POST /api/v1/admin/leaderboard/entries/p2/release': () => {
        released = true;
        return json({ ...held, screening: { ...held.screening, held: false } });
      },
    });
    const { user } = renderApp('/admin/leaderboard', { user: 'signed-in' });
    await user.click(await screen.findByRole('button', { name: 'Held by screening' }, { timeout: 5000 }));
    const card = within(await screen.findByTestId('moderation-entry'));
    const scores = card.getByTestId('screening-scores');
    expect(scores).toHaveTextContent('Screening: flagged, held for review (unsafe 86%)');
    expect(scores).toHaveTextContent('Hentai81%');
    expect(scores).toHaveTextContent('Neutral0%');
    expect(card.getByText('Shared result (not a leaderboard entry)')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Approve' })).toBeNull();

    await user.click(card.getByRole('button', { name: 'Release' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Release this entry?' });
    expect(confirm).toHaveAccessibleDescription(/its share page and card become public at once/);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p2/release')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Release' }));
    expect(await screen.findByText('Photo released')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/leaderboard/entries/p2/release')).toHaveLength(1);
    expect(await screen.findByText('No entries here.')).toBeInTheDocument();
  });

  it('points to the one report queue instead of a list of its own', async () => {
    stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/leaderboard/entries': () => json([]),
    });
    renderApp('/admin/leaderboard', { user: 'signed-in' });
    const link = await screen.findByRole('link', { name: 'open the reports' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', '/admin/reports');
  });
});
