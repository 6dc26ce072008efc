import { describe, expect, it } from 'vitest';
import { credentialsSchema, emailSchema, newPasswordSchema, totpCodeSchema } from './auth-schema';

/** The first message per field, as the form shows it. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const first: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) first[issue.path.join('.')] ??= issue.message;
  return first;
}

describe('the sign-in and sign-up fields', () => {
  it('require both the email and the password', () => {
    expect(messages(credentialsSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('want a valid email, like the server', () => {
    expect(messages(credentialsSchema.safeParse({ email: 'not-an-email', password: 'secret1' }))).toEqual({
      email: 'Please enter a valid email address',
    });
  });

  it('want a password of at least 6 characters', () => {
    expect(messages(credentialsSchema.safeParse({ email: 'ada@example.com', password: '12345' }))).toEqual({
      password: 'Password must be at least 6 characters',
    });
    expect(credentialsSchema.safeParse({ email: 'ada@example.com', password: '123456' }).success).toBe(true);
  });

  it('trim the email', () => {
    expect(credentialsSchema.parse({ email: '  ada@example.com ', password: '123456' }).email).toBe('ada@example.com');
  });

  it('apply the same rules to the reset request and the new password', () => {
    expect(messages(emailSchema.safeParse({ email: '' }))).toEqual({ email: 'Email is required' });
    expect(messages(newPasswordSchema.safeParse({ password: 'abc' }))).toEqual({
      password: 'Password must be at least 6 characters',
    });
  });

  it('take an authenticator code of exactly 6 digits', () => {
    expect(totpCodeSchema.safeParse({ code: '123456' }).success).toBe(true);
    expect(totpCodeSchema.safeParse({ code: ' 123456 ' }).success).toBe(true);
    for (const code of ['', '12345', '1234567', 'abcdef']) {
      expect(totpCodeSchema.safeParse({ code }).success).toBe(false);
    }
  });
});
