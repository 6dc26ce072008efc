/**
 * The version and date of the terms of service and community guidelines
 * (issue 41). The server's `community.terms_version` names the version in
 * force (GET /api/v1/terms); change both with the pages' text, and every
 * signed-in user accepts the new version before the community features
 * open again.
 */
export const TERMS_VERSION = '1.0';
/** When this version took effect. */
export const TERMS_DATE = '2026-12-08';
/** The privacy policy's own date (it is not accepted, only read). */
export const PRIVACY_DATE = '2026-12-08';

/** `2026-12-08` as "December 8, 2026". */
export function formatLegalDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
