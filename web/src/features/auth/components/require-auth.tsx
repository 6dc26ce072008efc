import { lazy, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { signInPathFor } from '@/config/paths';
import { authMessages } from '@/features/auth/utils/auth-messages';
import { needsSecondFactor } from '@/features/auth/utils/second-factor';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

// The code step's form (react-hook-form, zod) loads only when a session needs
// it: every guarded route imports this guard, and so does the home page's bundle.
const SecondFactorForm = lazy(() =>
  import('@/features/auth/components/second-factor-form').then((module) => ({ default: module.SecondFactorForm })),
);

/**
 * Shows its children only to a signed-in user. Anyone else goes to /auth,
 * which brings them back here once they have signed in. This only mirrors
 * the server, which refuses the page's data without a valid token anyway.
 *
 * A user who signs out (or deletes the account) while on the page goes home
 * instead, as every sign-out does: that keeps the sign-out's own navigation
 * to / and this redirect from racing each other.
 *
 * A session that signed in with the password only while the account has an
 * authenticator app (aal1; the server answers 403 `insufficient_aal` to it)
 * first gets the code step, then the page.
 */
export function RequireAuth({ children, message }: { children: ReactNode; /** Said (a toast) on the way to sign in. */ message?: string }) {
  const { status, session, client } = useSession();
  const location = useLocation();
  const [wasSignedIn, setWasSignedIn] = useState(false);
  // The access token whose assurance level was checked, and the answer.
  const [checked, setChecked] = useState<{ token: string; needsCode: boolean } | null>(null);
  if (session && !wasSignedIn) setWasSignedIn(true);

  useEffect(() => {
    if (!session) return;
    let active = true;
    const token = session.access_token;
    void needsSecondFactor(client).then((needsCode) => {
      if (active) setChecked({ token, needsCode });
    });
    return () => {
      active = false;
    };
  }, [session, client]);

  if (status === 'loading') return <PageLoader />;
  if (!session) {
    if (wasSignedIn) return <Navigate to="/" replace />;
    const returnTo = `${location.pathname}${location.search}${location.hash}`;
    return <SignInFirst returnTo={returnTo} message={message} />;
  }
  if (checked?.token !== session.access_token) return <PageLoader />;
  if (checked.needsCode) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-10">
        <SecondFactorForm
          onVerified={() => toast.success(authMessages.signedIn)}
          onCancel={() => void client.signOut({ scope: 'local' })}
        />
      </div>
    );
  }
  return children;
}

/** The way to sign in, and back to `returnTo`; the page's message, if it has one, as a toast. */
function SignInFirst({ returnTo, message }: { returnTo: string; message?: string }) {
  useEffect(() => {
    if (message) toast.error(message);
  }, [message]);
  return <Navigate to={signInPathFor(returnTo)} replace state={{ returnTo }} />;
}
