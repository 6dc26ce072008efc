import type { GoTrueClient } from '@supabase/auth-js';
import { afterEach, describe, expect, it, vi } from 'vitest';

const constructed = vi.hoisted(() => [] as unknown[]);

vi.mock('@supabase/auth-js', () => ({
  AuthClient: class {
    constructor(options: unknown) {
      constructed.push(options);
    }
  },
}));

afterEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('loadAuthClient', () => {
  it('creates one PKCE auth client for this origin’s /auth/v1 that keeps and refreshes the session', async () => {
    vi.resetModules();
    const { loadAuthClient, whenAuthClientLoaded } = await import('./auth-client');
    const [first, second] = await Promise.all([loadAuthClient(), loadAuthClient()]);

    expect(second).toBe(first);
    await expect(whenAuthClientLoaded()).resolves.toBe(first);
    expect(constructed).toEqual([
      {
        url: `${window.location.origin}/auth/v1`,
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: 'pkce',
        experimental: { passkey: true },
      },
    ]);
  });
});

describe('mayHaveSession', () => {
  it('is false on a first visit: nothing stored, no auth answer in the address', async () => {
    vi.resetModules();
    const { mayHaveSession } = await import('./auth-client');
    expect(mayHaveSession()).toBe(false);
  });

  it('is true with a stored session or PKCE verifier, or an auth answer in the address', async () => {
    vi.resetModules();
    const { mayHaveSession, SESSION_STORAGE_KEY } = await import('./auth-client');

    localStorage.setItem(SESSION_STORAGE_KEY, '{}');
    expect(mayHaveSession()).toBe(true);
    localStorage.clear();

    localStorage.setItem(`${SESSION_STORAGE_KEY}-code-verifier`, 'verifier');
    expect(mayHaveSession()).toBe(true);
    localStorage.clear();

    window.history.replaceState(null, '', '/auth/reset?code=abc');
    expect(mayHaveSession()).toBe(true);
    window.history.replaceState(null, '', '/#access_token=abc&type=recovery');
    expect(mayHaveSession()).toBe(true);
    window.history.replaceState(null, '', '/leaderboard?page=2');
    expect(mayHaveSession()).toBe(false);
  });

  it('is true once auth-js runs (it keeps the session in memory where storage fails)', async () => {
    vi.resetModules();
    const { loadAuthClient, mayHaveSession } = await import('./auth-client');
    await loadAuthClient();
    expect(mayHaveSession()).toBe(true);
  });
});

describe('createLazySessionClient', () => {
  it('loads the client on the first call and passes calls and auth events on', async () => {
    const { createLazySessionClient } = await import('./auth-client');
    const unsubscribe = vi.fn();
    const real = {
      getSession: vi.fn(async () => ({ data: { session: null }, error: null })),
      signOut: vi.fn(async () => ({ error: null })),
      onAuthStateChange: vi.fn(() => ({ data: { subscription: { id: 'real', callback: () => {}, unsubscribe } } })),
      mfa: {
        listFactors: vi.fn(async () => ({ data: { all: [], totp: [] }, error: null })),
        webauthn: { authenticate: vi.fn(async () => ({ data: {}, error: null })) },
      },
      passkey: { list: vi.fn(async () => ({ data: [], error: null })) },
      signInWithPasskey: vi.fn(async () => ({ data: { session: null, user: null }, error: null })),
      registerPasskey: vi.fn(async () => ({ data: { id: 'p-1' }, error: null })),
      signInWithOAuth: vi.fn(async () => ({ data: { provider: 'google', url: 'https://idp' }, error: null })),
      linkIdentity: vi.fn(async () => ({ data: { provider: 'google', url: 'https://idp' }, error: null })),
      getUserIdentities: vi.fn(async () => ({ data: { identities: [] }, error: null })),
      unlinkIdentity: vi.fn(async () => ({ data: {}, error: null })),
      refreshSession: vi.fn(async () => ({ data: { session: null, user: null }, error: null })),
    };
    const load = vi.fn(async () => real as unknown as GoTrueClient);
    const client = createLazySessionClient(load);
    expect(load).not.toHaveBeenCalled();

    await expect(client.getSession()).resolves.toEqual({ data: { session: null }, error: null });
    await client.signOut({ scope: 'local' });
    expect(real.signOut).toHaveBeenCalledWith({ scope: 'local' });
    await client.mfa.listFactors();
    expect(real.mfa.listFactors).toHaveBeenCalled();

    const oauth = { provider: 'google' as const, options: { redirectTo: 'http://localhost/auth' } };
    await client.signInWithOAuth(oauth);
    expect(real.signInWithOAuth).toHaveBeenCalledWith(oauth);
    await client.linkIdentity(oauth);
    expect(real.linkIdentity).toHaveBeenCalledWith(oauth);
    await client.getUserIdentities();
    expect(real.getUserIdentities).toHaveBeenCalled();
    const identity = { id: 'sub', identity_id: 'i-1', user_id: 'u-1', provider: 'google' };
    await client.unlinkIdentity(identity);
    expect(real.unlinkIdentity).toHaveBeenCalledWith(identity);
    await client.refreshSession();
    expect(real.refreshSession).toHaveBeenCalled();
    await client.signInWithPasskey();
    expect(real.signInWithPasskey).toHaveBeenCalled();
    await client.registerPasskey();
    expect(real.registerPasskey).toHaveBeenCalled();
    await client.passkey.list();
    expect(real.passkey.list).toHaveBeenCalled();
    await client.mfa.webauthn.authenticate({ factorId: 'f-1' });
    expect(real.mfa.webauthn.authenticate).toHaveBeenCalledWith({ factorId: 'f-1' });

    const callback = vi.fn();
    const { data } = client.onAuthStateChange(callback);
    await vi.waitFor(() => expect(real.onAuthStateChange).toHaveBeenCalledWith(callback));
    data.subscription.unsubscribe();
    expect(unsubscribe).toHaveBeenCalled();
  });

  it('does not subscribe when unsubscribed before the client has loaded', async () => {
    const { createLazySessionClient } = await import('./auth-client');
    const real = { onAuthStateChange: vi.fn() };
    const client = createLazySessionClient(async () => real as unknown as GoTrueClient);
    client.onAuthStateChange(() => {}).data.subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(real.onAuthStateChange).not.toHaveBeenCalled();
  });
});
