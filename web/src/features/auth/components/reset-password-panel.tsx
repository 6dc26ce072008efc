import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon, MailCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { authMessages, messageOf } from '@/features/auth/utils/auth-messages';
import {
  emailSchema,
  newPasswordSchema,
  type EmailForm,
  type NewPasswordForm,
} from '@/features/auth/utils/auth-schema';
import { readLastLoginEmail } from '@/features/auth/utils/last-login-email';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

/** Step one: ask for a reset link. Same answer whether or not the address has an account. */
function RequestResetForm() {
  const { client } = useSession();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EmailForm>({ resolver: zodResolver(emailSchema), defaultValues: { email: readLastLoginEmail() } });

  const submit = async ({ email }: EmailForm) => {
    try {
      const { error } = await client.resetPasswordForEmail(email, {
        redirectTo: `${window.location.origin}${paths.authReset.path}`,
      });
      if (error) {
        toast.error(messageOf(error, 'Could not send the reset link. Please try again.'));
        return;
      }
      setSent(true);
      toast.success(authMessages.resetSent);
    } catch (error) {
      toast.error(messageOf(error, 'Could not send the reset link. Please try again.'));
    }
  };

  if (sent) {
    return (
      <div role="status" className="flex items-start gap-3 rounded-2xl bg-brand-50 p-4 text-sm">
        <MailCheckIcon className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <p>{authMessages.resetSent}. It may take a minute to arrive; the link works once.</p>
      </div>
    );
  }

  return (
    <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
      <p className="text-sm text-muted-foreground">
        Enter the email you signed up with and we will send you a link to choose a new password.
      </p>
      <FormField
        id="reset-email"
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        required
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
        {isSubmitting ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}

/** Step two: the reset link signed the user in (PASSWORD_RECOVERY); choose the new password. */
function NewPasswordForm() {
  const { client, session } = useSession();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordForm>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '' } });

  const submit = async ({ password }: NewPasswordForm) => {
    try {
      const { error } = await client.updateUser({ password });
      if (error) {
        toast.error(messageOf(error, 'Could not update your password. Please try again.'));
        return;
      }
      toast.success(authMessages.passwordUpdated);
      await navigate(paths.dashboard.path, { replace: true });
    } catch (error) {
      toast.error(messageOf(error, 'Could not update your password. Please try again.'));
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
      <p className="text-sm text-muted-foreground">
        Choose a new password for <span className="font-semibold text-foreground">{session?.user.email}</span>.
      </p>
      {/* Lets password managers tie the new password to the account. */}
      <input type="email" name="username" autoComplete="username" value={session?.user.email ?? ''} readOnly hidden />
      <FormField
        id="new-password"
        label="New password"
        type="password"
        autoComplete="new-password"
        placeholder="Password (min 6 characters)"
        required
        autoFocus
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
        {isSubmitting ? 'Saving...' : 'Set New Password'}
      </Button>
    </form>
  );
}

/**
 * /auth/reset. The mail's link comes back here with a code that auth-js
 * exchanges for a recovery session (its PASSWORD_RECOVERY event); with a
 * session the screen offers the new-password form, without one the request
 * form.
 */
export function ResetPasswordPanel() {
  const { status, session } = useSession();
  if (status === 'loading') return <PageLoader />;
  return (
    <div className="grid gap-4">
      {session ? <NewPasswordForm /> : <RequestResetForm />}
      <p className="text-center text-sm">
        <Link to={paths.auth.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
          Back to Sign In
        </Link>
      </p>
    </div>
  );
}
