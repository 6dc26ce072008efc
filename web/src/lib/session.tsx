import type { Session } from '@supabase/auth-js';
import { createContext, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import { getAuthClient, type SessionClient } from '@/lib/auth-client';

export type SessionState = {
  /** 'loading' until the stored session has been read once. */
  status: 'loading' | 'ready';
  session: Session | null;
  client: SessionClient;
};

const SessionContext = createContext<SessionState | null>(null);

type SessionProviderProps = {
  children: ReactNode;
  /** Defaults to the app's auth client; tests pass a double. */
  client?: SessionClient;
};

/**
 * Reads the stored session once, then follows every auth event (sign in,
 * sign out, token refresh, user update…) so the whole tree sees one session.
 */
export function SessionProvider({ children, client: given }: SessionProviderProps) {
  const client = useMemo(() => given ?? getAuthClient(), [given]);
  const [state, setState] = useState<Pick<SessionState, 'status' | 'session'>>({
    status: 'loading',
    session: null,
  });

  useEffect(() => {
    let active = true;
    client
      .getSession()
      .then(({ data }) => {
        if (active) setState({ status: 'ready', session: data.session });
      })
      .catch(() => {
        // No readable session is the same as being signed out.
        if (active) setState({ status: 'ready', session: null });
      });

    // The callback must stay synchronous: auth-js holds a lock while it runs.
    const {
      data: { subscription },
    } = client.onAuthStateChange((_event, session) => {
      if (active) setState({ status: 'ready', session });
    });

    return () => {
      active = false;
      subscription.unsubscribe();
    };
  }, [client]);

  const value = useMemo(() => ({ ...state, client }), [state, client]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionState {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

/**
 * Whether `/api` and `/functions` will serve this session: a user with a
 * verified authenticator app needs an aal2 session, and the server answers
 * 403 `insufficient_aal` to anything less. Background checks (the header's
 * subscription) wait for it instead of drawing that answer while the user is
 * still typing the code.
 */
export function servesApi(session: Session): boolean {
  const hasFactor = session.user.factors?.some((factor) => factor.status === 'verified') ?? false;
  if (!hasFactor) return true;
  try {
    const payload = session.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return (JSON.parse(atob(payload)) as { aal?: string }).aal === 'aal2';
  } catch {
    return false;
  }
}
