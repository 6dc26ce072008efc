import { z } from '@/lib/zod';

/** The six interest options (docs/spec-rules.md), in the form's order. */
export const INTEREST_OPTIONS = [
  'Fashion Modeling',
  'Commercial Modeling',
  'Brand Partnerships',
  'Social Media Campaigns',
  'Acting & Entertainment',
  'Influencer Collaborations',
] as const;

export const CONTACT_WITHIN_HOURS = 48;
export const APPLICATION_SENT_MESSAGE = `Application submitted! Our team will contact you within ${CONTACT_WITHIN_HOURS} hours.`;
export const ALREADY_APPLIED_MESSAGE = "You've already submitted an application";
export const SUBMIT_FAILED_MESSAGE = 'Failed to submit application. Please try again.';
export const UNEXPECTED_ERROR_MESSAGE = 'An error occurred. Please try again.';
export const SIGN_IN_MESSAGE = 'Please sign in to continue';

const chars = (value: string) => Array.from(value).length;
const E164 = /^\+?[1-9]\d{1,14}$/;
const INSTAGRAM = /^@?[a-zA-Z0-9._]{1,30}$/;

/**
 * The application form, with the spec's rules and exact messages; the server
 * (crates/server/src/opportunities/rules.rs) checks the same rules again.
 * Blank optional fields are sent as absent. There is no address to type: the
 * team answers at the account's verified address, which the server takes
 * from the account (a typed one could be anybody's).
 */
export const applicationSchema = z.object({
  fullName: z
    .string()
    .trim()
    .min(1, 'Full name is required')
    .refine((value) => chars(value) <= 100, { message: 'Full name must be less than 100 characters' }),
  phone: z
    .string()
    .trim()
    .refine((value) => value === '' || E164.test(value), { message: 'Phone must be in E.164 format (e.g., +14155552671)' })
    .transform((value) => value || undefined),
  instagram: z
    .string()
    .trim()
    .refine((value) => value === '' || INSTAGRAM.test(value), {
      message: 'Instagram handle must be 1-30 characters (letters, numbers, dots, underscores)',
    })
    .transform((value) => value || undefined),
  location: z
    .string()
    .trim()
    .min(1, 'Location is required')
    .refine((value) => chars(value) <= 200, { message: 'Location must be less than 200 characters' }),
  bio: z
    .string()
    .trim()
    .refine((value) => chars(value) <= 1000, { message: 'Bio must be less than 1000 characters' })
    .transform((value) => value || undefined),
  interests: z.array(z.enum(INTEREST_OPTIONS)),
  agreeTerms: z.boolean().refine((agreed) => agreed, { message: 'You must agree to the terms' }),
});

export type ApplicationInput = z.input<typeof applicationSchema>;
export type Application = z.output<typeof applicationSchema>;

/** The fields in the form's order: the first one with an error is the one shown. */
export const FIELD_ORDER = ['fullName', 'phone', 'instagram', 'location', 'bio', 'interests', 'agreeTerms'] as const;
export type ApplicationField = (typeof FIELD_ORDER)[number];

export const EMPTY_APPLICATION: ApplicationInput = {
  fullName: '',
  phone: '',
  instagram: '',
  location: '',
  bio: '',
  interests: [],
  agreeTerms: false,
};

/** Which field a server's 422 message is about, by the spec's wording. */
export function fieldOfMessage(message: string): ApplicationField | undefined {
  const lower = message.toLowerCase();
  if (lower.startsWith('full name')) return 'fullName';
  if (lower.startsWith('phone')) return 'phone';
  if (lower.startsWith('instagram')) return 'instagram';
  if (lower.startsWith('location')) return 'location';
  if (lower.startsWith('bio')) return 'bio';
  if (lower.includes('interest')) return 'interests';
  if (lower.includes('terms')) return 'agreeTerms';
  return undefined;
}
