import { z } from '@/lib/zod';
import { dateOfBirthField } from '@/lib/age';
import { optionalDisplayNameField } from '@/lib/display-name';

/** The server's rule (auth.password_min_length, floor 6). */
export const PASSWORD_MIN_LENGTH = 6;

export const emailField = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .pipe(z.email('Please enter a valid email address'));

export const passwordField = z
  .string()
  .min(1, 'Password is required')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`);

/** Sign in and sign up take the same fields: an email and a password of 6 or more characters. */
export const credentialsSchema = z.object({ email: emailField, password: passwordField });
export type Credentials = z.infer<typeof credentialsSchema>;

/**
 * Sign up may also take the name shown to others (optional; blank means
 * none), and always asks for the date of birth and the acceptance of the
 * terms and guidelines (issue 41).
 */
export const ageAndTermsSchema = z.object({
  dateOfBirth: dateOfBirthField,
  acceptTerms: z.literal(true, { error: 'Please accept the terms of service and community guidelines' }),
});
export type AgeAndTerms = z.infer<typeof ageAndTermsSchema>;

export const signUpSchema = credentialsSchema.extend({
  displayName: optionalDisplayNameField,
  ...ageAndTermsSchema.shape,
});
export type SignUpValues = z.infer<typeof signUpSchema>;

export const emailSchema = z.object({ email: emailField });
export type EmailForm = z.infer<typeof emailSchema>;

export const newPasswordSchema = z.object({ password: passwordField });
export type NewPasswordForm = z.infer<typeof newPasswordSchema>;

/** An authenticator app's code: 6 digits. */
export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});
export type TotpCodeForm = z.infer<typeof totpCodeSchema>;
