import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

describe('the "this wasn\'t me" page', () => {
  it('does nothing on opening, then signs out everywhere when asked', async () => {
    const fetchMock = stubApi({
      'POST /api/v1/account/secure': () =>
        json({ message: 'Every session of your account is signed out. We sent a link to set a new password to a**@example.com.' }),
    });
    const { user, auth } = renderApp('/account/secure?token=tok-123', { user: 'signed-in' });
    const button = await screen.findByRole('button', { name: 'Sign Out Everywhere and Reset Password' }, { timeout: 5000 });
    expect(callsTo(fetchMock, 'POST', '/api/v1/account/secure')).toHaveLength(0);
    await user.click(button);
    expect(await screen.findByText(/We sent a link to set a new password to a\*\*@example\.com\./)).toBeInTheDocument();
    const [sent] = callsTo(fetchMock, 'POST', '/api/v1/account/secure');
    expect(await sent!.json()).toEqual({ token: 'tok-123' });
    await waitFor(() => expect(auth.mocks.signOut).toHaveBeenCalledWith({ scope: 'local' }));
  });

  it("says so when the link is used or expired, in the server's words", async () => {
    stubApi({
      'POST /api/v1/account/secure': () => apiError(400, 'security_link_invalid', 'This link has expired or was used already.'),
    });
    const { user } = renderApp('/account/secure?token=old');
    await user.click(await screen.findByRole('button', { name: 'Sign Out Everywhere and Reset Password' }, { timeout: 5000 }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or was used already.');
  });

  it('needs the link from the mail', async () => {
    stubApi({});
    renderApp('/account/secure');
    expect(await screen.findByRole('button', { name: 'Sign Out Everywhere and Reset Password' }, { timeout: 5000 })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('This page needs the link from your email.');
  });
});
