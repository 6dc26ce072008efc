import { KeyRoundIcon, LoaderCircleIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { InlineAlert } from '@/components/ui/inline-alert';
import { signInPathFor } from '@/config/paths';
import { SocialSignUpStep } from '@/features/auth/components/social-sign-up-step';
import { authMessages, messageOf } from '@/features/auth/utils/auth-messages';
import { isAdult, UNDERAGE_MESSAGE } from '@/lib/age';
import { TERMS_VERSION } from '@/lib/legal';
import { passkeyErrorMessage } from '@/lib/passkey-errors';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { usePasskeysAvailable, useSocialProviders, type SocialProvider } from '@/resources/auth-settings/auth-settings';

/**
 * Where a provider sends the browser back to: this sign-in page, on this
 * origin (the server only redirects to its own site), with the page to go
 * to next. On success auth-js exchanges the code there and the panel moves
 * on to `returnTo`; on failure the panel shows the server's error.
 */
export function socialRedirectTo(target: string, origin = window.location.origin): string {
  return `${origin}${signInPathFor(target)}`;
}

/** `pending` while the browser asks for a passkey (no provider has this name: theirs are lower-case words). */
const PASSKEY = ' passkey';

/**
 * "Sign in with a passkey" (when the server and the browser have passkeys)
 * and "Continue with <provider>" for each social provider the server has on,
 * under an "or" divider; nothing when there is none or the settings cannot
 * be read. A passkey sign-in stays on this page: the panel moves on once the
 * session arrives (or asks for the second factor).
 * A click leaves for the provider: the button shows that it is on its way and
 * every button stays disabled, so a second click starts nothing.
 */
export function SocialSignIn({
  target,
  onStart,
  signingUp = false,
}: {
  target: string;
  /** Called as a sign-in starts (the page's old error goes). */
  onStart?: () => void;
  /**
   * The Sign Up tab: a provider's button first asks the date of birth and
   * the terms, which go with the browser to the server. On the Sign In tab
   * the server makes no new account without them: a person new here comes
   * back to be asked (`age_required`).
   */
  signingUp?: boolean;
}) {
  const { client } = useSession();
  const { providers } = useSocialProviders();
  const passkeys = usePasskeysAvailable();
  const [pending, setPending] = useState<string | null>(null);
  // The provider whose sign-up step is open, and a minor's refusal.
  const [asking, setAsking] = useState<SocialProvider | null>(null);
  const [underage, setUnderage] = useState(false);
  // Set before the first await: a double click arrives before React redraws.
  const started = useRef(false);

  // Back from the provider's page through the browser's back-forward cache: the page is as it was left, busy.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      started.current = false;
      setPending(null);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  if (providers.length === 0 && !passkeys) return null;

  const signInWithPasskey = async () => {
    if (started.current) return;
    started.current = true;
    setPending(PASSKEY);
    onStart?.();
    const fallback = 'Could not sign in with a passkey. Please try again.';
    try {
      const { data, error } = await client.signInWithPasskey();
      if (error) {
        const message = passkeyErrorMessage(error, fallback);
        if (message) toast.error(message);
      } else if (data?.session) {
        toast.success(authMessages.signedIn);
      }
    } catch (error) {
      const message = passkeyErrorMessage(error, fallback);
      if (message) toast.error(message);
    } finally {
      started.current = false;
      setPending(null);
    }
  };

  const choose = (provider: SocialProvider) => {
    setUnderage(false);
    if (signingUp) setAsking(provider);
    else void start(provider, { require_date_of_birth: 'true' });
  };

  const declared = (provider: SocialProvider, dateOfBirth: string) => {
    // A minor is refused here, kindly, and nothing is sent.
    if (!isAdult(dateOfBirth)) {
      setUnderage(true);
      return;
    }
    void start(provider, { date_of_birth: dateOfBirth, terms_version: TERMS_VERSION });
  };

  const start = async ({ name, label }: SocialProvider, queryParams: Record<string, string>) => {
    if (started.current) return;
    started.current = true;
    setPending(name);
    onStart?.();
    const fallback = `Could not start signing in with ${label}. Please try again.`;
    // The server's refusal in its words; a network failure (an exception) in ours.
    const fail = (message: string) => {
      toast.error(message);
      started.current = false;
      setPending(null);
    };
    try {
      const { error } = await client.signInWithOAuth({ provider: name, options: { redirectTo: socialRedirectTo(target), queryParams } });
      // Without an error auth-js is taking the browser to the provider: stay busy until the page goes.
      if (error) fail(messageOf(error, fallback));
    } catch {
      fail(fallback);
    }
  };

  return (
    <div className="mt-6 grid gap-3" data-testid="social-sign-in">
      <div className="flex items-center gap-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
        <span>or</span>
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </div>
      {underage ? <InlineAlert>{UNDERAGE_MESSAGE}</InlineAlert> : null}
      {asking && signingUp ? (
        <SocialSignUpStep
          key={asking.name}
          label={asking.label}
          onContinue={(dateOfBirth) => declared(asking, dateOfBirth)}
          onCancel={() => {
            setAsking(null);
            setUnderage(false);
          }}
        />
      ) : null}
      <ul className="grid gap-2" aria-label="Other ways to sign in">
        {passkeys ? (
          <li>
            <Button
              type="button"
              variant="outline"
              size="lg"
              className="w-full"
              disabled={pending !== null}
              aria-busy={pending === PASSKEY}
              onClick={() => void signInWithPasskey()}
            >
              {pending === PASSKEY ? (
                <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
              ) : (
                <KeyRoundIcon aria-hidden="true" />
              )}
              {pending === PASSKEY ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
            </Button>
          </li>
        ) : null}
        {providers.map((provider) => (
          <li key={provider.name}>
            <Button
              type="button"
              variant="outline"
              size="lg"
              className="w-full"
              disabled={pending !== null}
              aria-busy={pending === provider.name}
              onClick={() => choose(provider)}
            >
              {pending === provider.name ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
              {pending === provider.name ? `Redirecting to ${provider.label}...` : `Continue with ${provider.label}`}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
