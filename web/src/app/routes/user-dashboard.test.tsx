import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, quota, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const free = { subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false };
const premium = { ...free, subscribed: true, plan: 'premium_editing', status: 'active', expires_at: '2026-12-23T12:00:00Z' };

function summary(member: boolean) {
  return {
    photosSaved: member ? 12 : 0,
    facePhotos: member ? 10 : 0,
    bestFaceScore: member ? 9.4 : null,
    averageFaceScore: member ? 8.6 : null,
    freeEdits: member ? { ...quota(null) } : { ...quota(3) },
    personality: member ? { personalityType: 'The Leader', score: 88, paid: true, createdAt: '2026-11-20T10:00:00Z' } : null,
    premium: member,
    verified: member,
    contactEarningsCents: member ? 123_450 : 0,
  };
}

const basicResult = {
  id: 'r1',
  quizType: 'basic',
  score: 80,
  personalityType: 'The Strategist',
  analysis: 'The Strategist: You think ahead.',
  traits: [],
  paid: false,
  answers: { '0': 'friends' },
  createdAt: '2026-11-21T10:00:00Z',
};

beforeAll(async () => {
  await import('./user-dashboard');
}, 30_000);

describe('/user-dashboard', { timeout: 20_000 }, () => {
  it('shows a premium member the stats, the badges and the feet and hands shortcuts', async () => {
    stubApi({
      'GET /api/v1/dashboard': () => json(summary(true)),
      'POST /functions/v1/check-subscription': () => json(premium),
    });
    renderApp('/user-dashboard', { user: 'signed-in' });
    expect(await screen.findByTestId('stat-photos', undefined, { timeout: 10_000 })).toHaveTextContent('12');
    expect(screen.getByTestId('stat-scores')).toHaveTextContent('9.4');
    expect(screen.getByTestId('stat-scores')).toHaveTextContent('Average 8.6');
    expect(screen.getByTestId('stat-edits')).toHaveTextContent('Unlimited');
    expect(screen.getByTestId('stat-personality')).toHaveTextContent('The Leader');
    expect(screen.getByTestId('stat-membership')).toHaveTextContent('Premium');
    const earnings = screen.getByRole('link', { name: /Contact earnings/ });
    expect(earnings).toHaveAttribute('href', '/earnings');
    expect(earnings).toHaveTextContent('$1,234.50');
    expect(earnings).toHaveTextContent('Your 75% of approved contact requests. See what is paid out and when.');
    expect(screen.getByTestId('verified-badge')).toHaveTextContent('Verified');
    expect(screen.queryByRole('link', { name: 'Get Verified' })).toBeNull();
    const badge = await screen.findByTestId('premium-member-badge');
    const banner = within(badge.parentElement!);
    expect(banner.getByRole('link', { name: 'Feet Score' })).toHaveAttribute('href', '/feet-upload');
    expect(banner.getByRole('link', { name: 'Hands Score' })).toHaveAttribute('href', '/hands-upload');
  });

  it('shows a free user their free edits, Get Verified and a way to the detailed analysis, and signs out to /', async () => {
    stubApi({
      'GET /api/v1/dashboard': () => json(summary(false)),
      'POST /functions/v1/check-subscription': () => json(free),
      'GET /api/v1/personality/results': () => json([basicResult]),
      'GET /api/v1/photos': () => json([]),
    });
    const { user, router } = renderApp('/user-dashboard', { user: 'signed-in' });
    expect(await screen.findByTestId('stat-edits', undefined, { timeout: 10_000 })).toHaveTextContent('3 left');
    expect(screen.getByTestId('stat-scores')).toHaveTextContent('No face photos yet');
    expect(screen.getByTestId('stat-membership')).toHaveTextContent('Free');
    expect(screen.getByTestId('stat-contact-earnings')).toHaveTextContent('$0.00');
    expect(screen.getByRole('link', { name: 'Get Verified' })).toHaveAttribute('href', '/request-verification');
    expect(screen.queryByTestId('verified-badge')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'My Photos' }));
    expect(await screen.findByRole('heading', { level: 2, name: /My Photos/ })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);

    await user.click(screen.getByRole('tab', { name: 'Personality' }));
    const item = await screen.findByTestId('personality-history-item');
    expect(item).toHaveTextContent('The Strategist');
    await user.click(within(item).getByRole('button', { name: 'Get Detailed Analysis ($4.99)' }));
    expect(router.state.location.pathname).toBe('/personality-test');
    expect(JSON.parse(window.sessionStorage.getItem('prettyscore.personality.answers')!)).toEqual({ '0': 'friends' });

    await router.navigate('/user-dashboard');
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }, { timeout: 10_000 }));
    await screen.findByText('Signed out successfully');
    expect(router.state.location.pathname).toBe('/');
  });
});
