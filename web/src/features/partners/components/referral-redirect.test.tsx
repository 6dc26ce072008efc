import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { ReferralRedirect } from './referral-redirect';

function Route() {
  return <ReferralRedirect code="ADA1" />;
}

describe('ReferralRedirect', () => {
  it('records the click once under StrictMode’s double effects, then goes home', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi({ 'POST /functions/v1/track-referral': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const router = createMemoryRouter(
      [
        { path: '/r/:code', element: <Route /> },
        { path: '/', element: <p>Home</p> },
      ],
      { initialEntries: ['/r/ADA1'] },
    );
    render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Redirecting...');
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/functions/v1/track-referral')).toHaveLength(1));
    await act(async () => answer(json({ success: false })));
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(callsTo(fetchMock, 'POST', '/functions/v1/track-referral')).toHaveLength(1);
  });
});
