import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render-app';

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('the privacy policy', () => {
  it('has its sections, its date and the contact address from the server', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValue(jsonResponse({ contact_email: 'privacy@example.com', site_name: 'PrettyScore' }));
    vi.stubGlobal('fetch', fetch);
    try {
      renderApp('/privacy');
      expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
      for (const name of [
        'No photo storage',
        'No data collection',
        'Your date of birth and the terms you accepted',
        'Reports',
        'Payments and payouts',
        'How analysis works',
        'Third-party services',
        'Your rights',
        'Contact',
      ]) {
        expect(screen.getByRole('heading', { level: 2, name: new RegExp(name) })).toBeInTheDocument();
      }
      expect(screen.getByText(/anonymous usage statistics/)).toBeInTheDocument();
      expect(screen.getByText('December 8, 2026')).toHaveAttribute('dateTime', '2026-12-08');

      const link = await screen.findByRole('link', { name: 'privacy@example.com' });
      expect(link).toHaveAttribute('href', 'mailto:privacy@example.com');
      const request: Request = fetch.mock.calls[0][0];
      expect(new URL(request.url).pathname).toBe('/api/v1/app-config');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('falls back to neutral text when the address cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ code: 'internal', message: 'x' }, 500)));
    const error = vi.spyOn(console, 'error');
    try {
      renderApp('/privacy');
      expect(await screen.findByText(/could not be loaded just now/)).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: /@/ })).not.toBeInTheDocument();
      expect(error).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
