import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '@/components/layout/page-loader';
import { signInPathFor } from '@/config/paths';
import { useSession } from '@/lib/session';

/**
 * Shows its children only to a signed-in user. Anyone else goes to /auth,
 * which brings them back here once they have signed in. This only mirrors
 * the server, which refuses the page's data without a valid token anyway.
 *
 * A user who signs out (or deletes the account) while on the page goes home
 * instead, as every sign-out does: that keeps the sign-out's own navigation
 * to / and this redirect from racing each other.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, session } = useSession();
  const location = useLocation();
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (session && !wasSignedIn) setWasSignedIn(true);

  if (status === 'loading') return <PageLoader />;
  if (!session) {
    if (wasSignedIn) return <Navigate to="/" replace />;
    const returnTo = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={signInPathFor(returnTo)} replace state={{ returnTo }} />;
  }
  return children;
}
