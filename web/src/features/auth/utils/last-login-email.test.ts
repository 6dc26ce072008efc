import { describe, expect, it } from 'vitest';
import { LAST_LOGIN_EMAIL_KEY, readLastLoginEmail, saveLastLoginEmail } from './last-login-email';

describe('lastLoginEmail', () => {
  it('is kept in local storage under the spec key', () => {
    expect(readLastLoginEmail()).toBe('');
    saveLastLoginEmail(' ada@example.com ');
    expect(localStorage.getItem(LAST_LOGIN_EMAIL_KEY)).toBe('ada@example.com');
    expect(readLastLoginEmail()).toBe('ada@example.com');
  });
});
