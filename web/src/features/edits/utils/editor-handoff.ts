/**
 * What another page hands to /editor in navigation state: the results page
 * sends `{ image, analysis, originalImage? }` (the photo as shown, and the
 * photo as taken when what is shown is an edit of it); My Photos sends
 * `{ image, score, ratingLabel, photoId, photoType }` (Save then updates that
 * photo instead of storing a new one).
 */
export type PhotoType = 'face' | 'feet' | 'hands';

export type EditorHandoff = {
  image: string;
  score?: number;
  ratingLabel?: string;
  /** The photo as taken, when `image` is an edit of it: Save stores this one (scored) with the edit beside it. */
  originalImage?: string;
  /** A saved photo (My Photos): Save attaches the edit to it. */
  photoId?: string;
  /** Which analysis scored it (a new save is scored by the same one). */
  photoType?: PhotoType;
};

const PHOTO_TYPES: readonly string[] = ['face', 'feet', 'hands'];

function isImageUrl(value: unknown): value is string {
  return typeof value === 'string' && (value.startsWith('data:image/') || value.startsWith('/'));
}

export function readEditorHandoff(state: unknown): EditorHandoff | null {
  if (!state || typeof state !== 'object') return null;
  const value = state as Record<string, unknown>;
  const image = value.image;
  if (!isImageUrl(image)) return null;
  const analysis = value.analysis as { score?: unknown; ratingLabel?: unknown } | undefined;
  const score = typeof value.score === 'number' ? value.score : typeof analysis?.score === 'number' ? analysis.score : undefined;
  const label =
    typeof value.ratingLabel === 'string'
      ? value.ratingLabel
      : typeof analysis?.ratingLabel === 'string'
        ? analysis.ratingLabel
        : undefined;
  const handoff: EditorHandoff = { image, score, ratingLabel: label };
  if (isImageUrl(value.originalImage) && value.originalImage !== image) handoff.originalImage = value.originalImage;
  if (typeof value.photoId === 'string' && value.photoId) handoff.photoId = value.photoId;
  if (typeof value.photoType === 'string' && PHOTO_TYPES.includes(value.photoType)) handoff.photoType = value.photoType as PhotoType;
  return handoff;
}
