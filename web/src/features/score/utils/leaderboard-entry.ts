export const DISPLAY_NAME_REQUIRED_MESSAGE = 'Please enter your display name';
export const LEADERBOARD_QUEUED_MESSAGE = "You've been added to the leaderboard queue! Admins will verify your entry soon.";
export const SIGN_IN_TO_SAVE_MESSAGE = 'Sign in to save your photos!';
export const PHOTO_SAVED_MESSAGE = 'Photo saved to your dashboard!';
export const SAVE_FAILED_MESSAGE = 'Failed to save photo';
export const BIO_MAX_LENGTH = 500;

export type LeaderboardEntry = { displayName: string; bio?: string };
export type LeaderboardEntryCheck = { ok: true; entry: LeaderboardEntry } | { ok: false; message: string };

/** The leaderboard opt-in's rule, as the server checks it: a trimmed display name is required; the bio is optional. */
export function validateLeaderboardEntry(input: { displayName: string; bio: string }): LeaderboardEntryCheck {
  const displayName = input.displayName.trim();
  if (!displayName) return { ok: false, message: DISPLAY_NAME_REQUIRED_MESSAGE };
  const bio = input.bio.trim();
  return { ok: true, entry: bio ? { displayName, bio } : { displayName } };
}

/**
 * Where anonymous users go to sign in, with the way back. The results screen
 * sends them back to /upload, where their photo is still kept for this tab:
 * scoring is deterministic, so one click gives the same result again.
 */
export function signInPath(returnTo: string): string {
  return `/auth?returnTo=${encodeURIComponent(returnTo)}`;
}
