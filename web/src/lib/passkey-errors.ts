/**
 * What to tell a person when a passkey or security-key step fails: `null`
 * when they cancelled the browser's prompt themselves (nothing went wrong),
 * else the server's or the browser's refusal in plain words.
 */
export function passkeyErrorMessage(error: unknown, fallback: string): string | null {
  const record = error && typeof error === 'object' ? (error as { name?: unknown; code?: unknown; message?: unknown }) : {};
  const name = typeof record.name === 'string' ? record.name : '';
  const code = typeof record.code === 'string' ? record.code : '';
  // The prompt closed without a choice (Cancel, Escape, a timeout): the browser says NotAllowedError.
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return null;
  switch (code) {
    case 'webauthn_credential_exists':
    case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
      return 'This passkey is already on your account.';
    case 'too_many_passkeys':
      return 'You have as many passkeys as an account can hold. Remove one to add another.';
    case 'insufficient_aal':
      return 'This needs a sign-in verified with your second factor. Sign out, sign in again with it, then try again.';
    case 'webauthn_verification_failed':
      return 'That passkey could not be used. If you removed it from your account, sign in another way.';
    case 'webauthn_challenge_expired':
    case 'webauthn_challenge_not_found':
      return 'That took too long. Please try again.';
    case 'passkey_disabled':
      return 'Passkeys are not available right now. Please sign in another way.';
    case 'mfa_verification_failed':
      return 'Your security key could not be verified. Please try again.';
    default:
      break;
  }
  if (name === 'AuthApiError' && typeof record.message === 'string' && record.message.trim()) return record.message;
  return fallback;
}
