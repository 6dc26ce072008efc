/**
 * The free-edit counter in local storage (spec: prettyScoreEditsRemaining).
 * The server counts and enforces the edits; this copy is for display only
 * (the first paint before the quota call answers), never trusted.
 */
export const EDITS_REMAINING_KEY = 'prettyScoreEditsRemaining';

/** Writes the server's remaining count; null (unlimited) removes the counter. */
export function mirrorEditsRemaining(remaining: number | null, storage: Storage = localStorage): void {
  try {
    if (remaining === null) storage.removeItem(EDITS_REMAINING_KEY);
    else storage.setItem(EDITS_REMAINING_KEY, String(Math.max(0, Math.floor(remaining))));
  } catch {
    // Storage disabled or full: the server still knows.
  }
}

/** The mirrored count, or undefined when there is none (or it is not a count). */
export function readMirroredEditsRemaining(storage: Storage = localStorage): number | undefined {
  let raw: string | null;
  try {
    raw = storage.getItem(EDITS_REMAINING_KEY);
  } catch {
    return undefined;
  }
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

/** Whether every edit button must be disabled (spec: free edits at 0 or fewer). */
export function outOfEdits(remaining: number | null | undefined): boolean {
  return typeof remaining === 'number' && remaining <= 0;
}
