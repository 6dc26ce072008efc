import { LogOutIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { InlinePhotoEditor } from '@/features/edits/components/inline-photo-editor';
import type { EditorHandoff } from '@/features/edits/utils/editor-handoff';
import { MyPhotos } from '@/features/photos/components/my-photos';
import { displayImage } from '@/features/photos/utils/photo-display';
import { PremiumMemberBanner } from '@/features/premium/components/premium-member-banner';
import { VerificationStatus } from '@/features/verification/components/verification-status';
import { useSession } from '@/lib/session';

/**
 * My Photos with everything around it: the membership banner, Sign Out (to
 * /), and each photo opening in /editor or in its details dialog with the AI
 * editor. On /dashboard as the page; on /user-dashboard as a tab (`embedded`).
 */
export function MyPhotosPanel({ embedded = false }: { embedded?: boolean }) {
  const { session } = useSession();
  const { signOut, pending } = useSignOut();
  const navigate = useNavigate();
  return (
    <MyPhotos
      embedded={embedded}
      email={embedded ? undefined : session?.user.email}
      banner={
        embedded ? undefined : (
          <div className="grid gap-3">
            <PremiumMemberBanner />
            <VerificationStatus />
          </div>
        )
      }
      signOut={
        embedded ? null : (
          <Button variant="outline" onClick={() => void signOut()} disabled={pending}>
            <LogOutIcon aria-hidden="true" />
            Sign Out
          </Button>
        )
      }
      onOpenInEditor={(photo) => {
        // Save in the editor attaches the edit to this photo (any type) instead of storing a new one.
        const state: EditorHandoff = {
          image: displayImage(photo),
          score: photo.score,
          ratingLabel: photo.rating_label,
          photoId: photo.id,
          photoType: photo.photo_type === 'feet' || photo.photo_type === 'hands' ? photo.photo_type : 'face',
        };
        void navigate(paths.editor.path, { state });
      }}
      renderEditor={(photo) => (
        <InlinePhotoEditor
          photoId={photo.id}
          originalUrl={photo.original_image_url}
          editedUrl={photo.edited_image_url}
          fileBase={`prettyscore-${photo.id.slice(0, 8)}`}
        />
      )}
    />
  );
}
