import { CheckIcon, LogInIcon, SaveIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { dataUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { useSavePhoto } from '../api/save-photo';
import type { SavedPhoto } from '../types';
import { PHOTO_SAVED_MESSAGE, SAVE_FAILED_MESSAGE, SIGN_IN_TO_SAVE_MESSAGE, signInPath } from '../utils/leaderboard-entry';

/**
 * Saves the photo to the signed-in user's dashboard (the server scores the
 * stored image itself). Signed out, it offers 'Sign In to Save' instead.
 */
export function SaveResultButton({ image, onSaved }: { image: string; onSaved?: (photo: SavedPhoto) => void }) {
  const navigate = useNavigate();
  const { session, status } = useSession();
  const save = useSavePhoto();

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
      onClick={() => {
        if (save.isPending || saved) return;
        save.mutate(
          { image: dataUrlToBlob(image) },
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
