import type { Session } from '@supabase/auth-js';
import { QueryClientContext, type Query, type QueryClient } from '@tanstack/react-query';
import { createContext, use, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
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
 *
 * It is also the query cache's boundary: when the signed-in user changes
 * (sign-out, or another user signs in) every cached answer is forgotten
 * before the new session reaches the screens (`forgetAnswers`), so query keys
 * never carry a user id. The first read of the stored session changes no
 * user: what was asked before it went with that session's token.
 */
export function SessionProvider({ children, client: given }: SessionProviderProps) {
  const client = useMemo(() => given ?? getSessionClient(), [given]);
  // The app's query client (absent where a test renders the provider alone).
  const queryClient = use(QueryClientContext);
  const [deferred] = useState(() => given === undefined && !mayHaveSession());
  const [state, setState] = useState<Pick<SessionState, 'status' | 'session'>>(() =>
    deferred ? { status: 'ready', session: null } : { status: 'loading', session: null },
  );
  // Whose answers the cache holds: unknown until the first read (deferred: nobody's).
  const cachedFor = useRef<{ userId: string | null } | null>(deferred ? { userId: null } : null);
  // Queries forgotten for the last user, whose screens are told once the new session is drawn.
  const forgotten = useRef<Query[]>([]);

  useEffect(() => {
    let active = true;
    let unsubscribe: (() => void) | undefined;

    const apply = (session: Session | null) => {
      if (!active) return;
      const userId = session?.user.id ?? null;
      if (queryClient && cachedFor.current && cachedFor.current.userId !== userId) {
        forgotten.current.push(...forgetAnswers(queryClient));
      }
      cachedFor.current = { userId };
      setState({ status: 'ready', session });
    };

    const follow = () => {
      if (!active || unsubscribe) return;
      client
        .getSession()
        .then(({ data }) => apply(data.session))
        // No readable session is the same as being signed out.
        .catch(() => apply(null));

      // The callback must stay synchronous: auth-js holds a lock while it runs.
      const {
        data: { subscription },
      } = client.onAuthStateChange((_event, session) => apply(session));
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
  }, [client, deferred, queryClient]);

  // The new session is drawn: a screen that did not redraw with it (it does
  // not read the session) still holds a forgotten answer; resetting the old
  // query tells it, and it asks again under the new session.
  const userId = state.session?.user.id ?? null;
  useEffect(() => {
    for (const query of forgotten.current.splice(0)) query.reset();
  }, [userId]);

  const value = useMemo(() => ({ ...state, client }), [state, client]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

/**
 * Empties the query cache (queries and mutations) and returns the queries it
 * held. Called before a new user's session reaches the screens, so none of
 * them can read the last user's answer: a screen that redraws builds a fresh
 * query and asks the server with the new session's token.
 */
export function forgetAnswers(queryClient: QueryClient): Query[] {
  const queries = queryClient.getQueryCache().getAll();
  queryClient.clear();
  return queries;
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
