import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRoundIcon, LoaderCircleIcon, ShieldCheckIcon, SmartphoneIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import {
  useAddSecurityKey,
  useEnrollFactor,
  useFactors,
  useUnenrollFactor,
  useVerifyFactor,
  type Enrollment,
} from '@/resources/account/factors';
import {
  isInsufficientAal,
  messageOf,
  totpCodeSchema,
  type TotpCodeForm,
} from '@/features/account/utils/account-schema';
import { passkeyErrorMessage } from '@/lib/passkey-errors';
import { toast } from '@/lib/toast';
import { browserHasPasskeys } from '@/resources/auth-settings/auth-settings';

const NEEDS_AAL2 =
  'This needs a sign-in verified with your second factor. Sign out, sign in again with it, then try again.';

/** "Security key", or "Security key 2", … : a name none of the user's factors has (the server refuses a repeat). */
export function newSecurityKeyName(taken: (string | undefined)[]): string {
  const names = new Set(taken.map((name) => name?.trim()));
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? 'Security key' : `Security key ${n}`;
    if (!names.has(name)) return name;
  }
}

function labelOf(factor: { factor_type: string; friendly_name?: string }): string {
  return factor.friendly_name || (factor.factor_type === 'webauthn' ? 'Security key' : 'Authenticator app');
}

/** Scan the QR code (or type the secret), then confirm with a first code. */
function EnrollmentForm({ enrollment, onDone }: { enrollment: Enrollment; onDone: () => void }) {
  const verify = useVerifyFactor();
  const unenroll = useUnenrollFactor();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpCodeForm>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });

  const submit = async ({ code }: TotpCodeForm) => {
    try {
      await verify.mutateAsync({ factorId: enrollment.id, code });
      toast.success('Two-factor authentication is on.');
      onDone();
    } catch (error) {
      setError('code', { message: messageOf(error, 'That code did not work. Please try again.') });
    }
  };

  const cancel = () => {
    // The unverified factor would expire by itself; removing it keeps the list clean.
    unenroll.mutate(enrollment.id);
    onDone();
  };

  return (
    <div className="grid gap-4 rounded-2xl border p-4" data-testid="mfa-enrollment">
      <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
        <li>Open an authenticator app (Google Authenticator, 1Password, Authy…).</li>
        <li>Scan the QR code, or enter the secret by hand.</li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <div className="grid justify-items-center gap-3 sm:grid-cols-[auto_1fr] sm:items-center sm:justify-items-start">
        <img
          src={enrollment.qrCode}
          alt="QR code to add PrettyScore to your authenticator app"
          width={176}
          height={176}
          className="size-44 rounded-xl border bg-white p-2"
        />
        <div className="grid w-full min-w-0 gap-1">
          <p className="text-sm font-semibold" id="mfa-secret-label">
            Secret for manual entry
          </p>
          <code
            aria-labelledby="mfa-secret-label"
            data-testid="mfa-secret"
            className="rounded-lg bg-muted px-3 py-2 font-mono text-sm break-all select-all"
          >
            {enrollment.secret}
          </code>
        </div>
      </div>
      <form noValidate className="grid gap-3" onSubmit={(event) => void handleSubmit(submit)(event)}>
        <FormField
          id="mfa-enroll-code"
          label="Code from the app"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          placeholder="123456"
          required
          error={errors.code?.message}
          {...register('code')}
        />
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            {isSubmitting ? 'Verifying...' : 'Verify and Turn On'}
          </Button>
          <Button type="button" variant="ghost" onClick={cancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

export function TwoFactorCard() {
  const factors = useFactors();
  const enroll = useEnrollFactor();
  const unenroll = useUnenrollFactor();
  const addKey = useAddSecurityKey();
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null);
  const verified = (factors.data ?? []).filter((factor) => factor.status === 'verified');
  const keysSupported = browserHasPasskeys();

  const startKey = () => {
    const name = newSecurityKeyName((factors.data ?? []).map((factor) => factor.friendly_name));
    addKey.mutate(name, {
      onSuccess: () => toast.success('Security key added. You will be asked for it when you sign in.'),
      onError: (error) => {
        const message = isInsufficientAal(error) ? NEEDS_AAL2 : passkeyErrorMessage(error, 'Could not add the security key');
        if (message) toast.error(message);
      },
    });
  };

  const start = () => {
    enroll.mutate(undefined, {
      onSuccess: setEnrollment,
      onError: (error) => toast.error(isInsufficientAal(error) ? NEEDS_AAL2 : messageOf(error, 'Could not start the setup')),
    });
  };

  const remove = (factorId: string) => {
    unenroll.mutate(factorId, {
      onSuccess: () => toast.success('Second factor removed.'),
      onError: (error) => toast.error(isInsufficientAal(error) ? NEEDS_AAL2 : messageOf(error, 'Could not remove it')),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheckIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Two-factor authentication</span>
        </CardTitle>
        <CardDescription>
          Ask for a code from an authenticator app, or for your security key, each time you sign in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {factors.isPending ? (
          <Skeleton className="h-12 w-full rounded-xl" />
        ) : factors.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not load your second factors.
          </p>
        ) : verified.length === 0 ? (
          <p className="text-sm text-muted-foreground">Off: no authenticator app or security key is set up.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Your second factors">
            {verified.map((factor) => (
              <li key={factor.id} className="flex items-center gap-3 rounded-xl border p-3">
                {factor.factor_type === 'webauthn' ? (
                  <KeyRoundIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                ) : (
                  <SmartphoneIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                )}
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-semibold">{labelOf(factor)}</p>
                  <p className="text-xs text-muted-foreground">
                    Added {new Date(factor.created_at).toLocaleDateString()}
                  </p>
                </div>
                <Badge>Verified</Badge>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove ${labelOf(factor)}`}
                  disabled={unenroll.isPending}
                  onClick={() => remove(factor.id)}
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        {enrollment ? (
          <EnrollmentForm enrollment={enrollment} onDone={() => setEnrollment(null)} />
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <Button
              variant="outline"
              className="w-full sm:w-auto"
              disabled={enroll.isPending || addKey.isPending || factors.isPending}
              onClick={start}
            >
              {enroll.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
              {verified.some((factor) => factor.factor_type === 'totp') ? 'Add Another Authenticator App' : 'Set Up Authenticator App'}
            </Button>
            {keysSupported ? (
              <Button
                variant="outline"
                className="w-full sm:w-auto"
                disabled={enroll.isPending || addKey.isPending || factors.isPending}
                aria-busy={addKey.isPending}
                onClick={startKey}
              >
                {addKey.isPending ? (
                  <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
                ) : (
                  <KeyRoundIcon aria-hidden="true" />
                )}
                {addKey.isPending ? 'Waiting for your key...' : 'Add a Security Key'}
              </Button>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
