import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toUploadFile } from '@/lib/image';
import { toast } from '@/lib/toast';
import { analysisErrorMessage, useAnalyzePhoto, type AnalysisKind, type ScoredPhoto } from '@/resources/analyses/analyses';
import { READ_FAILED_MESSAGE } from '../utils/validate-image-file';
import { checkPhotoChosen, FACE_UPLOAD_MESSAGES, type UploadMessages } from '../utils/validate-upload';
import { useChosenPhoto } from './use-chosen-photo';

type Options<K extends AnalysisKind> = {
  /** Which analysis scores the photo: POST /api/v1/analyses/{kind}. */
  kind: K;
  /** Where the score is shown; it receives `{ analysis, image }` in navigation state. */
  resultsPath: string;
  /** The upload's file name without extension (the server only sniffs the bytes). */
  fileBase: string;
  /** A photo handed over in navigation state (the home drop zone does this). */
  initial?: string | null;
  /** Keep the photo for this tab (the face flow does; the pet flow does not). */
  remember?: boolean;
  /** Makes the working copy (tests pass their own). */
  prepare?: (file: File) => Promise<Blob>;
  /**
   * Loads the results page's code, called once a photo is chosen, so that
   * after the tap only the upload and the analysis are waited for.
   */
  preloadResults?: () => Promise<unknown>;
  /** The page's words for a refused file or a missing photo (the face flow's by default). */
  messages?: UploadMessages;
};

/**
 * The flow every upload page shares (face, pet, feet, hands): pick a photo,
 * which becomes its working copy, tap, the server scores the copy, and the
 * results page receives the analysis and the same copy. Refusals show the
 * spec's message (no photo, too large, not an image) or the server's.
 */
export function useUploadAndScore<K extends AnalysisKind>({
  kind,
  resultsPath,
  fileBase,
  initial,
  remember,
  prepare,
  preloadResults,
  messages = FACE_UPLOAD_MESSAGES,
}: Options<K>) {
  const navigate = useNavigate();
  const onError = useCallback((message: string) => toast.error(message), []);
  const photo = useChosenPhoto({ initial, remember, onError, prepare, messages });
  const chosen = photo.image !== null;
  useEffect(() => {
    // A failed preload is no matter: the page loads its code again on the way.
    if (chosen) preloadResults?.().catch(() => undefined);
  }, [chosen, preloadResults]);
  const analyze = useAnalyzePhoto(kind);
  const analyzing = analyze.isPending;
  const busy = analyzing || photo.reading;

  function getScore() {
    if (busy) return;
    const check = checkPhotoChosen(photo.image, messages);
    if (!check.ok) {
      toast.error(check.message);
      return;
    }
    const image = photo.image as string;
    let upload: File;
    try {
      upload = toUploadFile(photo.file, image, fileBase);
    } catch {
      toast.error(READ_FAILED_MESSAGE);
      return;
    }
    analyze.mutate(upload, {
      onSuccess: (analysis) => {
        const state: ScoredPhoto<K> = { analysis, image };
        void navigate(resultsPath, { state });
      },
      onError: (error) => toast.error(analysisErrorMessage(error)),
    });
  }

  return { photo, analyzing, busy, getScore };
}
