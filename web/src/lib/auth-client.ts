import { AuthClient, type GoTrueClient } from '@supabase/auth-js';
import { env } from '@/config/env';

/**
 * The part of the auth client the app uses. Components depend on this rather
 * than on the concrete class, so tests can hand the SessionProvider a double.
 */
export type SessionClient = Pick<
  GoTrueClient,
  | 'getSession'
  | 'onAuthStateChange'
  | 'signOut'
  | 'signInWithPassword'
  | 'signUp'
  | 'resetPasswordForEmail'
  | 'updateUser'
  | 'reauthenticate'
  | 'mfa'
>;

let client: GoTrueClient | undefined;

/**
 * The one auth client of the app: the official GoTrue client talking to our
 * own server's GoTrue-compatible API under /auth/v1. Created on first use so
 * that merely importing this module (in unit tests, for example) starts no
 * refresh timer. With no stored session it makes no network request.
 */
export function getAuthClient(): GoTrueClient {
  client ??= new AuthClient({
    url: `${window.location.origin}${env.AUTH_PATH}`,
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    flowType: 'pkce',
  });
  return client;
}
