/**
 * The partner programme's code rules (docs/spec-rules.md §5), as the
 * server applies them: the form mirrors them while the user types, the
 * server decides.
 */

export const SHORT_CODE_MIN = 3;
export const SHORT_CODE_MAX = 10;
/** The length of the code the server makes when the field is blank. */
export const AUTO_CODE_LENGTH = 5;

export const INVALID_SHORT_CODE_MESSAGE = 'Short code must be 3-10 alphanumeric characters';
export const SHORT_CODE_TAKEN_MESSAGE = 'This short code is already taken. Please choose another.';

/** Upper case, only letters and digits, at most 10 characters: 'my-code 2!' → 'MYCODE2'. */
export function normalizeShortCode(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, SHORT_CODE_MAX);
}

/** Blank (the server makes one) or 3-10 letters and digits once normalised. */
export function isValidShortCode(value: string): boolean {
  const code = normalizeShortCode(value);
  return code.length === 0 || (code.length >= SHORT_CODE_MIN && code.length <= SHORT_CODE_MAX);
}

/** What the form sends: the normalised code, or null when blank. */
export function shortCodeToSend(value: string): string | null {
  return normalizeShortCode(value) || null;
}

/** The referral link of a code: `{origin}/r/{code}`. */
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/r/${encodeURIComponent(code)}`;
}

export const PROMO_CODE_MAX = 20;
export const INVALID_PROMO_CODE_MESSAGE = 'Promo code must be up to 20 letters, digits, - or _';

/** Blank, or up to 20 letters, digits, `-` and `_` once trimmed (the server's rule). */
export function isValidPromoCode(value: string): boolean {
  const code = value.trim();
  return code.length <= PROMO_CODE_MAX && /^[A-Za-z0-9_-]*$/.test(code);
}

export const DISPLAY_NAME_MAX = 60;
export const DISPLAY_NAME_TOO_LONG_MESSAGE = 'Display name must be at most 60 characters';
