import { MutationCache, QueryCache, QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { signInPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';

export const queryConfig = {
  queries: {
    refetchOnWindowFocus: false,
    retry: 1,
    staleTime: 60 * 1000,
  },
} satisfies DefaultOptions;

/** The server's answer to a password-only session of an account with an authenticator app. */
export function isInsufficientAal(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'insufficient_aal';
}

/**
 * Sends the user to /auth, which asks for the authenticator code and then
 * comes back here. Pages behind RequireAuth ask for it in place; this covers
 * a call made from anywhere else.
 */
export function askForSecondFactor() {
  const { pathname, search, hash } = window.location;
  if (pathname === '/auth') return;
  window.location.assign(signInPathFor(`${pathname}${search}${hash}`));
}

/** The community gate's refusals (issue 41): no adult date of birth, terms or confirmed address on file. */
export function isCommunityRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 403 &&
    ['age_required', 'terms_required', 'confirmation_required'].includes(error.code)
  );
}

/** Where the community's questions are asked; it brings the user back to `returnTo`. */
export const COMMUNITY_PATH = '/account/community';

/**
 * Takes the user to the community's questions (date of birth, terms,
 * confirmation) and back to this page afterwards.
 */
export function askToJoinCommunity() {
  const { pathname, search, hash } = window.location;
  if (pathname === COMMUNITY_PATH) return;
  window.location.assign(`${COMMUNITY_PATH}?returnTo=${encodeURIComponent(`${pathname}${search}${hash}`)}`);
}

export function createQueryClient() {
  const onError = (error: unknown) => {
    if (isInsufficientAal(error)) askForSecondFactor();
    else if (isCommunityRefusal(error)) askToJoinCommunity();
  };
  return new QueryClient({
    defaultOptions: queryConfig,
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
  });
}
