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

export function createQueryClient() {
  const onError = (error: unknown) => {
    if (isInsufficientAal(error)) askForSecondFactor();
  };
  return new QueryClient({
    defaultOptions: queryConfig,
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
  });
}
