import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { timeLeft } from '@/features/ranking/components/time-left';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function photo(index: number) {
  return {
    id: `photo-${index}`,
    user_id: 'u',
    original_image_url: `/media/${index}.jpg`,
    edited_image_url: null,
    score: 9.9 - index / 10,
    rating_label: 'Gorgeous',
    breakdown: {},
    photo_type: 'face',
    public_listing: false,
    featured: false,
    is_verified: false,
    display_name: index === 0 ? 'Ada' : null,
    bio: null,
    listing_status: null as string | null,
    rejection_reason: null as string | null,
    contest_month: null as string | null,
    created_at: '2026-11-01T00:00:00Z',
  };
}

const standings = {
  month: '2026-11',
  ends_at: '2026-12-01T00:00:00Z',
  seconds_left: 3 * 86_400 + 5 * 3_600,
  prize_dollars: 50000,
  winners_count: 10,
  entries: [
    {
      photo_id: 'p1',
      rank: 1,
      image_url: '/api/v1/leaderboard/entries/p1/image',
      display_name: 'Nova',
      bio: null,
      score: 9.8,
      rating_label: 'Gorgeous',
      owner_verified: true,
      featured: false,
      contact_fee: 1000,
      is_own: false,
    },
  ],
  winners: [],
};

function stubContest(photos = Array.from({ length: 12 }, (_, i) => photo(i)), submit = () => json({ photo_id: 'photo-0', contest_month: '2026-11', listing_status: 'pending', message: 'Your photo was submitted! Admins will verify your entry soon.' })) {
  return stubApi({
    'GET /api/v1/photos': () => json(photos),
    'GET /api/v1/contest/standings': () => json(standings),
    'POST /api/v1/contest/entries': submit,
  });
}

describe('/global-ranking', () => {
  it('sends a visitor to sign in', async () => {
    stubContest();
    const { router } = renderApp('/global-ranking');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 5000 });
  });

  it('sends a user without photos to /upload, saying why', async () => {
    stubContest([]);
    const { router } = renderApp('/global-ranking', { user: 'signed-in' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'), { timeout: 5000 });
    expect(await screen.findByText('Save a scored photo first to enter the contest.')).toBeInTheDocument();
  });

  it('shows a submitted entry as pending review at once, and entries of this month with where they stand', async () => {
    const photos = Array.from({ length: 3 }, (_, i) => photo(i));
    photos[2] = { ...photos[2]!, contest_month: '2026-11', listing_status: 'approved' };
    stubContest(photos);
    const { user } = renderApp('/global-ranking', { user: 'signed-in' });
    const mine = await screen.findByRole('region', { name: 'Your entries this month' }, { timeout: 5000 });
    expect(within(mine).getAllByTestId('my-entry').map((entry) => entry.dataset.status)).toEqual(['approved']);
    expect(mine).toHaveTextContent('In the ranking');

    await user.click(screen.getByRole('radio', { name: 'Photo scored 9.9/10, Gorgeous' }));
    await user.click(screen.getByLabelText(/I am 18 years or older/));
    await user.click(screen.getByLabelText(/original photo of myself/));
    await user.click(screen.getByRole('button', { name: 'Submit to Global Ranking' }));
    await waitFor(() => expect(within(mine).getAllByTestId('my-entry').map((entry) => entry.dataset.status)).toEqual(['pending', 'approved']));
    const pending = within(mine).getAllByTestId('my-entry')[0]!;
    expect(pending).toHaveTextContent('9.9/10');
    expect(pending).toHaveTextContent('Pending review');
    expect(pending).toHaveTextContent(/verifies every entry before it is ranked/);
  });

  it('shows no entries section before the user has entered', async () => {
    stubContest();
    renderApp('/global-ranking', { user: 'signed-in' });
    expect(await screen.findAllByRole('radio', {}, { timeout: 5000 })).toHaveLength(10);
    expect(screen.queryByRole('region', { name: 'Your entries this month' })).toBeNull();
  });

  it('shows the prize, the rules, the top 10 photos, this month’s standings and the time left', async () => {
    stubContest();
    renderApp('/global-ranking', { user: 'signed-in' });
    expect(await screen.findByRole('heading', { name: 'Win $50,000' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/Prizes every month to the top 10/)).toBeInTheDocument();
    expect(screen.getByText('Entrants must be 18 or older.')).toBeInTheDocument();
    expect(screen.getByText(/Only original photos/)).toBeInTheDocument();
    expect(await screen.findAllByRole('radio')).toHaveLength(10);
    expect(await screen.findByText('Nova')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Standings' })).getByTestId('verified-badge')).toHaveTextContent('Verified');
    expect(screen.getByTestId('time-left')).toHaveTextContent('3 days 5 hours left');
  });

  it('asks for a photo first, then submits the chosen one with the attestation', async () => {
    const fetchMock = stubContest();
    const { user } = renderApp('/global-ranking', { user: 'signed-in' });
    const submit = await screen.findByRole('button', { name: 'Submit to Global Ranking' }, { timeout: 5000 });
    await screen.findAllByRole('radio');
    await user.click(submit);
    expect(await screen.findByText('Please select a photo to submit')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/contest/entries')).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: 'Photo scored 9.9/10, Gorgeous' }));
    expect(screen.getByLabelText('Display name')).toHaveValue('Ada');
    await user.click(submit);
    expect(await screen.findByText(/Please confirm that you are 18 or older/)).toBeInTheDocument();
    await user.click(screen.getByLabelText(/I am 18 years or older/));
    await user.click(screen.getByLabelText(/original photo of myself/));
    await user.click(submit);
    expect(await screen.findByText('Your photo was submitted! Admins will verify your entry soon.')).toBeInTheDocument();
    const [request] = callsTo(fetchMock, 'POST', '/api/v1/contest/entries');
    expect(await request!.json()).toEqual({ photo_id: 'photo-0', display_name: 'Ada', attest_adult: true, attest_original: true });
  });

  it('says so when the submission fails', async () => {
    stubContest(undefined, () => apiError(500, 'internal', 'boom'));
    const { user } = renderApp('/global-ranking', { user: 'signed-in' });
    await user.click(await screen.findByRole('radio', { name: 'Photo scored 9.9/10, Gorgeous' }, { timeout: 5000 }));
    await user.click(screen.getByLabelText(/I am 18 years or older/));
    await user.click(screen.getByLabelText(/original photo of myself/));
    await user.click(screen.getByRole('button', { name: 'Submit to Global Ranking' }));
    expect(await screen.findByText('Failed to submit photo. Please try again.')).toBeInTheDocument();
  });
});

describe('timeLeft', () => {
  it('counts down in days and hours, then hours and minutes, then says closed', () => {
    expect(timeLeft(86_400 + 3_600)).toBe('1 day 1 hour left');
    expect(timeLeft(2 * 3_600 + 60)).toBe('2 hours 1 minute left');
    expect(timeLeft(30)).toBe('1 minute left');
    expect(timeLeft(0)).toBe('Closed');
  });
});
