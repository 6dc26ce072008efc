import { photoDownloadName } from '@/components/download-photo-button';
import type { Photo } from '@/lib/api/photos';

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

/** The three sub-scores a card shows (spec: symmetry, skin quality, facial harmony). */
export function cardSubScores(photo: Pick<Photo, 'breakdown'>) {
  return [
    { key: 'symmetry', label: 'Symmetry', value: photo.breakdown.symmetry },
    { key: 'skinQuality', label: 'Skin Quality', value: photo.breakdown.skinQuality },
    { key: 'facialHarmony', label: 'Facial Harmony', value: photo.breakdown.facialHarmony },
  ];
}

/** A download name with the spec's suffix: '-edited' or '-original' (the extension follows the type). */
export function photoFileBase(photo: Pick<Photo, 'id'>, edited: boolean): string {
  return photoDownloadName(`prettyscore-${photo.id.slice(0, 8)}`, edited);
}

/** The share text of a saved result. */
export function savedPhotoShareText(score: number, label: string, url: string): string {
  return `I just had my photo scored by AI! My PrettyScore: ${outOfTen(score)}, "${label}". How does yours score? ${url} #AIPhotoChallenge`;
}
