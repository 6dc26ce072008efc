import { DownloadIcon, LoaderCircleIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { DELETE_CONFIRMATION, messageOf } from '@/features/account/utils/account-schema';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useDeleteAccount } from '@/resources/account/delete-account';
import { useExportAccount } from '@/resources/account/export-account';

/** The server wants a fresh sign-in or the mailed code before deleting. */
function needsReauthentication(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'reauthentication_needed';
}

function DeleteAccountDialog() {
  const { client } = useSession();
  const navigate = useNavigate();
  const deletion = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  // Set once the server asked for the mailed code (the sign-in is not fresh).
  const [codeSent, setCodeSent] = useState(false);
  const [code, setCode] = useState('');
  const codeValid = /^\d{6}$/.test(code.trim());
  const confirmed = typed.trim() === DELETE_CONFIRMATION && (!codeSent || codeValid);

  const sendCode = async () => {
    const { error } = await client.reauthenticate();
    if (error) {
      toast.error(messageOf(error, 'Failed to send the code'));
      return;
    }
    setCodeSent(true);
    toast.info('For your security, enter the code we just emailed you.');
  };

  const confirm = async () => {
    try {
      await deletion.mutateAsync(codeSent ? code.trim() : undefined);
    } catch (error) {
      if (needsReauthentication(error) && !codeSent) {
        await sendCode();
        return;
      }
      toast.error(messageOf(error, 'Failed to delete your account'));
      return;
    }
    // The server has ended every session; forget this one here too.
    await client.signOut({ scope: 'local' }).catch(() => undefined);
    await navigate('/', { replace: true });
    toast.success('Your account and all of its data have been deleted.');
  };

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setTyped('');
          setCode('');
          setCodeSent(false);
        }
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="outline" className="border-destructive/40 text-destructive hover:border-destructive hover:bg-destructive/5">
          <Trash2Icon aria-hidden="true" />
          Delete My Account
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete your account?</AlertDialogTitle>
          <AlertDialogDescription>
            This removes your account, your saved photos and their images for good. It cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <FormField
          id="delete-confirmation"
          label={`Type ${DELETE_CONFIRMATION} to confirm`}
          autoComplete="off"
          autoCapitalize="characters"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        {codeSent ? (
          <FormField
            id="delete-reauthentication-code"
            label="Code from the email"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            placeholder="123456"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        ) : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deletion.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            destructive
            disabled={!confirmed || deletion.isPending}
            onClick={() => void confirm()}
          >
            {deletion.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
            {deletion.isPending ? 'Deleting...' : 'Delete Forever'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

export function YourDataCard() {
  const exporting = useExportAccount();

  const download = () => {
    exporting.mutate(undefined, {
      onSuccess: () => toast.success('Your data is downloading.'),
      onError: (error) => toast.error(messageOf(error, 'Failed to download your data')),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>Download everything we keep about you, or delete your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row">
        <Button variant="outline" disabled={exporting.isPending} onClick={download}>
          {exporting.isPending ? (
            <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
          ) : (
            <DownloadIcon aria-hidden="true" />
          )}
          Download My Data
        </Button>
        <DeleteAccountDialog />
      </CardContent>
    </Card>
  );
}
