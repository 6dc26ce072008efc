import { photoDownloadName } from '@/components/download-photo-button';
import type { Photo, ShareExpiry } from '@/resources/photos/photos';

/** The image a card shows: the latest edit if there is one, else the original. */
export function displayImage(photo: Pick<Photo, 'edited_image_url' | 'original_image_url'>): string {
  return photo.edited_image_url || photo.original_image_url;
}

/** A score or sub-score as 'n/10' with one decimal. */
export function outOfTen(value: number | undefined): string {
  return `${(Math.round((value ?? 0) * 10) / 10).toFixed(1)}/10`;
}

export function photoDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/**
 * Each photo type's breakdown as its results page labels it: a face card
 * shows the spec's three (symmetry, skin quality, facial harmony); feet and
 * hands show their own four, as /feet-results and /hands-results do.
 */
const SUB_SCORES: Record<string, { key: string; label: string }[]> = {
  face: [
    { key: 'symmetry', label: 'Symmetry' },
    { key: 'skinQuality', label: 'Skin Quality' },
    { key: 'facialHarmony', label: 'Facial Harmony' },
  ],
  feet: [
    { key: 'toeSymmetry', label: 'Toe Symmetry' },
    { key: 'archQuality', label: 'Arch Quality' },
    { key: 'skinAppearance', label: 'Skin Appearance' },
    { key: 'overallAesthetics', label: 'Overall Aesthetics' },
  ],
  hands: [
    { key: 'fingerProportions', label: 'Finger Proportions' },
    { key: 'skinQuality', label: 'Skin Quality' },
    { key: 'nailAppearance', label: 'Nail Appearance' },
    { key: 'overallAesthetics', label: 'Overall Aesthetics' },
  ],
};

/** The sub-scores a card and the details dialog show, by the photo's type (face when unknown). */
export function cardSubScores(photo: Pick<Photo, 'breakdown'> & { photo_type?: string }) {
  const keys = SUB_SCORES[photo.photo_type ?? 'face'] ?? SUB_SCORES.face!;
  return keys.map(({ key, label }) => ({ key, label, value: photo.breakdown[key] }));
}

/** The grid's columns: three face sub-scores in a row, four body ones in two rows. */
export function subScoreColumns(count: number): string {
  return count === 4 ? 'grid-cols-2' : 'grid-cols-3';
}

/** A download name with the spec's suffix: '-edited' or '-original' (the extension follows the type). */
export function photoFileBase(photo: Pick<Photo, 'id'>, edited: boolean): string {
  return photoDownloadName(`prettyscore-${photo.id.slice(0, 8)}`, edited);
}

/** The share text of a saved result. */
export function savedPhotoShareText(score: number, label: string, url: string): string {
  return `I just had my photo scored by AI! My PrettyScore: ${outOfTen(score)}, "${label}". How does yours score? ${url} #AIPhotoChallenge`;
}

/** The share dialog's choices of how long a new public link works. */
export const shareExpiryChoices: { value: ShareExpiry; label: string }[] = [
  { value: 'never', label: 'Until I turn it off' },
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
];

/** What the share dialog says about a working link's lifetime. */
export function shareLinkLifetime(expiresAt: string | null): string {
  if (!expiresAt) return 'The link works until you turn it off.';
  const date = new Date(expiresAt);
  if (Number.isNaN(date.getTime())) return 'The link works until you turn it off.';
  return `The link works until ${date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`;
}
