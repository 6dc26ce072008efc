import { describe, expect, it } from 'vitest';
import { passkeyErrorMessage } from './passkey-errors';

const apiError = (code: string, message = 'server words') => Object.assign(new Error(message), { name: 'AuthApiError', code });

describe('passkeyErrorMessage', () => {
  it('is quiet when the person cancelled the prompt', () => {
    expect(passkeyErrorMessage(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }), 'x')).toBeNull();
    expect(passkeyErrorMessage({ name: 'AbortError' }, 'x')).toBeNull();
  });

  it('says the server’s refusals in plain words', () => {
    expect(passkeyErrorMessage(apiError('webauthn_credential_exists'), 'x')).toBe('This passkey is already on your account.');
    expect(passkeyErrorMessage(apiError('too_many_passkeys'), 'x')).toMatch(/Remove one/);
    expect(passkeyErrorMessage(apiError('insufficient_aal'), 'x')).toMatch(/second factor/);
    expect(passkeyErrorMessage(apiError('webauthn_verification_failed'), 'x')).toMatch(/could not be used/);
  });

  it('passes other server messages on and falls back for the rest', () => {
    expect(passkeyErrorMessage(apiError('something_new', 'Something new happened'), 'fallback')).toBe('Something new happened');
    expect(passkeyErrorMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
    expect(passkeyErrorMessage(undefined, 'fallback')).toBe('fallback');
  });
});
