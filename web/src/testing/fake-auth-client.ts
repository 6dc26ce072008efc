import type { AuthChangeEvent, Session, User, UserIdentity } from '@supabase/auth-js';
import { vi } from 'vitest';
import type { OAuthCredentials, SessionClient } from '@/lib/auth-client';

export const testUser: User = {
  id: '00000000-0000-4000-8000-000000000001',
  aud: 'authenticated',
  role: 'authenticated',
  email: 'ada@example.com',
  app_metadata: { provider: 'email', providers: ['email'] },
  // Named, as most signed-in users are; renderApp's `displayName: null` starts without.
  user_metadata: { display_name: 'Ada' },
  identities: [],
  created_at: '2026-01-01T00:00:00Z',
};

export function testSession(user: User = testUser): Session {
  const now = Math.floor(Date.now() / 1000);
  return {
    access_token: 'test-access-token',
    refresh_token: 'test-refresh-token',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: now + 3600,
    user,
  };
}

/** The password account's identity, as GoTrue lists it (provider "email"). */
export function emailIdentity(email = testUser.email!, userId = testUser.id): UserIdentity {
  return {
    identity_id: `identity-email-${email}`,
    id: userId,
    user_id: userId,
    provider: 'email',
    identity_data: { email, email_verified: true, sub: userId },
    created_at: '2026-01-01T00:00:00Z',
    last_sign_in_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    email,
  } as UserIdentity;
}

/** An identity at a social provider (Google, GitHub, a generic OpenID Connect one). */
export function providerIdentity(provider: string, email: string, createdAt = '2026-02-03T10:00:00Z'): UserIdentity {
  return {
    identity_id: `identity-${provider}-${email}`,
    id: `${provider}-sub-${email}`,
    user_id: testUser.id,
    provider,
    identity_data: { email, email_verified: true, name: 'Ada', sub: `${provider}-sub-${email}` },
    created_at: createdAt,
    last_sign_in_at: createdAt,
    updated_at: createdAt,
    email,
  } as UserIdentity;
}

/** Where the fake's signInWithOAuth and linkIdentity say the browser would go (it goes nowhere). */
export const fakeProviderUrl = (provider: string) => `https://idp.example/authorize?provider=${provider}`;

type Listener = (event: AuthChangeEvent, session: Session | null) => void;

/**
 * An in-memory stand-in for the auth client: it holds a session, tells
 * listeners about changes like auth-js does, and records sign-outs.
 */
type FakeAuthOptions = {
  session?: Session | null;
  signOutError?: boolean;
  /** Accounts that exist: email → password. */
  accounts?: Record<string, string>;
  /** The session's user has a verified authenticator app; the code it accepts. */
  totpCode?: string;
  /** The signed-in user's identities (GET /user); default: the password account's alone. */
  identities?: UserIdentity[];
  /** The server has manual linking off: linking and unlinking answer 404 manual_linking_disabled. */
  linkingDisabled?: boolean;
  /** The user's passkeys (GET /passkeys); a passkey sign-in signs in `passkeyAccount`. */
  passkeys?: { id: string; friendly_name?: string; created_at: string; last_used_at?: string }[];
  /** Who the device's passkey belongs to (signInWithPasskey); without one the server refuses it. */
  passkeyAccount?: string;
  /** The browser's prompt is cancelled (NotAllowedError) in every passkey and security-key step. */
  cancelPrompt?: boolean;
  /** The user has a verified security key (a WebAuthn factor). */
  securityKey?: boolean;
  /** The stored session is read only once this settles (a page still restoring it). */
  sessionRead?: Promise<void>;
};

const error = (message: string, code = 'unexpected_failure', status = 400) => ({
  name: 'AuthApiError',
  message,
  code,
  status,
});

export type { FakeAuthOptions };

