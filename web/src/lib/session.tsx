import type { Session } from '@supabase/auth-js';
import { createContext, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  getSessionClient,
  loadAuthClient,
  mayHaveSession,
  whenAuthClientLoaded,
  type SessionClient,
} from '@/lib/auth-client';
import { whenIdle } from '@/lib/idle';

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
 *
 * With the app's own client and certainly no session (`mayHaveSession`: a
 * first visit, or a signed-out one), the page is drawn signed out at once and
 * auth-js (a chunk of its own) loads when the browser is idle, or sooner if
 * anything asks for it (the sign-in form); then its events are followed, so a
 * sign-in in another tab still shows here. Otherwise the session is read at
 * once, and the header shows its placeholder until then, as it always did.
 */
export function SessionProvider({ children, client: given }: SessionProviderProps) {
  const client = useMemo(() => given ?? getSessionClient(), [given]);
  const [deferred] = useState(() => given === undefined && !mayHaveSession());
  const [state, setState] = useState<Pick<SessionState, 'status' | 'session'>>(() =>
    deferred ? { status: 'ready', session: null } : { status: 'loading', session: null },
  );

  useEffect(() => {
    let active = true;
    let unsubscribe: (() => void) | undefined;

    const follow = () => {
      if (!active || unsubscribe) return;
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
      unsubscribe = () => subscription.unsubscribe();
    };

    let cancelIdle: (() => void) | undefined;
    if (deferred) {
      void whenAuthClientLoaded().then(follow);
      cancelIdle = whenIdle(() => void loadAuthClient());
    } else {
      follow();
    }

    return () => {
      active = false;
      cancelIdle?.();
      unsubscribe?.();
    };
  }, [client, deferred]);

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
