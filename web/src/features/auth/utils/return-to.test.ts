import { describe, expect, it } from 'vitest';
import { signInPathFor } from '@/config/paths';
import { afterSignInPath, safeReturnTo } from './return-to';

describe('where signing in leads', () => {
  it('goes to /dashboard by default', () => {
    expect(afterSignInPath('', null)).toBe('/dashboard');
  });

  it('follows ?returnTo= first, then the router state', () => {
    expect(afterSignInPath('?returnTo=%2Fupload', { returnTo: '/account' })).toBe('/upload');
    expect(afterSignInPath('', { returnTo: '/account' })).toBe('/account');
  });

  it('keeps the query of the page it returns to', () => {
    expect(afterSignInPath(`?returnTo=${encodeURIComponent('/dashboard?sort=rating')}`, null)).toBe(
      '/dashboard?sort=rating',
    );
  });

  it('never leaves the site nor loops back to /auth', () => {
    for (const value of ['https://evil.example', '//evil.example', '/\\evil.example', 'dashboard', '/auth', '/auth?x=1', 42]) {
      expect(safeReturnTo(value)).toBeNull();
    }
    expect(afterSignInPath('?returnTo=https%3A%2F%2Fevil.example', null)).toBe('/dashboard');
  });

  it('builds the sign-in link with the way back', () => {
    expect(signInPathFor('/user-dashboard')).toBe('/auth?returnTo=%2Fuser-dashboard');
  });
});
