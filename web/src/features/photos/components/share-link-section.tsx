import { LinkIcon, LoaderCircleIcon, Link2OffIcon } from 'lucide-react';
import { useState } from 'react';
import { SharePanel } from '@/components/share-panel';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { useCreateShareLink, useRevokeShare, type Photo, type ShareExpiry, type ShareLink } from '@/resources/photos/photos';
import { savedPhotoShareText } from '../utils/photo-display';
import { ShareExpiryChoice, ShareLinkLifetime } from './share-link-expiry';

/**
 * The Photo Details dialog's sharing: choose how long a new public link
 * lasts (until turned off, 24 hours or 7 days) and create it, or, while a
 * link works, share it and turn it off. A turned-off link's page and card
 * answer 404 at once. A link to a photo that the nudity check flags stays
 * dark until an admin releases it, and the owner is told so.
 */
export function ShareLinkSection({ photo }: { photo: Photo }) {
  const [link, setLink] = useState<ShareLink | null>(photo.share ?? null);
  const [expiresIn, setExpiresIn] = useState<ShareExpiry>('never');
  const create = useCreateShareLink();
  const revoke = useRevokeShare();

  function createLink() {
    create.mutate(
      { id: photo.id, expiresIn },
      {
        onSuccess: (made) => {
          setLink(made);
          if (made.held_for_review) toast.info(made.message);
        },
        onError: () => toast.error('Failed to create a share link'),
      },
    );
  }

  function turnOff() {
    revoke.mutate(photo.id, {
      onSuccess: () => {
        setLink(null);
        create.reset();
        toast.success('Share link turned off. Its page no longer opens.');
      },
      onError: () => toast.error('Failed to turn off the share link'),
    });
  }

  if (link?.held_for_review) return <HeldForReview message={link.message} />;

  if (!link) {
    return (
      <div className="grid gap-3 rounded-2xl border p-4" data-testid="share-link-setup">
        <ShareExpiryChoice value={expiresIn} onChange={setExpiresIn} disabled={create.isPending} />
        <Button onClick={createLink} disabled={create.isPending}>
          {create.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <LinkIcon aria-hidden="true" />}
          Create Share Link
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-3">
      <SharePanel
        bare
        heading="Share this photo"
        content={{
          title: 'My PrettyScore',
          text: savedPhotoShareText(photo.score, photo.rating_label, link.share_url),
          url: link.share_url,
        }}
      />
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-2xl bg-muted px-3 py-2">
        <ShareLinkLifetime expiresAt={link.expires_at ?? null} />
        <Button variant="outline" size="sm" onClick={turnOff} disabled={revoke.isPending}>
          {revoke.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <Link2OffIcon aria-hidden="true" />}
          Turn Off Link
        </Button>
      </div>
    </div>
  );
}

/** What the owner sees while a photo is held by the nudity check. */
export function HeldForReview({ message }: { message?: string }) {
  return (
    <p role="status" className="rounded-2xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      Held for review: {message ?? 'An admin will look at this photo before anyone else can see it.'}
    </p>
  );
}
