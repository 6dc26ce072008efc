import { paths } from '@/config/paths';

/** Where signing in leads when nothing asked for another page. */
export const DEFAULT_AFTER_SIGN_IN = paths.dashboard.path;

/**
 * Only same-site paths are followed, so a crafted /auth?returnTo=https://evil
 * link cannot send a freshly signed-in user elsewhere ("//host" is another
 * site too, and so is "/\host" in some browsers).
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === paths.auth.path || value.startsWith(`${paths.auth.path}/`) || value.startsWith(`${paths.auth.path}?`)) {
    return null;
  }
  return value;
}

/**
 * The page to go to after signing in: `?returnTo=` (the links other features
 * build) or the router state `{ returnTo }` (RequireAuth), else /dashboard.
 */
export function afterSignInPath(search: string, state: unknown): string {
  const fromQuery = safeReturnTo(new URLSearchParams(search).get('returnTo'));
  if (fromQuery) return fromQuery;
  const fromState =
    state && typeof state === 'object' && 'returnTo' in state ? safeReturnTo((state as { returnTo: unknown }).returnTo) : null;
  return fromState ?? DEFAULT_AFTER_SIGN_IN;
}
