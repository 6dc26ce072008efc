/** The spec's texts for the auth screens (section 8, Auth). */
export const authMessages = {
  signedIn: 'Welcome back!',
  signedUp: 'Account created successfully! Redirecting...',
  signUpFailed: 'An error occurred during signup',
  signInFailed: 'An error occurred during sign in',
  confirmEmail: 'Check your email to confirm your account, then sign in.',
  resetSent: 'Check your email for a reset link',
  passwordUpdated: 'Password updated!',
  mfaFailed: 'That code did not work. Please try again.',
} as const;

/** The provider's (server's) message when there is one, else `fallback`. */
export function messageOf(error: unknown, fallback: string): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}
