import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon, ShieldCheckIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { authMessages, messageOf } from '@/features/auth/utils/auth-messages';
import { totpCodeSchema, type TotpCodeForm } from '@/features/auth/utils/auth-schema';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

type SecondFactorFormProps = {
  onVerified: () => void;
  onCancel: () => void;
};

/**
 * The second step of signing in when an authenticator app is enrolled: the
 * session is aal1 until a code from the app is verified.
 */
export function SecondFactorForm({ onVerified, onCancel }: SecondFactorFormProps) {
  const { client, session } = useSession();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpCodeForm>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });

  const submit = async ({ code }: TotpCodeForm) => {
    const factor = session?.user.factors?.find((f) => f.factor_type === 'totp' && f.status === 'verified');
    if (!factor) {
      toast.error('No authenticator app is set up for this account.');
      return;
    }
    try {
      const { error } = await client.mfa.challengeAndVerify({ factorId: factor.id, code });
      if (error) {
        setError('code', { message: messageOf(error, authMessages.mfaFailed) });
        return;
      }
      onVerified();
    } catch (error) {
      setError('code', { message: messageOf(error, authMessages.mfaFailed) });
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
      <div className="flex items-start gap-3 rounded-2xl bg-brand-50 p-4 text-sm text-foreground">
        <ShieldCheckIcon className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <p>Two-factor authentication is on. Enter the 6-digit code from your authenticator app.</p>
      </div>
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
      <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
        Use another account
      </Button>
    </form>
  );
}
