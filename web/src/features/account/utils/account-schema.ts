import { z } from '@/lib/zod';

/** The server's minimum (auth.password_min_length, floor 6). */
export const PASSWORD_MIN_LENGTH = 6;

export const changePasswordSchema = z
  .object({
    password: z
      .string()
      .min(1, 'Password is required')
      .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
    confirm: z.string().min(1, 'Please repeat the new password'),
  })
  .refine((values) => values.password === values.confirm, {
    path: ['confirm'],
    message: 'Passwords do not match',
  });
export type ChangePasswordForm = z.infer<typeof changePasswordSchema>;

export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});
export type TotpCodeForm = z.infer<typeof totpCodeSchema>;

/** The word a user types to confirm deleting the account. */
export const DELETE_CONFIRMATION = 'DELETE';

/** The provider's (server's) message when there is one, else `fallback`. */
export function messageOf(error: unknown, fallback: string): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}

/** Removing (or adding beside) a verified factor needs a session that used it. */
export function isInsufficientAal(error: unknown): boolean {
  return !!error && typeof error === 'object' && 'code' in error && (error as { code: unknown }).code === 'insufficient_aal';
}
