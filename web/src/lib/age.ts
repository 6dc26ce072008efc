import { z } from '@/lib/zod';

/** The age from which the community features open (the server's `values::birth::ADULT_AGE`). */
export const ADULT_AGE = 18;

/** Full years between `born` and `today`, both `YYYY-MM-DD` (a 29 February birthday counts on 1 March). */
export function ageOn(born: string, today: string): number {
  const [by, bm, bd] = born.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  let years = ty - by;
  if (tm < bm || (tm === bm && td < bd)) years -= 1;
  return years;
}

/** Today in UTC as `YYYY-MM-DD`, as the server counts it. */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export const UNDERAGE_MESSAGE =
  "Sorry, you need to be 18 or older to use PrettyScore's community. Nothing you entered has been kept.";

/**
 * A date of birth as the server takes it: `YYYY-MM-DD` (a date input's
 * value), a real day, not in the future, not before 1900. Whether the
 * person is an adult is asked separately, so a minor gets the kind refusal,
 * not a form error.
 */
export const dateOfBirthField = z
  .string()
  .min(1, 'Please enter your date of birth')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter your date of birth as YYYY-MM-DD')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'Please enter a real date')
  .refine((value) => value <= todayIso(), 'Your date of birth cannot be in the future')
  .refine((value) => value >= '1900-01-01', 'Please check the year of your date of birth');

export function isAdult(born: string, today = todayIso()): boolean {
  return ageOn(born, today) >= ADULT_AGE;
}
