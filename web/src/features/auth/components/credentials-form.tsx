import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { AgeAndTermsFields } from '@/features/auth/components/age-and-terms-fields';
import { credentialsSchema, signUpSchema, type SignUpValues } from '@/features/auth/utils/auth-schema';
import { DISPLAY_NAME_MAX } from '@/lib/display-name';

type CredentialsFormProps = {
  /** Distinguishes the two tabs' field ids. */
  idPrefix: 'sign-in' | 'sign-up';
  submitLabel: string;
  pendingLabel: string;
  defaultEmail?: string;
  /** `displayName` is '' unless `askDisplayName` shows its field. */
  onSubmit: (values: SignUpValues) => Promise<void>;
  autoCompletePassword: 'current-password' | 'new-password';
  /** Sign up: also the name shown to others (optional), the date of birth and the terms. */
  askDisplayName?: boolean;
};

/**
 * Email and password, both required; the password has at least 6
 * characters. Signing up may add a display name (1-50 characters).
 */
export function CredentialsForm({
  idPrefix,
  submitLabel,
  pendingLabel,
  defaultEmail = '',
  onSubmit,
  autoCompletePassword,
  askDisplayName = false,
}: CredentialsFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({
    // Sign in has no name field: its schema leaves displayName out, and the default '' stays.
    resolver: zodResolver(askDisplayName ? signUpSchema : credentialsSchema) as never,
    defaultValues: { email: defaultEmail, password: '', displayName: '', dateOfBirth: '', acceptTerms: false as never },
  });

  return (
    <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(onSubmit)(event)}>
      <FormField
        id={`${idPrefix}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        required
        error={errors.email?.message}
        {...register('email')}
      />
      <FormField
        id={`${idPrefix}-password`}
        label="Password"
        type="password"
        autoComplete={autoCompletePassword}
        placeholder="Password (min 6 characters)"
        required
        error={errors.password?.message}
        {...register('password')}
      />
      {askDisplayName ? (
        <div className="grid gap-1">
          <FormField
            id={`${idPrefix}-display-name`}
            label="Display name (optional)"
            autoComplete="nickname"
            maxLength={DISPLAY_NAME_MAX}
            placeholder="How others see you"
            // FormField's own describedby (the error) is replaced by this prop: name both.
            aria-describedby={errors.displayName ? `${idPrefix}-display-name-error` : `${idPrefix}-display-name-hint`}
            error={errors.displayName?.message}
            {...register('displayName')}
          />
          {errors.displayName ? null : (
            <p id={`${idPrefix}-display-name-hint`} className="text-xs text-muted-foreground">
              Shown to contestants you contact and in your chats, never your email. You can change it on My Account.
            </p>
          )}
        </div>
      ) : null}
      {askDisplayName ? (
        <AgeAndTermsFields
          idPrefix={idPrefix}
          dateOfBirth={register('dateOfBirth')}
          acceptTerms={register('acceptTerms')}
          dateOfBirthError={errors.dateOfBirth?.message}
          acceptTermsError={errors.acceptTerms?.message}
        />
      ) : null}
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={isSubmitting}>
        {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
        {isSubmitting ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}
