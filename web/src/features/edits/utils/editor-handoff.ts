/**
 * What another page hands to /editor in navigation state: the results page
 * sends `{ image, analysis }`, My Photos `{ image, score, ratingLabel }`.
 */
export type EditorHandoff = { image: string; score?: number; ratingLabel?: string };

export function readEditorHandoff(state: unknown): EditorHandoff | null {
  if (!state || typeof state !== 'object') return null;
  const value = state as Record<string, unknown>;
  const image = value.image;
  if (typeof image !== 'string' || !(image.startsWith('data:image/') || image.startsWith('/'))) return null;
  const analysis = value.analysis as { score?: unknown; ratingLabel?: unknown } | undefined;
  const score = typeof value.score === 'number' ? value.score : typeof analysis?.score === 'number' ? analysis.score : undefined;
  const label =
    typeof value.ratingLabel === 'string'
      ? value.ratingLabel
      : typeof analysis?.ratingLabel === 'string'
        ? analysis.ratingLabel
        : undefined;
  return { image, score, ratingLabel: label };
}
