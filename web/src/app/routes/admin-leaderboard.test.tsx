import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function contactReport(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    contactRequestId: `00000000-0000-4000-8000-0000000000${id}`,
    reporterId: 'u1',
    reportedId: 'u2',
    reportedName: 'Sam',
    reportedEmail: 'sam@example.com',
    reason: 'Rude and pushy',
    messagePreview: 'Hello Eileen, I love your photo!',
    status: 'open',
    createdAt: '2026-11-26T10:00:00Z',
    ...extra,
  };
}

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
      'GET /api/v1/admin/contact-reports': () => json([]),
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
      'GET /api/v1/admin/leaderboard/reports': () => json([]),
      'GET /api/v1/admin/contact-reports': () => json([]),
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

  it('lists reported requesters, open ones first, and marks an open one resolved', async () => {
    let resolved = false;
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/leaderboard/entries': () => json([]),
      'GET /api/v1/admin/leaderboard/reports': () => json([]),
      'GET /api/v1/admin/contact-reports': () =>
        json([
          contactReport('r0', { reportedName: 'Old', reportedEmail: null, status: 'resolved', createdAt: '2026-11-20T10:00:00Z' }),
          contactReport('r1', { status: resolved ? 'resolved' : 'open' }),
        ]),
      'POST /api/v1/admin/contact-reports/r1/resolve': () => {
        resolved = true;
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderApp('/admin/leaderboard', { user: 'signed-in' });
    const section = within(await screen.findByRole('region', { name: 'Reported requesters' }, { timeout: 5000 }));
    const [first, second] = await section.findAllByTestId('contact-report');
    const open = within(first!);
    expect(open.getByRole('heading', { name: 'Sam' })).toBeInTheDocument();
    expect(first).toHaveTextContent('sam@example.com');
    expect(first).toHaveTextContent('Rude and pushy');
    expect(first).toHaveTextContent('Hello Eileen, I love your photo!');
    expect(open.getByTestId('contact-report-status')).toHaveTextContent('Open');
    expect(within(second!).getByRole('heading', { name: 'Old' })).toBeInTheDocument();
    expect(second).toHaveTextContent('No email address');
    expect(within(second!).getByTestId('contact-report-status')).toHaveTextContent('Resolved');
    expect(within(second!).queryByRole('button', { name: 'Mark resolved' })).toBeNull();

    const resolve = open.getByRole('button', { name: 'Mark resolved' });
    expect(resolve).toHaveAccessibleDescription('Sam');
    await user.click(resolve);
    expect(await screen.findByText('Report marked resolved')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/contact-reports/r1/resolve')).toHaveLength(1);
    // Read again: nothing is left to resolve.
    await waitFor(() => expect(section.queryByRole('button', { name: 'Mark resolved' })).toBeNull());
  });

  it('shows the server’s word when a report was resolved before, and the empty text', async () => {
    let reports = [contactReport('r1')];
    stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/leaderboard/entries': () => json([]),
      'GET /api/v1/admin/leaderboard/reports': () => json([]),
      'GET /api/v1/admin/contact-reports': () => json(reports),
      'POST /api/v1/admin/contact-reports/r1/resolve': () => {
        reports = [];
        return apiError(409, 'conflict', 'This report was resolved already.');
      },
    });
    const { user } = renderApp('/admin/leaderboard', { user: 'signed-in' });
    await user.click(await screen.findByRole('button', { name: 'Mark resolved' }, { timeout: 5000 }));
    expect(await screen.findByText('This report was resolved already.')).toBeInTheDocument();
    expect(await screen.findByText('No reported requesters')).toBeInTheDocument();
  });

  it('keeps reported requesters behind the admin check', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => apiError(403, 'admin_only', 'Admin only'),
    });
    renderApp('/admin/leaderboard', { user: 'signed-in' });
    expect(await screen.findByText('Access denied: Admin only', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Reported requesters' })).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/api/v1/admin/contact-reports')).toHaveLength(0);
  });
});
