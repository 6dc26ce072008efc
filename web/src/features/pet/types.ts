/**
 * The pet analysis as the server sends it (serde JSON of crates/analysis'
 * `PetAnalysis`). A local type until schema.d.ts lists the endpoint.
 */
export type PetAnalysis = {
  /** A whole number from 7 to 10. */
  score: number;
  title: string;
  qualities: Record<string, number>;
};

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
