import { LoaderCircleIcon, MailCheckIcon, ShieldAlertIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { InlineAlert } from '@/components/ui/inline-alert';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { useSecureAccount } from '@/resources/account/secure-account';

/**
 * Where a security mail's "this wasn't me" link lands. Nothing happens on
 * opening it (mail scanners open links too): the owner presses the button,
 * which signs out every session of the account and mails a link to set a
 * new password.
 */
export function SecureAccountPanel() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const secure = useSecureAccount();
  const { client } = useSession();

  const run = () =>
    secure.mutate(token, {
      // This browser's session, if it has one, is gone on the server too.
      onSuccess: () => void client.signOut({ scope: 'local' }),
    });

  if (secure.isSuccess) {
    return (
      <div className="grid gap-4" data-testid="secure-account-done">
        <p className="flex items-start gap-3 text-base">
          <MailCheckIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
          <span>{secure.data.message}</span>
        </p>
        <p className="text-sm text-muted-foreground">
          Open that mail to choose a new password. If you use the old password anywhere else, change it there too.
        </p>
        <Button asChild variant="outline">
          <Link to={paths.auth.path}>Go to Sign In</Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <p className="flex items-start gap-3 text-base">
        <ShieldAlertIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
        <span>
          We mailed you because something changed in your account. If it wasn't you, secure your account now: every device
          signed in to it is signed out at once, and we email you a link to set a new password.
        </span>
      </p>
      {!token ? <InlineAlert>This page needs the link from your email. Open it from the mail again.</InlineAlert> : null}
      {secure.isError ? (
        <InlineAlert>
          {secure.error instanceof ApiError ? secure.error.message : 'Something went wrong. Please try again.'}
        </InlineAlert>
      ) : null}
      {/* The label is long for a phone: it wraps instead of widening the card. */}
      <Button className="h-auto min-h-10 whitespace-normal py-2.5 text-center" onClick={run} disabled={!token || secure.isPending}>
        {secure.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
        Sign Out Everywhere and Reset Password
      </Button>
      <p className="text-sm text-muted-foreground">
        If the change was yours, there is nothing to do: <Link className="font-medium text-brand-700 underline" to={paths.home.path}>go to PrettyScore</Link>.
      </p>
    </div>
  );
}
