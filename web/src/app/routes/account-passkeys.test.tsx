import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

function stubAccount(passkeysEnabled = true) {
  return stubApi({
    'POST /functions/v1/check-subscription': () => json({ subscribed: false, plan: null, expires_at: null, cancel_at_period_end: false }),
    'GET /api/v1/billing/payments': () => json([]),
    'GET /auth/v1/settings': () => json({ external: { email: true }, passkeys_enabled: passkeysEnabled }),
  });
}

async function openAccount(auth: NonNullable<Parameters<typeof renderApp>[1]>['auth'] = {}) {
  const app = renderApp('/account', { user: 'signed-in', auth });
  await screen.findByRole('heading', { level: 1, name: 'My Account' }, { timeout: 10_000 });
  return app;
}

const phone = { id: 'passkey-1', friendly_name: 'Passkey', created_at: '2026-02-01T10:00:00Z', last_used_at: '2026-02-10T10:00:00Z' };

beforeAll(async () => {
  await import('./account');
}, 30_000);

beforeEach(() => vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {}));
afterEach(() => vi.unstubAllGlobals());

describe('Passkeys on My Account', () => {
  it('lists passkeys with when they were added and last used', async () => {
    stubAccount();
    await openAccount({ passkeys: [phone, { id: 'passkey-2', friendly_name: 'Laptop', created_at: '2026-02-02T10:00:00Z' }] });
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(`Last used ${new Date(phone.last_used_at).toLocaleDateString()}`);
    expect(rows[1]).toHaveTextContent('Laptop');
    expect(rows[1]).toHaveTextContent('Not used yet');
  });

  it('adds a passkey through the browser’s prompt', async () => {
    stubAccount();
    const { user, auth } = await openAccount();
    expect(await screen.findByText('No passkey yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(auth.mocks.registerPasskey).toHaveBeenCalledTimes(1);
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('Passkey')).toBeInTheDocument();
    expect(await screen.findByText('Passkey added. Next time, sign in with it.')).toBeInTheDocument();
  });

  it('renames and removes one', async () => {
    stubAccount();
    const { user, auth } = await openAccount({ passkeys: [phone] });
    await user.click(await screen.findByRole('button', { name: 'Rename Passkey' }));
    const field = screen.getByLabelText('Passkey name');
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give the passkey a name.')).toBeInTheDocument();
    await user.type(field, 'Ada’s phone');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(auth.mocks.passkey.update).toHaveBeenCalledWith({ passkeyId: 'passkey-1', friendlyName: 'Ada’s phone' });
    await user.click(await screen.findByRole('button', { name: 'Remove Ada’s phone' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(auth.mocks.passkey.delete).toHaveBeenCalledWith({ passkeyId: 'passkey-1' });
    expect(await screen.findByText('No passkey yet.')).toBeInTheDocument();
  });

  it('is quiet about a cancelled prompt', async () => {
    stubAccount();
    const { user, auth } = await openAccount({ cancelPrompt: true });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled());
    expect(auth.mocks.registerPasskey).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is hidden when the server has passkeys off, and explained when the browser cannot make them', async () => {
    stubAccount(false);
    await openAccount();
    await screen.findByRole('heading', { name: 'Sign-in methods' });
    expect(screen.queryByRole('heading', { name: 'Passkeys' })).not.toBeInTheDocument();
  });

  it('explains a browser without WebAuthn', async () => {
    vi.unstubAllGlobals();
    stubAccount();
    await openAccount();
    expect(await screen.findByText(/This browser cannot make passkeys/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });
});

describe('A security key as a second factor', () => {
  it('is added with a name of its own, and listed', async () => {
    stubAccount();
    const { user, auth } = await openAccount();
    await user.click(await screen.findByRole('button', { name: 'Add a Security Key' }));
    await waitFor(() => expect(auth.mocks.mfa.webauthn.verify).toHaveBeenCalled());
    expect(auth.mocks.mfa.enroll).toHaveBeenCalledWith({ factorType: 'webauthn', friendlyName: 'Security key' });
    const list = await screen.findByRole('list', { name: 'Your second factors' });
    expect(within(list).getByText('Security key')).toBeInTheDocument();
  });

  it('removes the half-made factor when the prompt is cancelled', async () => {
    stubAccount();
    const { user, auth } = await openAccount({ cancelPrompt: true });
    await user.click(await screen.findByRole('button', { name: 'Add a Security Key' }));
    await waitFor(() => expect(auth.mocks.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'factor-new-webauthn' }));
    expect(auth.mocks.mfa.webauthn.verify).not.toHaveBeenCalled();
  });
});
