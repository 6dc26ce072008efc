import type { EditKind } from './edit-errors';

/**
 * The success messages of an edit (docs/spec-rules.md §4 and the
 * dashboard editor catalogue). With unlimited (premium) edits there is no
 * count to give, so the message says so instead.
 */
const verbs: Record<EditKind, string> = { edit: 'edited', enhance: 'enhanced', upscale: 'upscaled' };

export function editSuccessMessage(kind: EditKind, count: number | null): string {
  const done = `Photo ${verbs[kind]}!`;
  if (count === null) return `${done} You have unlimited edits.`;
  const remaining = Math.max(0, count);
  // 'free edits' as the spec words it; one edit is singular.
  return `${done} ${remaining} free ${remaining === 1 ? 'edit' : 'edits'} remaining.`;
}

/** After an enhancement the score may have changed: the user is asked to analyse again. */
export const ANALYZE_HINT = 'Click Analyze to see your new score!';
export const DASHBOARD_EDIT_SUCCESS = 'Photo edited successfully!';
export const UNDO_SUCCESS = 'Undo successful!';
export const UNDO_FAILED = 'Failed to undo edit';
export const NOTHING_TO_UNDO = 'No edits to undo';
export {
  NO_PHOTO_TO_DOWNLOAD_MESSAGE as NO_PHOTO_TO_DOWNLOAD,
  PHOTO_DOWNLOADED_MESSAGE as PHOTO_DOWNLOADED,
  PHOTO_DOWNLOAD_FAILED_MESSAGE as DOWNLOAD_FAILED,
} from '@/components/download-photo-button';
export const NO_PHOTO_TO_SAVE = 'No photo to save';
export const NO_EDITED_IMAGE_TO_DOWNLOAD = 'No edited image to download';
export const ADJUSTMENTS_APPLIED = 'Adjustments applied!';

/** The share text of an edited photo (docs/spec-rules.md §7). */
export function editShareText(url: string): string {
  return `I just enhanced my photo with AI! Check out PrettyScore: ${url} #AIPhotoChallenge`;
}
