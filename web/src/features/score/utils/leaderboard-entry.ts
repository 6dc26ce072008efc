import { z } from '@/lib/zod';

export const DISPLAY_NAME_REQUIRED_MESSAGE = 'Please enter your display name';
export const LEADERBOARD_QUEUED_MESSAGE = "You've been added to the leaderboard queue! Admins will verify your entry soon.";
export const SIGN_IN_TO_SAVE_MESSAGE = 'Sign in to save your photos!';
export const PHOTO_SAVED_MESSAGE = 'Photo saved to your dashboard!';
export const SAVE_FAILED_MESSAGE = 'Failed to save photo';
/** The server's limits (crates/server/src/photos/rules.rs), counted in characters. */
export const DISPLAY_NAME_MAX_CHARS = 50;
export const BIO_MAX_CHARS = 1000;

const chars = (value: string) => Array.from(value).length;

/**
 * The leaderboard opt-in, mirroring the server's rules: a trimmed display name
 * is required (at most 50 characters); the bio is optional (blank means none,
 * at most 1000 characters).
 */
export const leaderboardEntrySchema = z.object({
  displayName: z
    .string()
    .trim()
    .min(1, DISPLAY_NAME_REQUIRED_MESSAGE)
    .refine((name) => chars(name) <= DISPLAY_NAME_MAX_CHARS, {
      message: `Display name must be at most ${DISPLAY_NAME_MAX_CHARS} characters`,
    }),
  bio: z
    .string()
    .trim()
    .refine((bio) => chars(bio) <= BIO_MAX_CHARS, { message: 'Bio must be less than 1000 characters' })
    .transform((bio) => bio || undefined),
});

export type LeaderboardEntryInput = z.input<typeof leaderboardEntrySchema>;
export type LeaderboardEntry = z.output<typeof leaderboardEntrySchema>;
export type LeaderboardEntryCheck = { ok: true; entry: LeaderboardEntry } | { ok: false; message: string };

export function validateLeaderboardEntry(input: LeaderboardEntryInput): LeaderboardEntryCheck {
  const result = leaderboardEntrySchema.safeParse(input);
  if (result.success) return { ok: true, entry: result.data };
  return { ok: false, message: result.error.issues[0]?.message ?? DISPLAY_NAME_REQUIRED_MESSAGE };
}
