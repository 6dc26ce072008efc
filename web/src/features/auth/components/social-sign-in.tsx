import { LoaderCircleIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { signInPathFor } from '@/config/paths';
import { messageOf } from '@/features/auth/utils/auth-messages';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useSocialProviders, type SocialProvider } from '@/resources/auth-settings/auth-settings';

/**
 * Where a provider sends the browser back to: this sign-in page, on this
 * origin (the server only redirects to its own site), with the page to go
 * to next. On success auth-js exchanges the code there and the panel moves
 * on to `returnTo`; on failure the panel shows the server's error.
 */
export function socialRedirectTo(target: string, origin = window.location.origin): string {
  return `${origin}${signInPathFor(target)}`;
}

/**
 * "Continue with <provider>" for each social provider the server has on, under
 * an "or" divider; nothing when there is none or the settings cannot be read.
 * A click leaves for the provider: the button shows that it is on its way and
 * every button stays disabled, so a second click starts nothing.
 */
export function SocialSignIn({ target, onStart }: { target: string; /** Called as a sign-in starts (the page's old error goes). */ onStart?: () => void }) {
  const { client } = useSession();
  const { providers } = useSocialProviders();
  const [pending, setPending] = useState<string | null>(null);
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

  if (providers.length === 0) return null;

  const start = async ({ name, label }: SocialProvider) => {
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
      const { error } = await client.signInWithOAuth({ provider: name, options: { redirectTo: socialRedirectTo(target) } });
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
      <ul className="grid gap-2" aria-label="Other ways to sign in">
        {providers.map((provider) => (
          <li key={provider.name}>
            <Button
              type="button"
              variant="outline"
              size="lg"
              className="w-full"
              disabled={pending !== null}
              aria-busy={pending === provider.name}
              onClick={() => void start(provider)}
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
