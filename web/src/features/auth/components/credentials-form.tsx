import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { credentialsSchema, type Credentials } from '@/features/auth/utils/auth-schema';

type CredentialsFormProps = {
  /** Distinguishes the two tabs' field ids. */
  idPrefix: 'sign-in' | 'sign-up';
  submitLabel: string;
  pendingLabel: string;
  defaultEmail?: string;
  onSubmit: (values: Credentials) => Promise<void>;
  autoCompletePassword: 'current-password' | 'new-password';
};

/** Email and password, both required; the password has at least 6 characters. */
export function CredentialsForm({
  idPrefix,
  submitLabel,
  pendingLabel,
  defaultEmail = '',
  onSubmit,
  autoCompletePassword,
}: CredentialsFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Credentials>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { email: defaultEmail, password: '' },
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
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={isSubmitting}>
        {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
        {isSubmitting ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}
