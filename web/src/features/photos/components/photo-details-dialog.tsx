import { ArrowLeftIcon, Share2Icon, Trash2Icon, WandSparklesIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { DownloadPhotoButton } from '@/components/download-photo-button';
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
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/lib/toast';
import { useDeletePhoto, type Photo } from '@/resources/photos/photos';
import { cardSubScores, subScoreColumns, displayImage, outOfTen, photoDate, photoFileBase } from '../utils/photo-display';
import { HeldForReview, ShareLinkSection } from './share-link-section';

type PhotoDetailsDialogProps = {
  photo: Photo | null;
  onOpenChange: (open: boolean) => void;
  /** The inline AI editor for this photo (the edits feature provides it). */
  renderEditor: (photo: Photo) => ReactNode;
};

/** 'Photo Details': the photo and its scores, with Edit Photo, Download, Share and Delete. */
export function PhotoDetailsDialog({ photo, onOpenChange, renderEditor }: PhotoDetailsDialogProps) {
  return (
    <Dialog open={photo !== null} onOpenChange={onOpenChange}>
      {photo ? (
        <DialogContent className="max-w-3xl" aria-describedby={undefined}>
          <DetailsBody key={photo.id} photo={photo} renderEditor={renderEditor} onDeleted={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function DetailsBody({ photo, renderEditor, onDeleted }: { photo: Photo; renderEditor: (photo: Photo) => ReactNode; onDeleted: () => void }) {
  const [editing, setEditing] = useState(false);
  // A photo shared already opens with its link showing.
  const [sharing, setSharing] = useState(Boolean(photo.share));
  const remove = useDeletePhoto();
  const image = displayImage(photo);
  const subScores = cardSubScores(photo);

  function confirmDelete() {
    remove.mutate(photo.id, {
      onSuccess: () => {
        toast.success('Photo deleted');
        onDeleted();
      },
      onError: () => toast.error('Failed to delete photo'),
    });
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Photo Details</DialogTitle>
        <DialogDescription>
          {outOfTen(photo.score)} · {photo.rating_label} · {photoDate(photo.created_at)}
        </DialogDescription>
      </DialogHeader>

      {editing ? (
        <div className="grid gap-4">
          <Button variant="ghost" size="sm" className="justify-self-start" onClick={() => setEditing(false)}>
            <ArrowLeftIcon aria-hidden="true" />
            Back to Details
          </Button>
          {renderEditor(photo)}
        </div>
      ) : (
        <div className="grid gap-5 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <img src={image} alt="Your saved photo" className="aspect-square w-full rounded-2xl border object-cover" data-testid="details-image" />
          <div className="grid content-start gap-4">
            <dl className={`grid ${subScoreColumns(subScores.length)} gap-2 text-center`}>
              {subScores.map((item) => (
                <div key={item.key} className="rounded-xl bg-muted px-1 py-2">
                  <dt className="text-xs font-medium text-muted-foreground">{item.label}</dt>
                  <dd className="font-bold">{outOfTen(item.value)}</dd>
                </div>
              ))}
            </dl>
            <div className="grid grid-cols-2 gap-2">
              <Button className="col-span-2" onClick={() => setEditing(true)}>
                <WandSparklesIcon aria-hidden="true" />
                Edit Photo
              </Button>
              <DownloadPhotoButton url={image} fileName={photoFileBase(photo, Boolean(photo.edited_image_url))}>
                Download
              </DownloadPhotoButton>
              <Button variant="outline" onClick={() => setSharing((open) => !open)} aria-expanded={sharing}>
                <Share2Icon aria-hidden="true" />
                Share
              </Button>
              <AlertDialog>
                <AlertDialogTrigger asChild>
                  <Button variant="ghost" className="col-span-2 text-destructive hover:bg-red-50">
                    <Trash2Icon aria-hidden="true" />
                    Delete
                  </Button>
                </AlertDialogTrigger>
                <AlertDialogContent>
                  <AlertDialogHeader>
                    <AlertDialogTitle>Delete this photo?</AlertDialogTitle>
                    <AlertDialogDescription>
                      The photo, its edits and its score are removed from your account and from our storage. This cannot be
                      undone.
                    </AlertDialogDescription>
                  </AlertDialogHeader>
                  <AlertDialogFooter>
                    <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
                    <AlertDialogAction destructive onClick={confirmDelete} disabled={remove.isPending}>
                      {remove.isPending ? 'Deleting...' : 'Delete Photo'}
                    </AlertDialogAction>
                  </AlertDialogFooter>
                </AlertDialogContent>
              </AlertDialog>
            </div>
            {photo.held_for_review ? (
              <HeldForReview />
            ) : sharing ? (
              <ShareLinkSection photo={photo} />
            ) : null}
          </div>
        </div>
      )}
    </>
  );
}
