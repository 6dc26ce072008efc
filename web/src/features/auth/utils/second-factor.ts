import type { SessionClient } from '@/lib/auth-client';

/**
 * True when the user has a verified second factor but this session has not
 * used it yet (aal1 now, aal2 possible). auth-js reads this from the token
 * and the stored user, without a request.
 */
export async function needsSecondFactor(client: SessionClient): Promise<boolean> {
  const { data, error } = await client.mfa.getAuthenticatorAssuranceLevel();
  if (error || !data) return false;
  return data.currentLevel === 'aal1' && data.nextLevel === 'aal2';
}