export function createFakeAuthClient(options: FakeAuthOptions = {}) {
  let session = options.session ?? null;
  const accounts = { ...options.accounts };
  let aal: 'aal1' | 'aal2' = 'aal1';
  const factorOf = (id: string, factorType: 'totp' | 'webauthn', friendlyName = '') => ({
    id,
    friendly_name: friendlyName,
    factor_type: factorType,
    status: 'verified' as const,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  });
  const factors = [
    ...(options.totpCode ? [factorOf('factor-1', 'totp')] : []),
    ...(options.securityKey ? [factorOf('factor-key', 'webauthn', 'Security key')] : []),
  ];
  const userFor = (email: string): User => ({
    ...testUser,
    email,
    factors: factors.length ? (factors as User['factors']) : undefined,
  });
  let passkeys = [...(options.passkeys ?? [])];
  const cancelled = () => ({
    data: null,
    error: Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
  });
  let identities: UserIdentity[] | undefined = options.identities ? [...options.identities] : undefined;
  const currentIdentities = () => (identities ??= [emailIdentity(session?.user.email ?? testUser.email!)]);
  const listeners = new Set<Listener>();
  // A starting session's user has the authenticator app too.
  if (session && factors.length) session = { ...session, user: userFor(session.user.email ?? testUser.email!) };

  const emit = (event: AuthChangeEvent) => {
    for (const listener of listeners) listener(event, session);
  };

  const client = {
    getSession: vi.fn(async () => {
      await options.sessionRead;
      return { data: { session }, error: null };
    }),
    onAuthStateChange: vi.fn((listener: Listener) => {
      listeners.add(listener);
      return {
        data: {
          subscription: {
            id: 'fake-subscription',
            callback: listener,
            unsubscribe: () => listeners.delete(listener),
          },
        },
      };
    }),
    signInWithPassword: vi.fn(async ({ email, password }: { email: string; password: string }) => {
      if (accounts[email] !== password) {
        return { data: { user: null, session: null }, error: error('Invalid login credentials', 'invalid_credentials') };
      }
      session = testSession(userFor(email));
      aal = 'aal1';
      emit('SIGNED_IN');
      return { data: { user: session.user, session }, error: null };
    }),
    signUp: vi.fn(async ({ email, password, options: signUpOptions }: { email: string; password: string; options?: { data?: object } }) => {
      if (email in accounts) {
        return { data: { user: null, session: null }, error: error('User already registered', 'user_already_exists', 422) };
      }
      accounts[email] = password;
      session = testSession({ ...userFor(email), user_metadata: { ...signUpOptions?.data } });
      emit('SIGNED_IN');
      return { data: { user: session.user, session }, error: null };
    }),
    resetPasswordForEmail: vi.fn(async () => ({ data: {}, error: null })),
    reauthenticate: vi.fn(async () => ({ data: { user: null, session: null }, error: null })),
    resend: vi.fn(async () => ({ data: { user: null, session: null }, error: null })),
    // Like auth-js: `data` is merged into the user's metadata and USER_UPDATED is told.
    updateUser: vi.fn(async (attributes: { data?: Record<string, unknown> } = {}) => {
      if (session && attributes.data) {
        session = { ...session, user: { ...session.user, user_metadata: { ...session.user.user_metadata, ...attributes.data } } };
        emit('USER_UPDATED');
      }
      return { data: { user: session?.user ?? null }, error: null };
    }),
    // Like auth-js in a browser it would navigate to the provider; the fake only answers.
    signInWithOAuth: vi.fn(async ({ provider }: OAuthCredentials) => ({
      data: { provider, url: fakeProviderUrl(provider) },
      error: null,
    })),
    linkIdentity: vi.fn(async ({ provider }: OAuthCredentials) => {
      if (!session) return { data: { provider, url: null }, error: error('Auth session missing!', 'session_not_found', 401) };
      if (options.linkingDisabled) {
        return { data: { provider, url: null }, error: error('Manual linking is disabled', 'manual_linking_disabled', 404) };
      }
      return { data: { provider, url: fakeProviderUrl(provider) }, error: null };
    }),
    getUserIdentities: vi.fn(async () => {
      if (!session) return { data: null, error: error('Auth session missing!', 'session_not_found', 401) };
      return { data: { identities: currentIdentities() }, error: null };
    }),
    // The server's rules: linking must be on, and the last way in stays.
    unlinkIdentity: vi.fn(async (identity: UserIdentity) => {
      if (options.linkingDisabled) return { data: null, error: error('Manual linking is disabled', 'manual_linking_disabled', 404) };
      const list = currentIdentities();
      if (!list.some((item) => item.identity_id === identity.identity_id)) {
        return { data: null, error: error("Identity doesn't exist", 'identity_not_found', 404) };
      }
      if (list.length === 1) {
        return {
          data: null,
          error: error('User must have at least 1 identity after unlinking', 'single_identity_not_deletable', 422),
        };
      }
      identities = list.filter((item) => item.identity_id !== identity.identity_id);
      return { data: {}, error: null };
    }),
    refreshSession: vi.fn(async () => {
      if (!session) return { data: { user: null, session: null }, error: error('Auth session missing!', 'session_not_found', 401) };
      session = { ...session, user: { ...session.user, identities: currentIdentities() } };
      emit('TOKEN_REFRESHED');
      return { data: { user: session.user, session }, error: null };
    }),
    mfa: {
      getAuthenticatorAssuranceLevel: vi.fn(async () => ({
        data: {
          currentLevel: aal,
          nextLevel: factors.length ? 'aal2' : aal,
          currentAuthenticationMethods: [],
        },
        error: null,
      })),
      challengeAndVerify: vi.fn(async ({ code }: { factorId: string; code: string }) => {
        if (code !== options.totpCode) return { data: null, error: error('Invalid TOTP code entered', 'mfa_verification_failed', 422) };
        aal = 'aal2';
        session = { ...session!, access_token: 'test-access-token-aal2' };
        emit('MFA_CHALLENGE_VERIFIED');
        return { data: session, error: null };
      }),
      listFactors: vi.fn(async () => ({
        data: { all: factors, totp: factors.filter((f) => f.factor_type === 'totp'), phone: [] },
        error: null,
      })),
      enroll: vi.fn(async ({ factorType, friendlyName }: { factorType: string; friendlyName?: string }) => ({
        data: { id: `factor-new-${factorType}`, type: factorType, friendly_name: friendlyName ?? '' },
        error: null,
      })),
      unenroll: vi.fn(async ({ factorId }: { factorId: string }) => ({ data: { id: factorId }, error: null })),
      webauthn: {
        // The browser's prompt, then the credential to send (nothing is sent until verify).
        challenge: vi.fn(async ({ factorId }: { factorId: string }) => {
          if (options.cancelPrompt) return cancelled();
          return { data: { factorId, challengeId: 'challenge-1', webauthn: { type: 'create', credential_response: {} } }, error: null };
        }),
        verify: vi.fn(async ({ factorId }: { factorId: string }) => {
          factors.push(factorOf(factorId, 'webauthn', 'Security key'));
          aal = 'aal2';
          return { data: session, error: null };
        }),
        authenticate: vi.fn(async () => {
          if (options.cancelPrompt) return cancelled();
          aal = 'aal2';
          session = { ...session!, access_token: 'test-access-token-aal2' };
          emit('MFA_CHALLENGE_VERIFIED');
          return { data: session, error: null };
        }),
      },
    },
    // The whole ceremony: the server's options, the browser's prompt, the server's check.
    signInWithPasskey: vi.fn(async () => {
      if (options.cancelPrompt) return cancelled();
      if (!options.passkeyAccount) {
        return { data: null, error: error('Credential verification failed', 'webauthn_verification_failed') };
      }
      session = testSession(userFor(options.passkeyAccount));
      aal = 'aal1';
      emit('SIGNED_IN');
      return { data: { user: session.user, session }, error: null };
    }),
    registerPasskey: vi.fn(async () => {
      if (options.cancelPrompt) return cancelled();
      const created = { id: `passkey-${passkeys.length + 1}`, friendly_name: passkeys.length ? `Passkey ${passkeys.length + 1}` : 'Passkey', created_at: '2026-03-01T10:00:00Z' };
      passkeys = [...passkeys, created];
      return { data: created, error: null };
    }),
    passkey: {
      list: vi.fn(async () => ({ data: passkeys, error: null })),
      update: vi.fn(async ({ passkeyId, friendlyName }: { passkeyId: string; friendlyName: string }) => {
        const found = passkeys.find((p) => p.id === passkeyId);
        if (!found) return { data: null, error: error('Passkey not found', 'validation_failed', 404) };
        passkeys = passkeys.map((p) => (p.id === passkeyId ? { ...p, friendly_name: friendlyName } : p));
        return { data: { ...found, friendly_name: friendlyName }, error: null };
      }),
      delete: vi.fn(async ({ passkeyId }: { passkeyId: string }) => {
        passkeys = passkeys.filter((p) => p.id !== passkeyId);
        return { data: null, error: null };
      }),
    },
    signOut: vi.fn(async () => {
      if (options.signOutError) {
        return { error: { name: 'AuthApiError', message: 'Sign-out failed' } };
      }
      session = null;
      emit('SIGNED_OUT');
      return { error: null };
    }),
  };

  return {
    client: client as unknown as SessionClient,
    mocks: client,
    listenerCount: () => listeners.size,
    signIn(next: Session = testSession()) {
      session = next;
      emit('SIGNED_IN');
    },
  };
}
