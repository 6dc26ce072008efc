import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircleIcon, UserRoundIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { z } from '@/lib/zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { messageOf } from '@/features/account/utils/account-schema';
import { DISPLAY_NAME_MAX, displayNameField, displayNameOf } from '@/lib/display-name';
import { useSession } from '@/lib/session';

const schema = z.object({ displayName: displayNameField });
type Values = z.infer<typeof schema>;

export const DISPLAY_NAME_SAVED = 'Display name saved!';

/**
 * The name shown to contestants the user contacts and in chats, never the
 * email: `user_metadata.display_name`, written with auth-js `updateUser`.
 * The server checks it again (1-50 visible characters).
 */
export function DisplayNameCard() {
  const { client, session } = useSession();
  const current = displayNameOf(session?.user);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    // Re-read when the session's user changes (a save here or in another tab).
    values: { displayName: current ?? '' },
  });

  const submit = async ({ displayName }: Values) => {
    try {
      const { data, error } = await client.updateUser({ data: { display_name: displayName } });
      if (error) {
        setError('displayName', { message: messageOf(error, 'Failed to save your display name') }, { shouldFocus: true });
        return;
      }
      reset({ displayName: displayNameOf(data.user) ?? displayName });
      toast.success(DISPLAY_NAME_SAVED);
    } catch (error) {
      toast.error(messageOf(error, 'Failed to save your display name'));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserRoundIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Display name</span>
        </CardTitle>
        <CardDescription>
          {current
            ? 'Contestants you contact and people you chat with see this name, never your email.'
            : 'Add the name contestants see when you contact them. You need one before sending a contact request.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit(submit)(event)}>
          <FormField
            id="account-display-name"
            label="Display name"
            autoComplete="nickname"
            maxLength={DISPLAY_NAME_MAX}
            placeholder="How others see you"
            required
            error={errors.displayName?.message}
            {...register('displayName')}
          />
          <Button type="submit" className="w-full sm:w-auto sm:justify-self-start" disabled={isSubmitting || (!isDirty && current !== null)}>
            {isSubmitting ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            {isSubmitting ? 'Saving...' : 'Save Display Name'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
