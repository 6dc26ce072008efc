import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListingStatus } from './listing-status';

describe('ListingStatus', () => {
  it('tells the owner where their leaderboard entry stands', () => {
    const { rerender, container } = render(<ListingStatus photo={{ listing_status: 'pending', rejection_reason: null }} />);
    expect(screen.getByTestId('listing-status')).toHaveTextContent('Leaderboard: pending. Admins will verify your entry soon.');
    rerender(<ListingStatus photo={{ listing_status: 'rejected', rejection_reason: 'Not a photo of you' }} />);
    expect(screen.getByTestId('listing-status')).toHaveTextContent('Leaderboard entry rejected: Not a photo of you');
    rerender(<ListingStatus photo={{ listing_status: 'approved', rejection_reason: null }} />);
    expect(screen.getByTestId('listing-status')).toHaveTextContent('On the leaderboard');
    rerender(<ListingStatus photo={{ listing_status: null, rejection_reason: null }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
