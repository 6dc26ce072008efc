import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { InlineAlert } from '@/components/ui/inline-alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { CredentialsForm } from '@/features/auth/components/credentials-form';
import { SecondFactorForm } from '@/features/auth/components/second-factor-form';
import { SocialSignIn } from '@/features/auth/components/social-sign-in';
import { authMessages, messageOf } from '@/features/auth/utils/auth-messages';
import type { Credentials, SignUpValues } from '@/features/auth/utils/auth-schema';
import { readLastLoginEmail, saveLastLoginEmail } from '@/features/auth/utils/last-login-email';
import { afterSignInPath } from '@/features/auth/utils/return-to';
import { needsSecondFactor } from '@/features/auth/utils/second-factor';
import { isAdult, UNDERAGE_MESSAGE } from '@/lib/age';
import { TERMS_VERSION } from '@/lib/legal';
import { useAuthRedirectError } from '@/hooks/use-auth-redirect-error';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

/**
 * Sign In and Sign Up tabs, and "Continue with <provider>" for each social
 * provider the server offers. As soon as a session exists or appears (already
 * signed in, a sign-in here or at a provider, or one in another tab) the user
 * moves on to ?returnTo= or /dashboard; with an authenticator app enrolled,
 * only after its code. A provider sign-in that failed comes back here with
 * the server's error, which is shown above the tabs; one that made no
 * account because no date of birth came with it opens the Sign Up tab,
 * whose provider buttons ask for it first.
 */
export function AuthPanel() {
  const { status, session, client } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  // The session (by access token) that still needs its authenticator code.
  const [needsCodeFor, setNeedsCodeFor] = useState<string | null>(null);
  const redirectError = useAuthRedirectError();
  // Back from a provider with no account yet: the Sign Up tab asks the date of birth and the terms.
  const [tab, setTab] = useState(() => (redirectError.code === 'age_required' ? 'sign-up' : 'sign-in'));
  // A sign-up refused for age: the kind refusal replaces the form's answer.
  const [refused, setRefused] = useState(false);
  const [lastEmail] = useState(readLastLoginEmail);
  const target = afterSignInPath(location.search, location.state);

  useEffect(() => {
    if (!session) return;
    let active = true;
    void needsSecondFactor(client).then((needed) => {
      if (!active) return;
      if (needed) setNeedsCodeFor(session.access_token);
      else void navigate(target, { replace: true });
    });
    return () => {
      active = false;
    };
  }, [session, client, navigate, target]);

  const signIn = async ({ email, password }: Credentials) => {
    redirectError.dismiss();
    try {
      const { data, error } = await client.signInWithPassword({ email, password });
      if (error) {
        toast.error(messageOf(error, authMessages.signInFailed));
        return;
      }
      saveLastLoginEmail(email);
      if (data.session && !(await needsSecondFactor(client))) toast.success(authMessages.signedIn);
    } catch (error) {
      toast.error(messageOf(error, authMessages.signInFailed));
    }
  };

  const signUp = async ({ email, password, displayName, dateOfBirth }: SignUpValues) => {
    redirectError.dismiss();
    setRefused(false);
    // A minor is refused here, kindly, and nothing is sent: no account, no address kept.
    if (!isAdult(dateOfBirth)) {
      setRefused(true);
      return;
    }
    try {
      const { data, error } = await client.signUp({
        email,
        password,
        options: {
          // The confirmation link leads where signing in would (the entry
          // whose Contact sent them here, say), not always to the dashboard.
          emailRedirectTo: `${window.location.origin}${target}`,
          // The name is kept in the user's metadata, as GoTrue apps keep it (none
          // when left blank); the server takes the date of birth and the terms
          // out of it and keeps them where the user cannot edit them.
          data: {
            ...(displayName ? { display_name: displayName } : {}),
            date_of_birth: dateOfBirth,
            terms_version: TERMS_VERSION,
          },
        },
      });
      if (error?.code === 'underage') {
        setRefused(true);
        return;
      }
      if (error) {
        toast.error(messageOf(error, authMessages.signUpFailed));
        return;
      }
      saveLastLoginEmail(email);
      // Without autoconfirm the server mails a link and there is no session yet.
      if (data.session) toast.success(authMessages.signedUp);
      else toast.info(authMessages.confirmEmail);
    } catch {
      toast.error(authMessages.signUpFailed);
    }
  };

  if (status === 'loading') return <PageLoader />;

  if (session && needsCodeFor === session.access_token) {
    return (
      <SecondFactorForm
        onVerified={() => toast.success(authMessages.signedIn)}
        onCancel={() => void client.signOut({ scope: 'local' })}
      />
    );
  }

  // Signed in and about to be redirected: nothing to fill in.
  if (session) return <PageLoader />;

  return (
    <>
      {redirectError.message ? (
        <InlineAlert className="mb-5">{redirectError.message}</InlineAlert>
      ) : null}
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="sign-in">Sign In</TabsTrigger>
          <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
        </TabsList>
        <TabsContent value="sign-in">
          <CredentialsForm
            idPrefix="sign-in"
            submitLabel="Sign In"
            pendingLabel="Signing in..."
            defaultEmail={lastEmail}
            autoCompletePassword="current-password"
            onSubmit={signIn}
          />
          <p className="mt-4 text-center text-sm">
            <Link to={paths.authReset.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
              Forgot password?
            </Link>
          </p>
        </TabsContent>
        <TabsContent value="sign-up">
          {refused ? (
            <InlineAlert className="mb-4">
              {UNDERAGE_MESSAGE} Scoring a photo and the personality test stay open to you without an account.
            </InlineAlert>
          ) : null}
          <CredentialsForm
            idPrefix="sign-up"
            submitLabel="Create Account"
            pendingLabel="Creating account..."
            autoCompletePassword="new-password"
            askDisplayName
            onSubmit={signUp}
          />
        </TabsContent>
      </Tabs>
      <SocialSignIn target={target} onStart={redirectError.dismiss} signingUp={tab === 'sign-up'} />
    </>
  );
}
