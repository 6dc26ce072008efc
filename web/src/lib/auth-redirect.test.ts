import { describe, expect, it } from 'vitest';
import { authErrorMessage, readAuthRedirectError, SOCIAL_SIGN_IN_FAILED, withoutAuthRedirectError } from './auth-redirect';

const unverified = 'Unverified email with test. A confirmation email has been sent to your test email';

describe('readAuthRedirectError', () => {
  it('reads GoTrue’s error from the query, or else from the fragment', () => {
    const query = `?returnTo=%2Fupload&error=access_denied&error_code=provider_email_needs_verification&error_description=${encodeURIComponent(unverified).replace(/%20/g, '+')}`;
    expect(readAuthRedirectError(query, '')).toEqual({
      error: 'access_denied',
      code: 'provider_email_needs_verification',
      description: unverified,
    });
    expect(readAuthRedirectError('?returnTo=%2Fupload', '#error=server_error&error_description=Nope')).toEqual({
      error: 'server_error',
      code: null,
      description: 'Nope',
    });
  });

  it('is null without one', () => {
    expect(readAuthRedirectError('?returnTo=%2Fupload&code=abc', '#section')).toBeNull();
    expect(readAuthRedirectError('', '')).toBeNull();
  });
});

describe('withoutAuthRedirectError', () => {
  it('drops the error from the query and the fragment and keeps the rest', () => {
    expect(
      withoutAuthRedirectError(
        '?returnTo=%2Fupload&error=server_error&error_code=x&error_description=Nope',
        '#error=server_error&error_code=x&error_description=Nope',
      ),
    ).toEqual({ search: '?returnTo=%2Fupload', hash: '' });
    expect(withoutAuthRedirectError('?error=a', '#error=a&keep=1')).toEqual({ search: '', hash: '#keep=1' });
  });

  it('leaves an anchor alone', () => {
    expect(withoutAuthRedirectError('?error=a', '#top')).toEqual({ search: '', hash: '#top' });
  });
});

describe('authErrorMessage', () => {
  it('says known codes in the user’s words', () => {
    expect(authErrorMessage({ code: 'identity_already_exists', description: 'Identity is already linked to another user' })).toBe(
      'This account is already linked to another user',
    );
    expect(authErrorMessage({ code: 'single_identity_not_deletable' })).toMatch(/only way to sign in/);
    expect(authErrorMessage({ code: 'manual_linking_disabled' })).toBe('Linking sign-in methods is turned off on this site.');
  });

  it('shows the server’s own description otherwise, and a fallback without one', () => {
    expect(authErrorMessage({ error: 'server_error', code: 'provider_email_needs_verification', description: unverified })).toBe(unverified);
    expect(authErrorMessage({ error: 'access_denied', description: null })).toBe('Sign-in was cancelled at the provider.');
    expect(authErrorMessage({ error: 'server_error', description: null })).toBe(SOCIAL_SIGN_IN_FAILED);
    expect(authErrorMessage({}, 'Could not unlink.')).toBe('Could not unlink.');
  });
});
