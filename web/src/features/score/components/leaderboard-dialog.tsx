import { zodResolver } from '@hookform/resolvers/zod';
import { TrophyIcon } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { dataUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useSavePhoto } from '@/resources/photos/photos';
import { useSignInToSave } from '../hooks/use-sign-in-to-save';
import type { ResultState } from '../types';
import {
  LEADERBOARD_QUEUED_MESSAGE,
  leaderboardEntrySchema,
  SAVE_FAILED_MESSAGE,
  type LeaderboardEntry,
  type LeaderboardEntryInput,
} from '../utils/leaderboard-entry';

type LeaderboardDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The result; its photo is the entry. Kept while a signed-out user signs in. */
  result: ResultState;
};

/**
 * The leaderboard opt-in for scores of 9.5 and more: a display name (required)
 * and a bio (optional). The entry is the photo itself, saved with
 * public_listing true; the server scores it again and admins verify it.
 */
export function LeaderboardDialog({ open, onOpenChange, result }: LeaderboardDialogProps) {
  const { session } = useSession();
  const signInToSave = useSignInToSave();
  const save = useSavePhoto();
  const form = useForm<LeaderboardEntryInput, unknown, LeaderboardEntry>({
    resolver: zodResolver(leaderboardEntrySchema),
    defaultValues: { displayName: '', bio: '' },
  });
  const nameId = useId();
  const bioId = useId();
  const nameErrorId = useId();
  const bioErrorId = useId();
  const nameError = form.formState.errors.displayName?.message;
  const bioError = form.formState.errors.bio?.message;

  const onSubmit = form.handleSubmit((entry) => {
    if (save.isPending) return;
    if (!session) {
      signInToSave(result);
      return;
    }
    save.mutate(
      { image: dataUrlToBlob(result.image), publicListing: true, ...entry },
      {
        onSuccess: () => {
          toast.success(LEADERBOARD_QUEUED_MESSAGE);
          onOpenChange(false);
        },
        onError: (cause) => {
          // The server checks the same rules; show its word on a field it refused.
          if (cause instanceof ApiError && cause.code === 'validation_failed') {
            form.setError(/bio/i.test(cause.message) ? 'bio' : 'displayName', { message: cause.message });
          } else {
            toast.error(SAVE_FAILED_MESSAGE);
          }
        },
      },
    );
  });

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
        <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={nameId}>Display name</Label>
            <Input
              id={nameId}
              autoComplete="nickname"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              aria-required="true"
              {...form.register('displayName')}
            />
            {nameError ? (
              <p id={nameErrorId} role="alert" className="text-sm font-medium text-destructive">
                {nameError}
              </p>
            ) : null}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={bioId}>Bio (optional)</Label>
            <Textarea
              id={bioId}
              rows={3}
              aria-invalid={bioError ? true : undefined}
              aria-describedby={bioError ? bioErrorId : undefined}
              {...form.register('bio')}
            />
            {bioError ? (
              <p id={bioErrorId} role="alert" className="text-sm font-medium text-destructive">
                {bioError}
              </p>
            ) : null}
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
