import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const settings = { external: { email: true }, passkeys_enabled: true };

async function openAuth(auth: NonNullable<Parameters<typeof renderApp>[1]>['auth'] = {}, url = '/auth') {
  const app = renderApp(url, { auth });
  await screen.findByRole('tab', { name: 'Sign In' }, { timeout: 5000 });
  return app;
}

beforeAll(async () => {
  await import('./auth');
}, 30_000);

// happy-dom has no WebAuthn; a browser that has it defines PublicKeyCredential.
beforeEach(() => vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {}));
afterEach(() => vi.unstubAllGlobals());

describe('signing in with a passkey', () => {
  it('offers the passkey first among the other ways in, and signs in with it', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user, auth, router } = await openAuth({ passkeyAccount: 'ada@example.com' }, '/auth?returnTo=%2Fupload');
    const list = await screen.findByRole('list', { name: 'Other ways to sign in' });
    const button = within(list).getByRole('button', { name: 'Sign in with a passkey' });
    await user.click(button);
    expect(auth.mocks.signInWithPasskey).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
  });

  it('stays quiet when the person cancels the prompt, and can try again', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user, auth, router } = await openAuth({ cancelPrompt: true });
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled());
    expect(auth.mocks.signInWithPasskey).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('says so in plain words when the passkey is not on any account', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json(settings) });
    const { user } = await openAuth();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText(/That passkey could not be used/)).toBeInTheDocument();
  });

  it('offers no passkey when the server or the browser has none', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json({ ...settings, passkeys_enabled: false }) });
    await openAuth();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });

  it('asks a user with a security key for it after the password', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json({ external: { email: true } }) });
    const { user, auth, router } = await openAuth({ accounts: { 'ada@example.com': 'correct horse' }, securityKey: true });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const key = await screen.findByRole('button', { name: 'Use Your Security Key' });
    // Only a key: no code field.
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await user.click(key);
    expect(auth.mocks.mfa.webauthn.authenticate).toHaveBeenCalledWith(expect.objectContaining({ factorId: 'factor-key' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('lets a user with an app and a key pick either', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json({ external: { email: true } }) });
    const { user } = await openAuth({ accounts: { 'ada@example.com': 'correct horse' }, securityKey: true, totpCode: '123456', cancelPrompt: true });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use Your Security Key' }));
    // Cancelled: nothing to say, the code is still there to type.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Use Your Security Key' })).toBeEnabled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument();
  });
});
