import { useCallback, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { paths, signInPathFor } from '@/config/paths';
import { EditorWorkspace } from '@/features/edits/components/editor-workspace';
import { readEditorHandoff } from '@/features/edits/utils/editor-handoff';
import { SIGN_IN_TO_SAVE_MESSAGE } from '@/features/score/utils/leaderboard-entry';
import { useChosenPhoto } from '@/features/upload/hooks/use-chosen-photo';
import { useFileDrop } from '@/features/upload/hooks/use-file-drop';
import { imageUrlToBlob } from '@/lib/image';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useAttachEdit, useSavePhoto } from '@/resources/photos/photos';

/**
 * The AI Photo Editor. A photo arrives from the results page or My Photos
 * (navigation state), or is uploaded here; a new upload starts a fresh
 * history and clears the score. Save follows /results' rule: the original
 * is stored and scored by the server, the edit is attached to it. A photo
 * opened from My Photos is updated (its edit attached, its score kept), not
 * stored again. The route is gated by the ai_editor feature (router.tsx).
 */
export default function EditorRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const { session } = useSession();
  const inputRef = useRef<HTMLInputElement>(null);
  const handoff = readEditorHandoff(location.state);
  const onError = useCallback((message: string) => toast.error(message), []);
  const photo = useChosenPhoto({ initial: handoff?.image ?? null, onError });
  const savePhoto = useSavePhoto();
  const attachEdit = useAttachEdit();
  const { dragging, handlers } = useFileDrop((file) => void photo.choose(file));
  const fromHandoff = photo.image !== null && photo.image === handoff?.image;

  return (
    <div className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12', dragging && 'bg-brand-50/60')} {...handlers}>
      <PageTitle title={paths.editor.title} />
      <div className="mb-6">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{paths.editor.title}</h1>
        <p className="mt-2 text-muted-foreground">Enhance, upscale, retouch, restyle and fine-tune your photo, then save it to My Photos.</p>
      </div>
      <EditorWorkspace
        // A new photo is a new editing session: history, sliders and score start again.
        key={photo.image ?? 'none'}
        image={photo.image}
        initialScore={fromHandoff && handoff?.score !== undefined ? { score: handoff.score, label: handoff.ratingLabel ?? '' } : undefined}
        onUploadClick={() => inputRef.current?.click()}
        uploading={photo.reading}
        canSave={Boolean(session)}
        onSignInToSave={() => {
          toast.info(SIGN_IN_TO_SAVE_MESSAGE);
          void navigate(signInPathFor(paths.editor.path));
        }}
        // Every edit here is an AI Editor edit: the server checks Premium or the trial again.
        feature="ai_editor"
        save={async ({ current, start }) => {
          const handed = fromHandoff ? handoff : null;
          if (handed?.photoId) {
            // A saved photo: its edit is attached to it; nothing to send when nothing changed.
            if (current === handed.image) return { score: handed.score ?? 0, label: handed.ratingLabel ?? '' };
            const saved = await attachEdit.mutateAsync({ id: handed.photoId, image: await imageUrlToBlob(current) });
            return { score: saved.score, label: saved.rating_label };
          }
          // A new photo: the original (the photo as taken) is stored and scored, the edit goes beside it.
          const original = handed?.originalImage ?? start;
          const saved = await savePhoto.mutateAsync({
            image: await imageUrlToBlob(original),
            editedImage: current === original ? undefined : await imageUrlToBlob(current),
            photoType: handed?.photoType,
          });
          return { score: saved.score, label: saved.rating_label };
        }}
      />
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        className="hidden"
        tabIndex={-1}
        aria-label="Choose a photo to edit"
        data-testid="editor-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void photo.choose(file);
        }}
      />
    </div>
  );
}
