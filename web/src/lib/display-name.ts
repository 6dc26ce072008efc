import type { User } from '@supabase/auth-js';
import { z } from '@/lib/zod';

/**
 * The name a person shows to others (contact requests, chats): kept in the
 * auth user's metadata as GoTrue apps keep it, `user_metadata.display_name`.
 * The server's rule (`http::text::check_display_name`): trimmed, 1-50
 * characters with at least one visible one, no control or text-direction
 * override characters. Mirrored here for the forms; the server decides.
 */
export const DISPLAY_NAME_MAX = 50;

/** Characters that draw nothing (spaces, zero-width, fillers, format marks). */
// The same list as the server's `is_invisible`; some are combining marks, listed one by one on purpose.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = /^[\s\p{Cc}\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u034F\u17B4\u17B5\u180B-\u180F\uFE00-\uFE0F]*$/u;
/** Controls (a name is one line) and the bidi embeddings, overrides and isolates. */
const REFUSED = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

export const displayNameField = z
  .string()
  .trim()
  .min(1, 'Please enter a display name')
  .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`)
  .refine((name) => !REFUSED.test(name), 'Display name contains a character that is not allowed')
  .refine((name) => !INVISIBLE.test(name), 'Display name needs at least one visible character');

/** Optional (sign-up): blank means none. */
export const optionalDisplayNameField = z
  .string()
  .trim()
  .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`)
  .refine((name) => !REFUSED.test(name), 'Display name contains a character that is not allowed')
  .refine((name) => name === '' || !INVISIBLE.test(name), 'Display name needs at least one visible character');

/** The user's display name, or null when they have not chosen one. */
export function displayNameOf(user: Pick<User, 'user_metadata'> | null | undefined): string | null {
  const value: unknown = user?.user_metadata?.display_name;
  if (typeof value !== 'string') return null;
  const name = value.trim();
  return name === '' || INVISIBLE.test(name) ? null : name;
}
