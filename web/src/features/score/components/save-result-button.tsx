import { CheckIcon, LogInIcon, SaveIcon } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { imageUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useSavePhoto, type Photo } from '@/resources/photos/photos';
import { useSignInToSave } from '../hooks/use-sign-in-to-save';
import type { ResultState } from '../types';
import { PHOTO_SAVED_MESSAGE, SAVE_FAILED_MESSAGE } from '../utils/leaderboard-entry';

type SaveResultButtonProps = {
  /** The photo as it was scored (a data URL): saved as the original, which the server scores. */
  original: string;
  /** Its latest AI edit (one of our media URLs or a data URL), saved beside it; null before any edit. */
  edited: string | null;
  /** The result as the screen shows it (edits included), kept while a signed-out user signs in. */
  result: ResultState;
  onSaved?: (photo: Photo) => void;
};

/** What a failed save says: the server's words for a damaged photo, else the spec's. */
function saveErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'image_incomplete' && error.message) return error.message;
  return SAVE_FAILED_MESSAGE;
}

/**
 * Saves the result to the signed-in user's dashboard as My Photos keeps an
 * edited photo: the original (which the server scores itself, so the saved
 * score is the original's) with the latest edit as its edited image.
 * Signed out, it offers 'Sign In to Save', which comes back to this result.
 */
export function SaveResultButton({ original, edited, result, onSaved }: SaveResultButtonProps) {
  const { session, status } = useSession();
  const save = useSavePhoto();
  const signInToSave = useSignInToSave();
  // Fetching an edited image takes a moment: a second click meanwhile is ignored.
  const preparing = useRef(false);

  if (!session) {
    return (
      <Button variant="outline" disabled={status === 'loading'} onClick={() => signInToSave(result)}>
        <LogInIcon aria-hidden="true" />
        Sign In to Save
      </Button>
    );
  }

  const saved = save.isSuccess;
  return (
    <Button
      variant="outline"
      disabled={save.isPending || saved}
      aria-busy={save.isPending}
      onClick={async () => {
        if (save.isPending || saved || preparing.current) return;
        let image: Blob;
        let editedImage: Blob | undefined;
        preparing.current = true;
        try {
          [image, editedImage] = await Promise.all([imageUrlToBlob(original), edited ? imageUrlToBlob(edited) : undefined]);
        } catch {
          toast.error(SAVE_FAILED_MESSAGE);
          return;
        } finally {
          preparing.current = false;
        }
        save.mutate(
          { image, editedImage },
          {
            onSuccess: (photo) => {
              toast.success(PHOTO_SAVED_MESSAGE);
              onSaved?.(photo);
            },
            onError: (error) => toast.error(saveErrorMessage(error)),
          },
        );
      }}
    >
      {saved ? <CheckIcon aria-hidden="true" /> : <SaveIcon aria-hidden="true" />}
      {saved ? 'Saved' : save.isPending ? 'Saving...' : 'Save to My Photos'}
    </Button>
  );
}
