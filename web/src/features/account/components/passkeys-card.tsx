import { FingerprintIcon, KeyRoundIcon, LoaderCircleIcon, PencilIcon, PlusIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormField } from '@/components/ui/form-field';
import { InlineAlert } from '@/components/ui/inline-alert';
import { Skeleton } from '@/components/ui/skeleton';
import { passkeyErrorMessage } from '@/lib/passkey-errors';
import { toast } from '@/lib/toast';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey, type Passkey } from '@/resources/account/passkeys';
import { browserHasPasskeys, useSocialProviders } from '@/resources/auth-settings/auth-settings';

const MAX_NAME = 120;

function nameOf(passkey: Passkey): string {
  return passkey.friendly_name?.trim() || 'Passkey';
}

/** "Phone" → its new name, inline; Escape or Cancel leaves it as it was. */
function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const rename = useRenamePasskey();
  const [name, setName] = useState(nameOf(passkey));
  const [error, setError] = useState<string | undefined>();
  const id = `passkey-name-${passkey.id}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError('Give the passkey a name.');
    if (trimmed.length > MAX_NAME) return setError(`Keep the name under ${MAX_NAME + 1} characters.`);
    try {
      await rename.mutateAsync({ id: passkey.id, name: trimmed });
      toast.success('Passkey renamed.');
      onDone();
    } catch (failure) {
      setError(passkeyErrorMessage(failure, 'Could not rename the passkey. Please try again.') ?? undefined);
    }
  };

  return (
    <form
      noValidate
      className="grid w-full gap-2"
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <FormField
        id={id}
        label="Passkey name"
        value={name}
        maxLength={MAX_NAME}
        autoFocus
        error={error}
        onChange={(event) => {
          setName(event.target.value);
          setError(undefined);
        }}
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {rename.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
          {rename.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * My Account's "Passkeys": sign in with Face ID, a fingerprint, a screen lock
 * or a security key instead of a password. Lists the account's passkeys
 * (name, when added, when last used), adds one through the browser's prompt,
 * renames one inline and removes one behind a confirmation. Hidden when the
 * server has passkeys off; explained when this browser cannot make them.
 */
export function PasskeysCard() {
  const { settings } = useSocialProviders();
  const serverOn = settings?.passkeys_enabled === true;
  const passkeys = usePasskeys(serverOn);
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const supported = browserHasPasskeys();

  if (!serverOn) return null;

  const addPasskey = () => {
    setFailure(null);
    add.mutate(undefined, {
      onSuccess: () => toast.success('Passkey added. Next time, sign in with it.'),
      onError: (error) => setFailure(passkeyErrorMessage(error, 'Could not add a passkey. Please try again.')),
    });
  };

  const removePasskey = async (passkey: Passkey) => {
    setFailure(null);
    try {
      await remove.mutateAsync(passkey.id);
      toast.success(`${nameOf(passkey)} removed.`);
    } catch (error) {
      // Resolved, so the dialog closes and the message shows in the card.
      setFailure(passkeyErrorMessage(error, `Could not remove ${nameOf(passkey)}. Please try again.`));
    }
  };

  const list = passkeys.data ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FingerprintIcon className="size-5 text-brand-700" aria-hidden="true" />
          <span>Passkeys</span>
        </CardTitle>
        <CardDescription>
          Sign in with Face ID, your fingerprint, your screen lock or a security key: no password to type.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {failure ? <InlineAlert>{failure}</InlineAlert> : null}
        {passkeys.isPending ? (
          <Skeleton className="h-14 w-full rounded-xl" />
        ) : passkeys.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not load your passkeys.
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No passkey yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Your passkeys">
            {list.map((passkey) => (
              <li key={passkey.id} className="flex flex-wrap items-center gap-3 rounded-xl border p-3">
                {renaming === passkey.id ? (
                  <RenameForm passkey={passkey} onDone={() => setRenaming(null)} />
                ) : (
                  <>
                    <KeyRoundIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                    {/* At least 12rem for the name and dates: on a phone the buttons go below. */}
                    <div className="min-w-0 flex-1 basis-48">
                      <p className="text-sm font-semibold break-words">{nameOf(passkey)}</p>
                      <p className="text-xs text-muted-foreground">
                        Added {new Date(passkey.created_at).toLocaleDateString()}
                        {' · '}
                        {passkey.last_used_at
                          ? `Last used ${new Date(passkey.last_used_at).toLocaleDateString()}`
                          : 'Not used yet'}
                      </p>
                    </div>
                    <div className="flex w-full gap-2 sm:w-auto">
                      <Button variant="outline" size="sm" className="flex-1 sm:flex-none" onClick={() => setRenaming(passkey.id)}>
                        <PencilIcon aria-hidden="true" />
                        <span aria-hidden="true">Rename</span>
                        <span className="sr-only">{`Rename ${nameOf(passkey)}`}</span>
                      </Button>
                      <ConfirmButton
                        title={`Remove ${nameOf(passkey)}?`}
                        description="You will no longer be able to sign in with this passkey. The device may keep it until you delete it there too."
                        confirmLabel="Remove"
                        pendingLabel="Removing..."
                        destructive
                        size="sm"
                        className="flex-1 sm:flex-none"
                        disabled={remove.isPending}
                        onConfirm={() => removePasskey(passkey)}
                      >
                        <span aria-hidden="true">Remove</span>
                        <span className="sr-only">{`Remove ${nameOf(passkey)}`}</span>
                      </ConfirmButton>
                    </div>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        {supported ? (
          <Button
            variant="outline"
            className="w-full sm:w-auto sm:justify-self-start"
            disabled={add.isPending || passkeys.isPending}
            aria-busy={add.isPending}
            onClick={addPasskey}
          >
            {add.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : <PlusIcon aria-hidden="true" />}
            {add.isPending ? 'Waiting for your device...' : 'Add a passkey'}
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">
            This browser cannot make passkeys. Open PrettyScore in an up-to-date browser to add one.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
