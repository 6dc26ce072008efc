/**
 * A social sign-in (or linking) that failed comes back from the server's
 * /auth/v1/callback with `error`, `error_code` and `error_description` in the
 * query and again in the fragment, GoTrue's way. These read and drop them.
 */
export type AuthRedirectError = {
  /** The OAuth error (`access_denied`, `server_error`…). */
  error: string | null;
  /** GoTrue's machine code (`identity_already_exists`…), when it gave one. */
  code: string | null;
  description: string | null;
};

const ERROR_KEYS = ['error', 'error_code', 'error_description'] as const;

function paramsOf(part: string, prefix: '?' | '#'): URLSearchParams {
  return new URLSearchParams(part.startsWith(prefix) ? part.slice(1) : part);
}

/** The error in the address (the query first, then the fragment), or null. */
export function readAuthRedirectError(search: string, hash: string): AuthRedirectError | null {
  for (const params of [paramsOf(search, '?'), paramsOf(hash, '#')]) {
    if (ERROR_KEYS.some((key) => params.has(key))) {
      return {
        error: params.get('error') || null,
        code: params.get('error_code') || null,
        description: params.get('error_description')?.trim() || null,
      };
    }
  }
  return null;
}

/** The query and fragment without the error's parameters (anything else stays). */
export function withoutAuthRedirectError(search: string, hash: string): { search: string; hash: string } {
  const query = paramsOf(search, '?');
  const fragment = paramsOf(hash, '#');
  // A fragment that is not parameters (an anchor) is left as it is.
  const fragmentIsParams = hash.includes('=');
  for (const key of ERROR_KEYS) {
    query.delete(key);
    if (fragmentIsParams) fragment.delete(key);
  }
  const nextSearch = query.toString();
  const nextHash = fragmentIsParams ? fragment.toString() : hash.replace(/^#/, '');
  return { search: nextSearch ? `?${nextSearch}` : '', hash: nextHash ? `#${nextHash}` : '' };
}

/** What the server's auth codes mean to the user; any other code shows the server's own description. */
const MESSAGES: Record<string, string> = {
  identity_already_exists: 'This account is already linked to another user',
  single_identity_not_deletable: 'This is your only way to sign in, so it cannot be removed. Link another one first.',
  manual_linking_disabled: 'Linking sign-in methods is turned off on this site.',
  identity_not_found: 'That sign-in method is no longer linked to your account.',
  bad_oauth_state: 'That sign-in took too long or was started elsewhere. Please try again.',
  bad_oauth_callback: 'That sign-in took too long or was started elsewhere. Please try again.',
  flow_state_expired: 'That sign-in took too long. Please try again.',
  flow_state_not_found: 'That sign-in took too long or was started elsewhere. Please try again.',
};

export const SOCIAL_SIGN_IN_FAILED = 'Signing in with that provider did not work. Please try again.';

/** The error in the user's words: a known code's sentence, else the server's description, else `fallback`. */
export function authErrorMessage(
  { code, error, description }: Partial<AuthRedirectError>,
  fallback = SOCIAL_SIGN_IN_FAILED,
): string {
  if (code && MESSAGES[code]) return MESSAGES[code];
  // The user turned the provider's request down (or the provider refused it).
  if (error === 'access_denied' && !description) return 'Sign-in was cancelled at the provider.';
  return description || fallback;
}
