import { isResultState, type ResultState } from '../types';

/**
 * A result kept in this tab while its owner signs in from 'Sign In to Save'
 * (or from the leaderboard entry), so that /results can show it again, with
 * its AI edits, and the user can save it. Session storage: this tab only,
 * gone with it.
 */
export const PENDING_RESULT_KEY = 'prettyscore:pendingResult';

/** Keeps the result; false when the browser refuses (storage full or disabled). */
export function keepPendingResult(result: ResultState): boolean {
  try {
    sessionStorage.setItem(PENDING_RESULT_KEY, JSON.stringify(result));
    return true;
  } catch {
    return false;
  }
}

/** The kept result, if there is a readable one. */
export function readPendingResult(): ResultState | null {
  try {
    const raw = sessionStorage.getItem(PENDING_RESULT_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return isResultState(value) ? value : null;
  } catch {
    return null;
  }
}

export function clearPendingResult(): void {
  try {
    sessionStorage.removeItem(PENDING_RESULT_KEY);
  } catch {
    // Nothing kept, nothing to remove.
  }
}
