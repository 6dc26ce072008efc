import { useMutation } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '@/lib/api-client';
import { toFormData } from '@/lib/form-data';

/**
 * The analyses resource (`POST /api/v1/analyses/{face,pet,feet,hands}`): the
 * server scores one photo and stores nothing. One module for every kind, so
 * the upload pages share one flow (features/upload's useUploadAndScore).
 */

export type FaceAnalysis = ApiSchemas['FaceAnalysis'];
export type PetAnalysis = ApiSchemas['PetAnalysis'];
export type FeetAnalysis = ApiSchemas['FeetAnalysis'];
export type HandsAnalysis = ApiSchemas['HandsAnalysis'];

/** What each kind of analysis answers. */
export type AnalysisOf = {
  face: FaceAnalysis;
  pet: PetAnalysis;
  feet: FeetAnalysis;
  hands: HandsAnalysis;
};
export type AnalysisKind = keyof AnalysisOf;

/** What an upload page hands to its results page in navigation state: the analysis and the photo that was scored. */
export type ScoredPhoto<K extends AnalysisKind> = { analysis: AnalysisOf[K]; image: string };

// A file field is typed as a binary string; toFormData sends the Blob.
const upload = (image: Blob) => ({ body: { image: image as unknown as string }, bodySerializer: toFormData });

/**
 * Scores a photo. Errors are `ApiError`s carrying the server's message for
 * the user (no face, too large, not an image, rate limited...).
 */
export function analyzePhoto<K extends AnalysisKind>(kind: K, image: Blob): Promise<AnalysisOf[K]> {
  // One typed call per path, so each answer keeps its generated type.
  const calls: { [Kind in AnalysisKind]: () => Promise<AnalysisOf[Kind]> } = {
    face: () => unwrap(api.POST('/api/v1/analyses/face', upload(image))),
    pet: () => unwrap(api.POST('/api/v1/analyses/pet', upload(image))),
    feet: () => unwrap(api.POST('/api/v1/analyses/feet', upload(image))),
    hands: () => unwrap(api.POST('/api/v1/analyses/hands', upload(image))),
  };
  return calls[kind]();
}

export function useAnalyzePhoto<K extends AnalysisKind>(kind: K) {
  return useMutation({ mutationFn: (image: Blob) => analyzePhoto(kind, image) });
}

export const GENERIC_ANALYSIS_ERROR = 'We could not analyze this photo. Please try again.';

/** The server's message for the user (no face, too large, not an image…), or a plain fallback. */
export function analysisErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code !== 'http_error' && error.message) return error.message;
  return GENERIC_ANALYSIS_ERROR;
}
