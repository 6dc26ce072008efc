import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render-app';

describe('the not-found page', () => {
  it('shows 404, says the page was not found, links home and logs the path as a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    // The warning comes from an effect, which React may run after the heading is on screen.
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('404 Error: User attempted to access non-existent route:', '/no/such/page'),
    );
    expect(error).not.toHaveBeenCalled();
  });
});
