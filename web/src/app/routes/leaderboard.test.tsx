import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LeaderboardEntry } from '@/resources/leaderboard/get-leaderboard';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function entry(rank: number, extra: Partial<LeaderboardEntry> = {}): LeaderboardEntry {
  return {
    photo_id: `00000000-0000-0000-0000-${String(rank).padStart(12, '0')}`,
    rank,
    image_url: `/api/v1/leaderboard/entries/${rank}/image?v=1`,
    display_name: `Person ${rank}`,
    bio: `Bio of ${rank}`,
    score: 10 - rank / 10,
    rating_label: 'Gorgeous',
    owner_verified: rank === 1,
    featured: false,
    contact_fee: Math.max(1000 - (rank - 1) * 50, 100),
    is_own: false,
    ...extra,
  };
}

const LEADERBOARD = 'GET /api/v1/leaderboard';

describe('/leaderboard', () => {
  it('shows each entry with rank, photo, name, badge, bio, score, label and the server’s contact price', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry(1), entry(19)], next_cursor: null }) });
    renderApp('/leaderboard');
    const cards = await screen.findAllByTestId('leaderboard-entry', {}, { timeout: 5000 });
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByLabelText('Rank 1')).toHaveTextContent('#1');
    expect(first.getByRole('img', { name: "Person 1's photo" })).toHaveAttribute('src', '/api/v1/leaderboard/entries/1/image?v=1');
    expect(first.getByText('Verified')).toBeInTheDocument();
    expect(first.getByText('Bio of 1')).toBeInTheDocument();
    expect(first.getByTestId('entry-score')).toHaveTextContent('9.9/10');
    expect(first.getByText('Gorgeous')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Contact · $1,000, Person 1' })).toBeInTheDocument();
    const second = within(cards[1]!);
    expect(second.queryByText('Verified')).toBeNull();
    expect(second.getByRole('button', { name: 'Contact · $100, Person 19' })).toBeInTheDocument();
  });

  it('shows no Contact button on the viewer’s own entry', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry(1, { is_own: true }), entry(2)], next_cursor: null }) });
    renderApp('/leaderboard', { user: 'signed-in' });
    const cards = await screen.findAllByTestId('leaderboard-entry', {}, { timeout: 5000 });
    expect(within(cards[0]!).queryByRole('button', { name: /^Contact/ })).toBeNull();
    expect(within(cards[0]!).getByText('Your entry')).toBeInTheDocument();
    expect(within(cards[1]!).getByRole('button', { name: 'Contact · $950, Person 2' })).toBeInTheDocument();
  });

  it('reads "Open chat" on an entry whose chat is open, and says a paid request is waiting, as the server tells it', async () => {
    const chatId = '00000000-0000-4000-8000-0000000000c1';
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry(1), entry(2), entry(3)], next_cursor: null }),
      'GET /api/v1/contact-requests/with': () =>
        json([
          { photoId: entry(1).photo_id, state: 'chatting', requestId: chatId, expiresAt: null },
          { photoId: entry(2).photo_id, state: 'waiting', requestId: '00000000-0000-4000-8000-0000000000c2', expiresAt: '2026-12-14T10:00:00Z' },
          { photoId: entry(3).photo_id, state: 'none', requestId: null, expiresAt: null },
        ]),
    });
    renderApp('/leaderboard', { user: 'signed-in' });
    const cards = await screen.findAllByTestId('leaderboard-entry', {}, { timeout: 5000 });
    const chat = await within(cards[0]!).findByRole('link', { name: 'Open chat, Person 1' }, { timeout: 5000 });
    expect(chat).toHaveAttribute('href', `/messages/${chatId}`);
    expect(within(cards[0]!).queryByRole('button', { name: /^Contact/ })).toBeNull();
    expect(within(cards[1]!).getByRole('button', { name: 'Request waiting, Person 2' })).toBeInTheDocument();
    expect(within(cards[2]!).getByRole('button', { name: 'Contact · $900, Person 3' })).toBeInTheDocument();
    // One question for the whole page.
    const asked = callsTo(fetchMock, 'GET', '/api/v1/contact-requests/with');
    expect(asked).toHaveLength(1);
    expect(new URL(asked[0]!.url).searchParams.get('photoIds')).toBe([1, 2, 3].map((rank) => entry(rank).photo_id).join(','));
  });

  it('asks a visitor nothing about their requests', async () => {
    const fetchMock = stubApi({ [LEADERBOARD]: () => json({ entries: [entry(1)], next_cursor: null }) });
    renderApp('/leaderboard');
    await screen.findByRole('button', { name: 'Contact · $1,000, Person 1' }, { timeout: 5000 });
    expect(callsTo(fetchMock, 'GET', '/api/v1/contact-requests/with')).toHaveLength(0);
  });

  it('sends a visitor who clicks Contact to sign in, and back to that entry afterwards', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry(1)], next_cursor: null }) });
    const { user, router } = renderApp('/leaderboard');
    await user.click(await screen.findByRole('button', { name: 'Contact · $1,000, Person 1' }, { timeout: 5000 }));
    expect(await screen.findByText('Please sign in to contact contestants')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(new URLSearchParams(router.state.location.search).get('returnTo')).toBe(`/leaderboard?contactEntry=${entry(1).photo_id}`);
  });

  it('waits for the stored session when Contact is clicked before it is read, so a member is not asked to sign in', async () => {
    let release!: () => void;
    const sessionRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry(2)], next_cursor: null }) });
    const { user, router } = renderApp('/leaderboard', { user: 'signed-in', auth: { sessionRead } });
    await user.click(await screen.findByRole('button', { name: 'Contact · $950, Person 2' }, { timeout: 5000 }));
    expect(screen.queryByRole('dialog')).toBeNull();
    release();
    expect(await screen.findByRole('dialog', { name: 'Contact Person 2' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/leaderboard');
    expect(screen.queryByText('Please sign in to contact contestants')).toBeNull();
  });

  it('opens the Contact dialog of the entry named on the way back from signing in, even on a later page, once', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: (request) =>
        new URL(request.url).searchParams.get('after') === 'cursor-2'
          ? json({ entries: [entry(21)], next_cursor: null })
          : json({ entries: [entry(1)], next_cursor: 'cursor-2' }),
    });
    const { router, user } = renderApp(`/leaderboard?contactEntry=${entry(21).photo_id}`, { user: 'signed-in' });
    const dialog = await screen.findByRole('dialog', { name: 'Contact Person 21' }, { timeout: 5000 });
    expect(dialog).toBeInTheDocument();
    // Once: closing the dialog drops the parameter, so a reload does not open it again.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/leaderboard');
    expect(callsTo(fetchMock, 'GET', '/api/v1/leaderboard').some((request) => new URL(request.url).searchParams.get('after') === 'cursor-2')).toBe(true);
  });

  it('says so when the entry named on the way back is no longer listed', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [entry(1)], next_cursor: null }) });
    const { router } = renderApp('/leaderboard?contactEntry=00000000-0000-0000-0000-000000000099', { user: 'signed-in' });
    expect(await screen.findByText('This entry is no longer on the leaderboard.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says so when the leaderboard cannot be loaded', async () => {
    stubApi({ [LEADERBOARD]: () => apiError(500, 'internal', 'boom') });
    renderApp('/leaderboard');
    expect(await screen.findByText('Failed to load leaderboard', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('shows an empty leaderboard as such', async () => {
    stubApi({ [LEADERBOARD]: () => json({ entries: [], next_cursor: null }) });
    renderApp('/leaderboard');
    expect(await screen.findByText('No one is on the leaderboard yet.', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('pages forward with the server’s cursor and back again', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: (request) => {
        const after = new URL(request.url).searchParams.get('after');
        return after === 'cursor-2'
          ? json({ entries: [entry(21)], next_cursor: null })
          : json({ entries: [entry(1)], next_cursor: 'cursor-2' });
      },
    });
    const { user } = renderApp('/leaderboard');
    await screen.findByText('Person 1', {}, { timeout: 5000 });
    expect(screen.getByRole('button', { name: /Previous/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Person 21')).toBeInTheDocument();
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Next/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Previous/ }));
    expect(await screen.findByText('Person 1')).toBeInTheDocument();
    const afters = callsTo(fetchMock, 'GET', '/api/v1/leaderboard').map((r) => new URL(r.url).searchParams.get('after'));
    expect(afters).toContain('cursor-2');
    await waitFor(() => expect(screen.getByText('Page 1')).toBeInTheDocument());
  });

  it('reports an entry with a reason and words, into the one queue', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry(3)], next_cursor: null }),
      'POST /api/v1/reports': () => json({ id: 'r1', message: 'ok' }, 202),
    });
    const { user } = renderApp('/leaderboard', { user: 'signed-in' });
    await user.click(await screen.findByRole('button', { name: "Report Person 3's entry" }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: "Report Person 3's entry" });
    const send = within(dialog).getByRole('button', { name: 'Send report' });
    await user.click(send);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please choose a reason for your report.');
    await user.click(within(dialog).getByRole('radio', { name: 'Spam or scam' }));
    await user.type(within(dialog).getByLabelText('What is wrong? (optional)'), 'Not a real person');
    await user.click(send);
    expect(await within(dialog).findByText(/We have received your report/)).toBeInTheDocument();
    const [report] = callsTo(fetchMock, 'POST', '/api/v1/reports');
    expect(await report!.json()).toEqual({ target: { kind: 'photo', id: entry(3).photo_id }, reason: 'spam_or_scam', details: 'Not a real person' });
  });

  it('lets a signed-out visitor report an entry with an address and a good-faith statement', async () => {
    const fetchMock = stubApi({
      [LEADERBOARD]: () => json({ entries: [entry(3)], next_cursor: null }),
      'POST /api/v1/reports': () => json({ id: 'r1', message: 'ok' }, 202),
    });
    const { user } = renderApp('/leaderboard');
    await user.click(await screen.findByRole('button', { name: "Report Person 3's entry" }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: "Report Person 3's entry" });
    await user.click(within(dialog).getByRole('radio', { name: 'A photo of me used without my consent' }));
    await user.type(within(dialog).getByLabelText('Your email address'), 'me@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('good faith');
    await user.click(within(dialog).getByRole('checkbox', { name: /in good faith/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText(/We have sent a confirmation/)).toBeInTheDocument();
    const [report] = callsTo(fetchMock, 'POST', '/api/v1/reports');
    expect(await report!.json()).toEqual({
      target: { kind: 'photo', id: entry(3).photo_id },
      reason: 'my_photo_without_consent',
      reporter_email: 'me@example.com',
      good_faith: true,
    });
  });
});
