import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DashboardSummary } from '@/resources/dashboard/get-dashboard';
import { CONTACT_EARNINGS_NOTE, StatsCards } from './stats-cards';

function summary(extra: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    photosSaved: 3,
    facePhotos: 2,
    bestFaceScore: 8.8,
    averageFaceScore: 8.1,
    freeEdits: { limit: 5, used: 1, remaining: 4, unlimited: false, generative: false },
    personality: null,
    premium: false,
    verified: false,
    contactEarningsCents: 0,
    ...extra,
  };
}

function renderCards(value: DashboardSummary) {
  return render(
    <MemoryRouter>
      <StatsCards summary={value} />
    </MemoryRouter>,
  );
}

describe('StatsCards', () => {
  it('shows the contact earnings in dollars with two decimals, with the payouts note', () => {
    renderCards(summary({ contactEarningsCents: 71_250 }));
    const card = screen.getByTestId('stat-contact-earnings');
    expect(within(card).getByText('Contact earnings')).toBeInTheDocument();
    expect(within(card).getByText('$712.50')).toBeInTheDocument();
    expect(within(card).getByText(CONTACT_EARNINGS_NOTE)).toBeInTheDocument();
    expect(CONTACT_EARNINGS_NOTE).toBe('Your 75% of approved contact requests. See what is paid out and when.');
  });

  it('shows no earnings as $0.00 and thousands with a separator', () => {
    const { unmount } = renderCards(summary());
    expect(screen.getByTestId('stat-contact-earnings')).toHaveTextContent('$0.00');
    unmount();
    renderCards(summary({ contactEarningsCents: 1_234_505 }));
    expect(screen.getByTestId('stat-contact-earnings')).toHaveTextContent('$12,345.05');
  });

  it('links the earnings card to /earnings, named by its text', () => {
    renderCards(summary({ contactEarningsCents: 950 }));
    const link = screen.getByRole('link', { name: /^Contact earnings \$9\.50 Your 75% of approved contact requests/ });
    expect(link).toHaveAttribute('href', '/earnings');
    // The other stats stay plain cards.
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });
});
