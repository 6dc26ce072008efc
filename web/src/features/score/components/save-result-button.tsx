import { CheckIcon, LogInIcon, SaveIcon } from 'lucide-react';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { imageUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { useSavePhoto } from '../api/save-photo';
import type { SavedPhoto } from '../types';
import { PHOTO_SAVED_MESSAGE, SAVE_FAILED_MESSAGE, SIGN_IN_TO_SAVE_MESSAGE, signInPath } from '../utils/leaderboard-entry';

/**
 * Saves the photo (a data URL or one of our media URLs) to the signed-in user's dashboard (the server scores the
 * stored image itself). Signed out, it offers 'Sign In to Save' instead.
 */
export function SaveResultButton({ image, onSaved }: { image: string; onSaved?: (photo: SavedPhoto) => void }) {
  const navigate = useNavigate();
  const { session, status } = useSession();
  const save = useSavePhoto();
  // Fetching an edited image takes a moment: a second click meanwhile is ignored.
  const preparing = useRef(false);

  if (!session) {
    return (
      <Button
        variant="outline"
        disabled={status === 'loading'}
        onClick={() => {
          toast.info(SIGN_IN_TO_SAVE_MESSAGE);
          void navigate(signInPath(paths.upload.path));
        }}
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
