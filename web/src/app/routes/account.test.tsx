import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

/** The subscription and payments cards' calls, for a user on the free plan. */
const freePlan = {
  'POST /functions/v1/check-subscription': () => json({ subscribed: false, plan: null, expires_at: null, cancel_at_period_end: false }),
  'GET /api/v1/billing/payments': () => json([]),
};

async function openAccount(displayName: string | null = 'Ada') {
  const app = renderApp('/account', { user: 'signed-in', displayName });
  await screen.findByRole('heading', { level: 1, name: 'My Account' }, { timeout: 10000 });
  return app;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// The first import of a lazily loaded page (and its form libraries) is slow in jsdom.
beforeAll(async () => {
  await import('./account');
}, 30_000);

describe('My Account', () => {
  it("shows the user's email and that two-factor authentication is off", async () => {
    await openAccount();
    expect(screen.getByTestId('account-email')).toHaveTextContent('ada@example.com');
    expect(await screen.findByText('Off: no authenticator app or security key is set up.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set Up Authenticator App' })).toBeEnabled();
  });

  it('asks for a display name and saves it to the user metadata, checked like the server checks it', async () => {
    const { user, auth } = await openAccount(null);
    expect(screen.getByText(/You need one before sending a contact request/)).toBeInTheDocument();
    const field = screen.getByLabelText('Display name');
    expect(field).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Save Display Name' }));
    expect(await screen.findByText('Please enter a display name')).toBeInTheDocument();
    await user.type(field, '\u200B\u200B');
    await user.click(screen.getByRole('button', { name: 'Save Display Name' }));
    expect(await screen.findByText('Display name needs at least one visible character')).toBeInTheDocument();
    expect(auth.mocks.updateUser).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, ' Ada Lovelace ');
    await user.click(screen.getByRole('button', { name: 'Save Display Name' }));
    await waitFor(() => expect(auth.mocks.updateUser).toHaveBeenCalledWith({ data: { display_name: 'Ada Lovelace' } }));
    expect(await screen.findByText('Display name saved!')).toBeInTheDocument();
    // The session now carries it: the form shows it and says who sees it.
    expect(await screen.findByText(/never your email/)).toBeInTheDocument();
    expect(screen.getByLabelText('Display name')).toHaveValue('Ada Lovelace');
  });

  it("shows the server's words when it refuses the display name", async () => {
    const { user, auth } = await openAccount(null);
    auth.mocks.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: { name: 'AuthApiError', message: 'Display name contains a control character, which is not allowed' },
    } as never);
    await user.type(screen.getByLabelText('Display name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save Display Name' }));
    expect(await screen.findByText('Display name contains a control character, which is not allowed')).toBeInTheDocument();
    expect(screen.getByLabelText('Display name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('changes the password after checking its length and the repetition', async () => {
    const { user, auth } = await openAccount();
    await user.type(screen.getByLabelText('New password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'new secret');
    await user.type(screen.getByLabelText('Repeat new password'), 'new secreT');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(auth.mocks.updateUser).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'new secret');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(auth.mocks.updateUser).toHaveBeenCalledWith({ password: 'new secret' }));
  });

  it("shows the server's message when the password change is refused", async () => {
    const { user, auth } = await openAccount();
    auth.mocks.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: { name: 'AuthApiError', message: 'New password should be different from the old password.' },
    } as never);
    await user.type(screen.getByLabelText('New password'), 'same old');
    await user.type(screen.getByLabelText('Repeat new password'), 'same old');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('New password should be different from the old password.')).toBeInTheDocument();
  });

  it('deletes the account only once DELETE is typed, then signs out and goes home', async () => {
    const fetchMock = stubApi({
      ...freePlan,
      'DELETE /api/v1/account': () => new Response(null, { status: 204 }),
    });
    const { user, auth, router } = await openAccount();
    await user.click(screen.getByRole('button', { name: 'Delete My Account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete Forever' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(within(dialog).getByLabelText('Type DELETE to confirm'));
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/account')).toHaveLength(1);
    expect(auth.mocks.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(await screen.findByText('Your account and all of its data have been deleted.')).toBeInTheDocument();
  });

  it('asks for the mailed code when the sign-in is not fresh, then deletes with it', async () => {
    const bodies: unknown[] = [];
    stubApi({
      ...freePlan,
      'DELETE /api/v1/account': async (request) => {
        const text = await request.text();
        const body: unknown = text ? JSON.parse(text) : null;
        bodies.push(body);
        if (!body) return json({ code: 'reauthentication_needed', message: 'Sign in again' }, 403);
        return new Response(null, { status: 204 });
      },
    });
    const { user, auth, router } = await openAccount();
    await user.click(screen.getByRole('button', { name: 'Delete My Account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Forever' }));

    const code = await within(dialog).findByLabelText('Code from the email');
    expect(auth.mocks.reauthenticate).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByRole('button', { name: 'Delete Forever' })).toBeDisabled();
    await user.type(code, '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Forever' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(bodies).toEqual([null, { nonce: '654321' }]);
    expect(await screen.findByText('Your account and all of its data have been deleted.')).toBeInTheDocument();
  });

  it('says clearly when removing an authenticator app needs a sign-in with its code', async () => {
    const app = renderApp('/account', { user: 'signed-in' });
    const factor = {
      id: 'factor-1',
      friendly_name: '',
      factor_type: 'totp',
      status: 'verified',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    app.auth.mocks.mfa.listFactors.mockResolvedValue({ data: { all: [factor], totp: [factor], phone: [] }, error: null } as never);
    app.auth.mocks.mfa.unenroll.mockResolvedValue({
      data: null,
      error: { name: 'AuthApiError', message: 'AAL2 required to unenroll verified factor', code: 'insufficient_aal', status: 422 },
    } as never);
    await screen.findByRole('heading', { level: 1, name: 'My Account' }, { timeout: 10000 });
    const list = await screen.findByRole('list', { name: 'Your second factors' });
    expect(within(list).getByText('Verified')).toBeInTheDocument();
    await app.user.click(within(list).getByRole('button', { name: 'Remove Authenticator app' }));
    expect(
      await screen.findByText(
        'This needs a sign-in verified with your second factor. Sign out, sign in again with it, then try again.',
      ),
    ).toBeInTheDocument();
    expect(app.auth.mocks.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'factor-1' });
  });
});
