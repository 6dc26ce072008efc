import type { Session } from '@supabase/auth-js';
import { describe, expect, it } from 'vitest';
import { servesApi } from './session';

function sessionWith(aal: string, factors: { status: string }[]): Session {
  const payload = btoa(JSON.stringify({ aal })).replace(/=+$/, '');
  return {
    access_token: `header.${payload}.signature`,
    user: { factors },
  } as unknown as Session;
}

describe('servesApi', () => {
  it('serves any session of a user without a verified authenticator', () => {
    expect(servesApi(sessionWith('aal1', []))).toBe(true);
    expect(servesApi(sessionWith('aal1', [{ status: 'unverified' }]))).toBe(true);
  });

  it('needs aal2 once the user has a verified authenticator', () => {
    expect(servesApi(sessionWith('aal1', [{ status: 'verified' }]))).toBe(false);
    expect(servesApi(sessionWith('aal2', [{ status: 'verified' }]))).toBe(true);
  });

  it('does not serve a token it cannot read', () => {
    const session = { access_token: 'garbage', user: { factors: [{ status: 'verified' }] } } as unknown as Session;
    expect(servesApi(session)).toBe(false);
  });
});
