import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRoundIcon, LoaderCircleIcon, ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { authMessages, messageOf } from '@/features/auth/utils/auth-messages';
import { totpCodeSchema, type TotpCodeForm } from '@/features/auth/utils/auth-schema';
import { passkeyErrorMessage } from '@/lib/passkey-errors';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { verifyWithSecurityKey } from '@/resources/account/factors';

type SecondFactorFormProps = {
  onVerified: () => void;
  onCancel: () => void;
};

/** Asks the user's security key (or passkey) to confirm the sign-in. */
function SecurityKeyStep({ factorId, onVerified, primary }: { factorId: string; onVerified: () => void; primary: boolean }) {
  const { client } = useSession();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const use = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await verifyWithSecurityKey(client, factorId);
      onVerified();
    } catch (error) {
      setFailure(passkeyErrorMessage(error, 'Your security key could not be verified. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-2">
      <Button
        type="button"
        size="lg"
        variant={primary ? 'default' : 'outline'}
        className="w-full"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void use()}
      >
        {busy ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : <KeyRoundIcon aria-hidden="true" />}
        {busy ? 'Waiting for your key...' : 'Use Your Security Key'}
      </Button>
      {failure ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failure}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The second step of signing in when a second factor is on: the session is
 * aal1 until a code from the authenticator app, or the security key, is
 * verified. With both, the person picks.
 */
export function SecondFactorForm({ onVerified, onCancel }: SecondFactorFormProps) {
  const { client, session } = useSession();
  const verified = (session?.user.factors ?? []).filter((f) => f.status === 'verified');
  const totp = verified.find((f) => f.factor_type === 'totp');
  const key = verified.find((f) => f.factor_type === 'webauthn');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpCodeForm>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });

  const submit = async ({ code }: TotpCodeForm) => {
    if (!totp) {
      toast.error('No authenticator app is set up for this account.');
      return;
    }
    try {
      const { error } = await client.mfa.challengeAndVerify({ factorId: totp.id, code });
      if (error) {
        setError('code', { message: messageOf(error, authMessages.mfaFailed) });
        return;
      }
      onVerified();
    } catch (error) {
      setError('code', { message: messageOf(error, authMessages.mfaFailed) });
    }
  };

  const intro =
    totp && key
      ? 'Two-factor authentication is on. Enter the 6-digit code from your authenticator app, or use your security key.'
      : key
        ? 'Two-factor authentication is on. Confirm it is you with your security key.'
        : 'Two-factor authentication is on. Enter the 6-digit code from your authenticator app.';

  return (
    <div className="grid gap-4">
      <div className="flex items-start gap-3 rounded-2xl bg-brand-50 p-4 text-sm text-foreground">
        <ShieldCheckIcon className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <p>{intro}</p>
      </div>
      {key && !totp ? <SecurityKeyStep factorId={key.id} onVerified={onVerified} primary /> : null}
      {totp || !key ? (
        <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
          <FormField
            id="mfa-code"
            label="Authentication code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            placeholder="123456"
            required
            autoFocus
            error={errors.code?.message}
            {...register('code')}
          />
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            {isSubmitting ? 'Verifying...' : 'Verify'}
          </Button>
        </form>
      ) : null}
      {key && totp ? (
        <>
          <div className="flex items-center gap-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            <span aria-hidden="true" className="h-px flex-1 bg-border" />
            <span>or</span>
            <span aria-hidden="true" className="h-px flex-1 bg-border" />
          </div>
          <SecurityKeyStep factorId={key.id} onVerified={onVerified} primary={false} />
        </>
      ) : null}
      <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
        Use another account
      </Button>
    </div>
  );
}
