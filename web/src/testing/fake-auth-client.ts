import type { AuthChangeEvent, Session, User } from '@supabase/auth-js';
import { vi } from 'vitest';
import type { SessionClient } from '@/lib/auth-client';

export const testUser: User = {
  id: '00000000-0000-4000-8000-000000000001',
  aud: 'authenticated',
  role: 'authenticated',
  email: 'ada@example.com',
  app_metadata: { provider: 'email', providers: ['email'] },
  user_metadata: {},
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
export function createFakeAuthClient(options: { session?: Session | null; signOutError?: boolean } = {}) {
  let session = options.session ?? null;
  const listeners = new Set<Listener>();

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
