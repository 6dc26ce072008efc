import type { ScoredPhoto } from '@/resources/analyses/analyses';

export type { PetAnalysis } from '@/resources/analyses/analyses';

/** What /pet-upload hands to /pet-results in navigation state. */
export type PetResultState = ScoredPhoto<'pet'>;

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
