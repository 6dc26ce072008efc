import type { ApiSchemas } from '@/lib/api-client';
import type { FaceAnalysis, ScoredPhoto } from '@/resources/analyses/analyses';

export type { FaceAnalysis } from '@/resources/analyses/analyses';
export type FaceBreakdown = ApiSchemas['FaceBreakdown'];
export type KeyPoints = ApiSchemas['KeyPoints'];
export type NormBox = ApiSchemas['NormBox'];
export type Tier = ApiSchemas['Tier'];
/** [x, y], normalised to the upright image (0..1). */
export type Point = number[];

/** The AI edits of a result, as the results screen holds them. */
export type ResultEditsState = {
  /** The latest edit: a signed, relative /media/… URL (valid for an hour). */
  latest: string;
  /** An enhancement happened since the score was last computed. */
  needsAnalyze: boolean;
  /** The edited image's own score, once the user asked for it (Analyze). */
  analysis?: FaceAnalysis;
  /** The edit that `analysis` scored (an earlier one once the user edited again). */
  analyzedImage?: string;
};

/**
 * What /upload hands to /results in navigation state: the analysis and the
 * photo. A result that comes back from 'Sign In to Save' also carries its edits.
 */
export type ResultState = ScoredPhoto<'face'> & { edits?: ResultEditsState };

const isAnalysis = (value: unknown): value is FaceAnalysis =>
  !!value && typeof value === 'object' && typeof (value as FaceAnalysis).score === 'number' && !!(value as FaceAnalysis).breakdown;

function isEditsState(value: unknown): value is ResultEditsState {
  if (!value || typeof value !== 'object') return false;
  const edits = value as Partial<ResultEditsState>;
  return (
    // Our own media path (never another site's address: it comes back from session storage).
    typeof edits.latest === 'string' &&
    /^\/(?![/\\])/.test(edits.latest) &&
    typeof edits.needsAnalyze === 'boolean' &&
    (edits.analysis === undefined || isAnalysis(edits.analysis)) &&
    (edits.analyzedImage === undefined || (typeof edits.analyzedImage === 'string' && /^\/(?![/\\])/.test(edits.analyzedImage)))
  );
}

export function isResultState(value: unknown): value is ResultState {
  if (!value || typeof value !== 'object') return false;
  const state = value as Partial<ResultState>;
  return (
    typeof state.image === 'string' &&
    state.image.startsWith('data:image/') &&
    isAnalysis(state.analysis) &&
    (state.edits === undefined || isEditsState(state.edits))
  );
}
