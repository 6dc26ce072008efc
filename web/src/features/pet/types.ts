import type { ApiSchemas } from '@/lib/api-client';

/** The pet analysis as the server sends it (generated from its OpenAPI document). */
export type PetAnalysis = ApiSchemas['PetAnalysis'];

/** What /pet-upload hands to /pet-results in navigation state. */
export type PetResultState = { analysis: PetAnalysis; image: string };

export function isPetResultState(value: unknown): value is PetResultState {
  if (!value || typeof value !== 'object') return false;
  const state = value as Partial<PetResultState>;
  return (
    typeof state.image === 'string' &&
    state.image.startsWith('data:image/') &&
    !!state.analysis &&
    typeof state.analysis.score === 'number'
  );
}
