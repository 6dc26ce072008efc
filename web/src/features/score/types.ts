import type { ApiSchemas } from '@/lib/api-client';

/** The face analysis as the server sends it (generated from its OpenAPI document). */
export type FaceAnalysis = ApiSchemas['FaceAnalysis'];
export type FaceBreakdown = ApiSchemas['FaceBreakdown'];
export type KeyPoints = ApiSchemas['KeyPoints'];
export type NormBox = ApiSchemas['NormBox'];
export type Tier = ApiSchemas['Tier'];
/** [x, y], normalised to the upright image (0..1). */
export type Point = number[];

/** A saved photo row (snake_case), as POST /api/v1/photos answers. */
export type SavedPhoto = ApiSchemas['Photo'];

/** What /upload hands to /results in navigation state. */
export type ResultState = { analysis: FaceAnalysis; image: string };

export function isResultState(value: unknown): value is ResultState {
  if (!value || typeof value !== 'object') return false;
  const state = value as Partial<ResultState>;
  return (
    typeof state.image === 'string' &&
    state.image.startsWith('data:image/') &&
    !!state.analysis &&
    typeof state.analysis.score === 'number' &&
    !!state.analysis.breakdown
  );
}
