import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRoundIcon, LoaderCircleIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { changePasswordSchema, messageOf, type ChangePasswordForm } from '@/features/account/utils/account-schema';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

export function ChangePasswordCard() {
  const { client, session } = useSession();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const submit = async ({ password }: ChangePasswordForm) => {
    try {
      const { error } = await client.updateUser({ password });
      if (error) {
        toast.error(messageOf(error, 'Failed to update password'));
        return;
      }
      reset();
      toast.success('Password updated! Your other sessions have been signed out.');
    } catch (error) {
      toast.error(messageOf(error, 'Failed to update password'));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Change password</span>
        </CardTitle>
        <CardDescription>Your other devices are signed out when the password changes.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={session?.user.email ?? ''}
            readOnly
            hidden
          />
          <FormField
            id="account-new-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            placeholder="Password (min 6 characters)"
            required
            error={errors.password?.message}
            {...register('password')}
          />
          <FormField
            id="account-confirm-password"
            label="Repeat new password"
            type="password"
            autoComplete="new-password"
            required
            error={errors.confirm?.message}
            {...register('confirm')}
          />
          <Button type="submit" className="w-full sm:w-auto sm:justify-self-start" disabled={isSubmitting}>
            {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            {isSubmitting ? 'Updating...' : 'Update Password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
