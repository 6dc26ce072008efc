import { CheckIcon, LogInIcon, SaveIcon } from 'lucide-react';
import { useRef } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useSavePhoto, type Photo } from '@/lib/api/photos';
import { imageUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { useSignInToSave } from '../hooks/use-sign-in-to-save';
import type { ResultState } from '../types';
import { PHOTO_SAVED_MESSAGE, SAVE_FAILED_MESSAGE } from '../utils/leaderboard-entry';

type SaveResultButtonProps = {
  /** The image to save: a data URL or one of our media URLs. */
  image: string;
  /** The result as the screen shows it (edits included), kept while a signed-out user signs in. */
  result: ResultState;
  onSaved?: (photo: Photo) => void;
};

/**
 * Saves the photo to the signed-in user's dashboard (the server scores the
 * stored image itself). Signed out, it offers 'Sign In to Save', which comes
 * back to this result.
 */
export function SaveResultButton({ image, result, onSaved }: SaveResultButtonProps) {
  const { session, status } = useSession();
  const save = useSavePhoto();
  const signInToSave = useSignInToSave();
  // Fetching an edited image takes a moment: a second click meanwhile is ignored.
  const preparing = useRef(false);

  if (!session) {
    return (
      <Button
        variant="outline"
        disabled={status === 'loading'}
        onClick={() => signInToSave(result)}
      >
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
        let blob: Blob;
        preparing.current = true;
        try {
          // The edited image (one of our /media URLs) when there is one, else the upload.
          blob = await imageUrlToBlob(image);
        } catch {
          toast.error(SAVE_FAILED_MESSAGE);
          return;
        } finally {
          preparing.current = false;
        }
        save.mutate(
          { image: blob },
          {
            onSuccess: (photo) => {
              toast.success(PHOTO_SAVED_MESSAGE);
              onSaved?.(photo);
            },
            onError: () => toast.error(SAVE_FAILED_MESSAGE),
          },
        );
      }}
    >
      {saved ? <CheckIcon aria-hidden="true" /> : <SaveIcon aria-hidden="true" />}
      {saved ? 'Saved' : save.isPending ? 'Saving...' : 'Save to My Photos'}
    </Button>
  );
}
