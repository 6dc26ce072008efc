import { ImagePlusIcon, LoaderCircleIcon, RefreshCwIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { usePhotos, type Photo, type PhotoSort } from '@/resources/photos/photos';
import { PhotoCard } from './photo-card';
import { PhotoDetailsDialog } from './photo-details-dialog';

export const LOAD_FAILED_MESSAGE = 'Failed to load photos';

type MyPhotosProps = {
  email?: string;
  /** The Sign Out button (the auth feature's). */
  signOut: ReactNode;
  /** A card click: the photo opens in /editor. */
  onOpenInEditor: (photo: Photo) => void;
  /** The inline AI editor of the Photo Details dialog. */
  renderEditor: (photo: Photo) => ReactNode;
  /** Shown under the heading (the premium feature's membership badge). */
  banner?: ReactNode;
  /** Inside another page (the user dashboard's tab): an h2, without the page's margins. */
  embedded?: boolean;
};

/** My Photos (docs/spec-rules.md §2): sortable grid of the user's saved photos. */
export function MyPhotos({ email, signOut, onOpenInEditor, renderEditor, banner, embedded = false }: MyPhotosProps) {
  const [sort, setSort] = useState<PhotoSort>('latest');
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const sortId = useId();
  const photos = usePhotos(sort);
  const list = photos.data ?? [];
  // The open photo follows the list, so an edit or undo shows in the dialog's details too.
  const details = list.find((photo) => photo.id === detailsId) ?? null;
  const Heading = embedded ? 'h2' : 'h1';

  return (
    <div className={embedded ? 'w-full' : 'mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12'}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <Heading className={embedded ? 'text-2xl font-bold tracking-tight' : 'text-3xl font-extrabold tracking-tight sm:text-4xl'}>
            My Photos{photos.data ? ` (${list.length})` : ''}
          </Heading>
          {email ? (
            <p className="mt-1 text-sm text-muted-foreground">
              Signed in as <span className="font-semibold text-foreground" data-testid="user-email">{email}</span>
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={sortId} className="text-sm font-semibold">
            Sort by
          </label>
          <select
            id={sortId}
            value={sort}
            onChange={(event) => setSort(event.target.value as PhotoSort)}
            className="h-10 cursor-pointer rounded-full border bg-card px-4 text-sm font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <option value="latest">Latest First</option>
            <option value="rating">Highest Rating</option>
          </select>
          {signOut}
        </div>
      </div>

      {banner ? <div className="mt-6">{banner}</div> : null}

      <div className="mt-8">
        {photos.isPending ? (
          <p role="status" className="flex items-center justify-center gap-2 py-16 text-muted-foreground">
            <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin text-brand-600" />
            Loading your photos...
          </p>
        ) : photos.isError ? (
          <div role="alert" className="grid justify-items-center gap-3 rounded-3xl border border-dashed py-14 text-center">
            <p className="font-semibold">{LOAD_FAILED_MESSAGE}</p>
            <Button variant="outline" onClick={() => void photos.refetch()}>
              <RefreshCwIcon aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : list.length === 0 ? (
          <div className="grid justify-items-center gap-4 rounded-3xl border border-dashed bg-card px-6 py-16 text-center">
            <span aria-hidden="true" className="brand-gradient grid size-16 place-items-center rounded-2xl text-white shadow-lg shadow-brand-600/30">
              <ImagePlusIcon className="size-7" />
            </span>
            <p className="text-lg font-bold">You haven't uploaded any photos yet</p>
            <p className="max-w-sm text-sm text-muted-foreground">Get your score, then save it here to edit, download and share it any time.</p>
            <Button asChild size="lg">
              <Link to={paths.upload.path}>Upload Your First Photo</Link>
            </Button>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your photos" data-testid="photo-grid">
            {list.map((photo) => (
              <PhotoCard key={photo.id} photo={photo} onOpen={onOpenInEditor} onDetails={(chosen) => setDetailsId(chosen.id)} />
            ))}
          </ul>
        )}
      </div>

      <PhotoDetailsDialog photo={details} onOpenChange={(open) => !open && setDetailsId(null)} renderEditor={renderEditor} />
    </div>
  );
}
