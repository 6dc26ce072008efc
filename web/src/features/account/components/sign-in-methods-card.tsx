import type { UserIdentity } from '@supabase/auth-js';
import { KeyRoundIcon, LinkIcon, LoaderCircleIcon, MailIcon, UserRoundIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { InlineAlert } from '@/components/ui/inline-alert';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useAuthRedirectError } from '@/hooks/use-auth-redirect-error';
import { authErrorMessage } from '@/lib/auth-redirect';
import { toast } from '@/lib/toast';
import { useIdentities, useLinkIdentity, useUnlinkIdentity } from '@/resources/account/identities';
import { providerLabel, useSocialProviders, type SocialProvider } from '@/resources/auth-settings/auth-settings';

const ONLY_WAY_IN = 'This is your only way to sign in: link another one before you unlink it.';

/** The server's refusal (auth-js's AuthApiError) in the user's words; anything else (no answer) is `fallback`. */
function identityErrorMessage(error: unknown, fallback: string): string {
  const record = error && typeof error === 'object' ? (error as { name?: unknown; code?: unknown; message?: unknown }) : {};
  if (record.name !== 'AuthApiError') return fallback;
  return authErrorMessage(
    {
      code: typeof record.code === 'string' ? record.code : null,
      description: typeof record.message === 'string' ? record.message : null,
    },
    fallback,
  );
}

function emailOf(identity: UserIdentity): string | undefined {
  const fromData = identity.identity_data?.email;
  if (typeof fromData === 'string' && fromData) return fromData;
  // GoTrue also sends it beside identity_data (auth-js's type leaves it out).
  const top = (identity as UserIdentity & { email?: unknown }).email;
  return typeof top === 'string' && top ? top : undefined;
}

/** Where a linking provider sends the browser back to: this page, on this origin. */
export function linkRedirectTo(origin = window.location.origin): string {
  return `${origin}${paths.account.path}`;
}

/**
 * My Account's "Sign-in methods": each way into the account (the password
 * account, and every linked provider with its address and the day it was
 * linked), "Link <provider>" for each provider the server offers that is not
 * linked yet, and Unlink behind a confirmation. The last way in cannot be
 * unlinked (the server refuses it too). Linking leaves for the provider and
 * comes back here; a failure comes back with the server's error, shown here.
 */
export function SignInMethodsCard() {
  const identities = useIdentities();
  const { providers, settings } = useSocialProviders();
  const link = useLinkIdentity();
  const unlink = useUnlinkIdentity();
  const redirectError = useAuthRedirectError();
  const [failure, setFailure] = useState<string | null>(null);
  const [linking, setLinking] = useState<string | null>(null);
  const linkStarted = useRef(false);
  const message = failure ?? redirectError.message;

  // Back from the provider through the back-forward cache: the page is as it was left, busy.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      linkStarted.current = false;
      setLinking(null);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  const list = identities.data ?? [];
  const linked = new Set(list.map((identity) => identity.provider));
  const linkable = providers.filter((provider) => !linked.has(provider.name));
  const onlyOne = list.length <= 1;
  const labelOf = (identity: UserIdentity) =>
    identity.provider === 'email' ? 'Email and password' : providerLabel(identity.provider, settings);

  const startLink = ({ name, label }: SocialProvider) => {
    if (linkStarted.current) return;
    linkStarted.current = true;
    setLinking(name);
    setFailure(null);
    redirectError.dismiss();
    link.mutate(
      { provider: name, redirectTo: linkRedirectTo() },
      {
        // On success the browser is on its way to the provider: stay busy until the page goes.
        onError: (error) => {
          setFailure(identityErrorMessage(error, `Could not start linking ${label}. Please try again.`));
          linkStarted.current = false;
          setLinking(null);
        },
      },
    );
  };

  const remove = async (identity: UserIdentity) => {
    const label = labelOf(identity);
    setFailure(null);
    redirectError.dismiss();
    try {
      await unlink.mutateAsync(identity);
      toast.success(identity.provider === 'email' ? 'Email and password sign-in removed.' : `${label} is no longer linked.`);
    } catch (error) {
      // Resolved, so the dialog closes and the message shows in the card rather than behind it.
      setFailure(identityErrorMessage(error, `Could not unlink ${label}. Please try again.`));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Sign-in methods</span>
        </CardTitle>
        <CardDescription>The ways you can sign in to this account.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {message ? <InlineAlert>{message}</InlineAlert> : null}
        {identities.isPending ? (
          <Skeleton className="h-14 w-full rounded-xl" />
        ) : identities.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not load your sign-in methods.
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Your sign-in methods">
            {list.map((identity) => {
              const label = labelOf(identity);
              const email = emailOf(identity);
              const hintId = `sign-in-method-hint-${identity.identity_id}`;
              return (
                <li key={identity.identity_id} className="flex flex-wrap items-center gap-3 rounded-xl border p-3">
                  {identity.provider === 'email' ? (
                    <MailIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  ) : (
                    <UserRoundIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  )}
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-semibold">{label}</p>
                    {email ? <p className="text-sm break-all text-muted-foreground">{email}</p> : null}
                    {identity.provider !== 'email' && identity.created_at ? (
                      <p className="text-xs text-muted-foreground">
                        Linked {new Date(identity.created_at).toLocaleDateString()}
                      </p>
                    ) : null}
                    {onlyOne ? (
                      <p id={hintId} className="text-xs text-muted-foreground">
                        {ONLY_WAY_IN}
                      </p>
                    ) : null}
                  </div>
                  {onlyOne ? (
                    <Button variant="outline" size="sm" disabled aria-describedby={hintId}>
                      <span aria-hidden="true">Unlink</span>
                      <span className="sr-only">{`Unlink ${label}`}</span>
                    </Button>
                  ) : (
                    <ConfirmButton
                      title={`Unlink ${label}?`}
                      description={
                        identity.provider === 'email'
                          ? 'You will no longer be able to sign in with your email and password.'
                          : `You will no longer be able to sign in with ${label}${email ? ` (${email})` : ''}. You can link it again later.`
                      }
                      confirmLabel="Unlink"
                      pendingLabel="Unlinking..."
                      disabled={unlink.isPending}
                      onConfirm={() => remove(identity)}
                    >
                      <span aria-hidden="true">Unlink</span>
                      <span className="sr-only">{`Unlink ${label}`}</span>
                    </ConfirmButton>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {identities.isSuccess && linkable.length > 0 ? (
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {linkable.map((provider) => (
              <Button
                key={provider.name}
                variant="outline"
                disabled={linking !== null}
                aria-busy={linking === provider.name}
                onClick={() => startLink(provider)}
              >
                {linking === provider.name ? (
                  <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
                ) : (
                  <LinkIcon aria-hidden="true" />
                )}
                {linking === provider.name ? `Redirecting to ${provider.label}...` : `Link ${provider.label}`}
              </Button>
            ))}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
