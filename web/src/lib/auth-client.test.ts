import { describe, expect, it, vi } from 'vitest';

const constructed = vi.hoisted(() => [] as unknown[]);

vi.mock('@supabase/auth-js', () => ({
  AuthClient: class {
    constructor(options: unknown) {
      constructed.push(options);
    }
  },
}));

describe('getAuthClient', () => {
  it('creates one PKCE auth client for this origin’s /auth/v1 that keeps and refreshes the session', async () => {
    const { getAuthClient } = await import('./auth-client');
    const first = getAuthClient();
    const second = getAuthClient();

    expect(second).toBe(first);
    expect(constructed).toEqual([
      {
        url: `${window.location.origin}/auth/v1`,
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: 'pkce',
      },
    ]);
  });
});
