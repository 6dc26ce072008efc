/** The spec's local-storage key for the email of the last sign-in. */
export const LAST_LOGIN_EMAIL_KEY = 'lastLoginEmail';

export function readLastLoginEmail(): string {
  try {
    return window.localStorage.getItem(LAST_LOGIN_EMAIL_KEY) ?? '';
  } catch {
    // Storage can be blocked (private mode, policies): then nothing is prefilled.
    return '';
  }
}

export function saveLastLoginEmail(email: string) {
  try {
    window.localStorage.setItem(LAST_LOGIN_EMAIL_KEY, email.trim());
  } catch {
    // Best effort only.
  }
}
