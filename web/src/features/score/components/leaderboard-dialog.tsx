import { TrophyIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { dataUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { useSavePhoto } from '../api/save-photo';
import {
  BIO_MAX_LENGTH,
  LEADERBOARD_QUEUED_MESSAGE,
  SAVE_FAILED_MESSAGE,
  SIGN_IN_TO_SAVE_MESSAGE,
  signInPath,
  validateLeaderboardEntry,
} from '../utils/leaderboard-entry';

type LeaderboardDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  image: string;
};

/**
 * The leaderboard opt-in for scores of 9.5 and more: a display name (required)
 * and a bio (optional). The entry is the photo itself, saved with
 * public_listing true; the server scores it again and admins verify it.
 */
export function LeaderboardDialog({ open, onOpenChange, image }: LeaderboardDialogProps) {
  const navigate = useNavigate();
  const { session } = useSession();
  const save = useSavePhoto();
  const [displayName, setDisplayName] = useState('');
  const [bio, setBio] = useState('');
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const bioId = useId();
  const errorId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const check = validateLeaderboardEntry({ displayName, bio });
    if (!check.ok) {
      setError(check.message);
      return;
    }
    setError(null);
    if (!session) {
      toast.info(SIGN_IN_TO_SAVE_MESSAGE);
      void navigate(signInPath(paths.upload.path));
      return;
    }
    save.mutate(
      { image: dataUrlToBlob(image), publicListing: true, ...check.entry },
      {
        onSuccess: () => {
          toast.success(LEADERBOARD_QUEUED_MESSAGE);
          onOpenChange(false);
        },
        onError: (cause) => {
          if (cause instanceof ApiError && cause.code === 'validation_failed') setError(cause.message);
          else toast.error(SAVE_FAILED_MESSAGE);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="leaderboard-dialog">
        <DialogHeader>
          <span aria-hidden="true" className="brand-gradient mb-2 grid size-12 place-items-center rounded-2xl text-white">
            <TrophyIcon className="size-6" />
          </span>
          <DialogTitle>Join the Global Leaderboard</DialogTitle>
          <DialogDescription>
            Your score qualifies for the leaderboard. Enter the name to show with your photo; admins verify every entry
            before it appears.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={nameId}>Display name</Label>
            <Input
              id={nameId}
              value={displayName}
              onChange={(event) => setDisplayName(event.target.value)}
              autoComplete="nickname"
              maxLength={80}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              aria-required="true"
            />
            {error ? (
              <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
                {error}
              </p>
            ) : null}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={bioId}>Bio (optional)</Label>
            <Textarea
              id={bioId}
              value={bio}
              onChange={(event) => setBio(event.target.value)}
              maxLength={BIO_MAX_LENGTH}
              rows={3}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Not Now
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Submitting...' : 'Join the Leaderboard'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
