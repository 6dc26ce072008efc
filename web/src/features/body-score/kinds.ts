import { paths } from '@/config/paths';
import type { ScoredPhoto } from '@/resources/analyses/analyses';

/** Feet and hands share one flow; what differs is written here once. */
export type BodyKind = 'feet' | 'hands';

export const SIGN_IN_TO_SAVE_MESSAGE = 'Please sign in to save your results';
export const SAVE_FAILED_MESSAGE = 'Failed to save results';
export const SAVED_MESSAGE = 'Saved to My Photos!';

type BodyKindInfo = {
  title: string;
  /** What the photo shows, in a sentence ("your feet"). */
  subject: string;
  uploadPath: string;
  resultsPath: string;
  /** The breakdown's keys in the spec's order, with their labels. */
  breakdown: { key: string; label: string }[];
  tips: string[];
};

export const BODY_KINDS: Record<BodyKind, BodyKindInfo> = {
  feet: {
    title: 'Feet Beauty Score',
    subject: 'your feet',
    uploadPath: paths.feetUpload.path,
    resultsPath: paths.feetResults.path,
    breakdown: [
      { key: 'toeSymmetry', label: 'Toe Symmetry' },
      { key: 'archQuality', label: 'Arch Quality' },
      { key: 'skinAppearance', label: 'Skin Appearance' },
      { key: 'overallAesthetics', label: 'Overall Aesthetics' },
    ],
    tips: ['Both feet in the frame, from above', 'Daylight or a bright room', 'A plain floor or sheet behind them', 'No faces in the photo'],
  },
  hands: {
    title: 'Hands Beauty Score',
    subject: 'your hands',
    uploadPath: paths.handsUpload.path,
    resultsPath: paths.handsResults.path,
    breakdown: [
      { key: 'fingerProportions', label: 'Finger Proportions' },
      { key: 'skinQuality', label: 'Skin Quality' },
      { key: 'nailAppearance', label: 'Nail Appearance' },
      { key: 'overallAesthetics', label: 'Overall Aesthetics' },
    ],
    tips: ['One hand, fingers spread, filling the frame', 'Back of the hand or palm towards the camera', 'Daylight or a bright room', 'A plain background'],
  },
};

/** What /feet-upload and /hands-upload hand to their results page in navigation state. */
export type BodyResultState<K extends BodyKind> = ScoredPhoto<K>;

export function isBodyResultState<K extends BodyKind>(value: unknown): value is BodyResultState<K> {
  if (!value || typeof value !== 'object') return false;
  const state = value as Partial<BodyResultState<K>>;
  return (
    typeof state.image === 'string' &&
    state.image.startsWith('data:image/') &&
    !!state.analysis &&
    typeof state.analysis.score === 'number' &&
    typeof state.analysis.ratingLabel === 'string' &&
    !!state.analysis.breakdown
  );
}
