import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, stubApi } from '@/testing/fake-api';
import { emailIdentity, providerIdentity } from '@/testing/fake-auth-client';
import { renderApp } from '@/testing/render-app';

const settings = {
  external: { email: true, google: true, github: true, test: true, apple: false },
  external_labels: { google: 'Google', github: 'GitHub', test: 'Test ID' },
};

/** The account page's other calls, for a user on the free plan, and the auth settings. */
function stubAccount(authSettings: (() => Response) | null = () => json(settings)) {
  return stubApi({
    'POST /functions/v1/check-subscription': () => json({ subscribed: false, plan: null, expires_at: null, cancel_at_period_end: false }),
    'GET /api/v1/billing/payments': () => json([]),
    ...(authSettings ? { 'GET /auth/v1/settings': authSettings } : {}),
  });
}

const google = providerIdentity('google', 'ada.l@gmail.com', '2026-02-03T10:00:00Z');

async function openAccount(url = '/account', auth: NonNullable<Parameters<typeof renderApp>[1]>['auth'] = {}) {
  const app = renderApp(url, { user: 'signed-in', auth });
  await screen.findByRole('heading', { level: 1, name: 'My Account' }, { timeout: 10_000 });
  return app;
}

/** The card's list, once the identities have loaded. */
async function methods() {
  return screen.findByRole('list', { name: 'Your sign-in methods' });
}

function row(list: HTMLElement, label: string) {
  return within(list).getByText(label, { selector: 'p' }).closest('li')!;
}

beforeAll(async () => {
  await import('./account');
}, 30_000);

describe('Sign-in methods on My Account', () => {
  it('lists each way in with its address, and when a provider was linked', async () => {
    stubAccount();
    await openAccount('/account', { identities: [emailIdentity(), google] });
    const list = await methods();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(row(list, 'Email and password')).toHaveTextContent('ada@example.com');
    const googleRow = row(list, 'Google');
    expect(googleRow).toHaveTextContent('ada.l@gmail.com');
    expect(googleRow).toHaveTextContent(`Linked ${new Date('2026-02-03T10:00:00Z').toLocaleDateString()}`);
  });

  it('offers to link each enabled provider that is not linked yet, and goes there back to /account', async () => {
    stubAccount();
    const { user, auth } = await openAccount('/account', { identities: [emailIdentity(), google] });
    await methods();
    expect(await screen.findByRole('button', { name: 'Link GitHub' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Link Test ID' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Link Google' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link Apple' })).not.toBeInTheDocument();

    await user.dblClick(screen.getByRole('button', { name: 'Link Test ID' }));
    expect(auth.mocks.linkIdentity).toHaveBeenCalledTimes(1);
    expect(auth.mocks.linkIdentity).toHaveBeenCalledWith({
      provider: 'test',
      options: { redirectTo: `${window.location.origin}/account` },
    });
    const busy = await screen.findByRole('button', { name: 'Redirecting to Test ID...' });
    expect(busy).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Link GitHub' })).toBeDisabled();
  });

  it('says so when linking is turned off on the server', async () => {
    stubAccount();
    const { user } = await openAccount('/account', { linkingDisabled: true });
    await methods();
    await user.click(await screen.findByRole('button', { name: 'Link GitHub' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Linking sign-in methods is turned off on this site.');
    expect(screen.getByRole('button', { name: 'Link GitHub' })).toBeEnabled();
  });

  it('lists the identities but offers no link when the settings cannot be read', async () => {
    stubAccount(() => json({ message: 'down' }, 503));
    await openAccount('/account', { identities: [emailIdentity(), google] });
    const list = await methods();
    expect(row(list, 'Google')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Link / })).not.toBeInTheDocument();
  });

  it('unlinks after a confirmation, refreshes the user and lists what is left', async () => {
    stubAccount();
    const { user, auth } = await openAccount('/account', { identities: [emailIdentity(), google] });
    const list = await methods();
    await user.click(within(row(list, 'Google')).getByRole('button', { name: 'Unlink Google' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Unlink Google?' });
    expect(dialog).toHaveTextContent('You will no longer be able to sign in with Google (ada.l@gmail.com).');
    expect(auth.mocks.unlinkIdentity).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));

    await waitFor(() => expect(auth.mocks.unlinkIdentity).toHaveBeenCalledWith(google));
    expect(auth.mocks.refreshSession).toHaveBeenCalled();
    expect((await screen.findAllByText('Google is no longer linked.')).length).toBeGreaterThan(0);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).queryByText('Google', { selector: 'p' })).not.toBeInTheDocument();
    // Google can be linked again.
    expect(await screen.findByRole('button', { name: 'Link Google' })).toBeEnabled();
  });

  it('keeps the last way in: its Unlink is disabled and says why', async () => {
    stubAccount();
    await openAccount('/account', { identities: [google] });
    const list = await methods();
    const unlink = within(row(list, 'Google')).getByRole('button', { name: 'Unlink Google' });
    expect(unlink).toBeDisabled();
    expect(unlink).toHaveAccessibleDescription('This is your only way to sign in: link another one before you unlink it.');
  });

  it("shows the server's refusal of the last way in, in the user's words", async () => {
    stubAccount();
    const { user, auth } = await openAccount('/account', { identities: [emailIdentity(), google] });
    auth.mocks.unlinkIdentity.mockResolvedValueOnce({
      data: null,
      error: {
        name: 'AuthApiError',
        message: 'User must have at least 1 identity after unlinking',
        code: 'single_identity_not_deletable',
        status: 422,
      },
    });
    const list = await methods();
    await user.click(within(row(list, 'Email and password')).getByRole('button', { name: 'Unlink Email and password' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unlink Email and password?' });
    expect(dialog).toHaveTextContent('You will no longer be able to sign in with your email and password.');
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This is your only way to sign in, so it cannot be removed. Link another one first.',
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows why a linking came back refused and cleans the address', async () => {
    stubAccount();
    const error = 'error=server_error&error_code=identity_already_exists&error_description=Identity+is+already+linked+to+another+user';
    const { router } = await openAccount(`/account?${error}#${error}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is already linked to another user');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/account');
  });

  it('says when the sign-in methods cannot be loaded', async () => {
    stubAccount();
    const { auth } = renderApp('/account', { user: 'signed-in' });
    auth.mocks.getUserIdentities.mockResolvedValue({
      data: null,
      error: { name: 'AuthApiError', message: 'Internal error', code: 'unexpected_failure', status: 500 },
    });
    expect(await screen.findByText('Could not load your sign-in methods.', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});
