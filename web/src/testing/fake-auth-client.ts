import type { AuthChangeEvent, Session, User } from '@supabase/auth-js';
import { vi } from 'vitest';
import type { SessionClient } from '@/lib/auth-client';

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
  const userFor = (email: string): User => ({
    ...testUser,
    email,
    factors: options.totpCode
      ? [
          {
            id: 'factor-1',
            friendly_name: '',
            factor_type: 'totp',
            status: 'verified',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
          },
        ]
      : undefined,
  });
  const listeners = new Set<Listener>();
  // A starting session's user has the authenticator app too.
  if (session && options.totpCode) session = { ...session, user: userFor(session.user.email ?? testUser.email!) };

  const emit = (event: AuthChangeEvent) => {
    for (const listener of listeners) listener(event, session);
  };

  const client = {
    getSession: vi.fn(async () => ({ data: { session }, error: null })),
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
    // Like auth-js: `data` is merged into the user's metadata and USER_UPDATED is told.
    updateUser: vi.fn(async (attributes: { data?: Record<string, unknown> } = {}) => {
      if (session && attributes.data) {
        session = { ...session, user: { ...session.user, user_metadata: { ...session.user.user_metadata, ...attributes.data } } };
        emit('USER_UPDATED');
      }
      return { data: { user: session?.user ?? null }, error: null };
    }),
    mfa: {
      getAuthenticatorAssuranceLevel: vi.fn(async () => ({
        data: {
          currentLevel: aal,
          nextLevel: options.totpCode ? 'aal2' : aal,
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
      listFactors: vi.fn(async () => ({ data: { all: [], totp: [], phone: [] }, error: null })),
      enroll: vi.fn(),
      unenroll: vi.fn(),
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
