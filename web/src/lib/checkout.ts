/** Helpers every checkout shares (Premium, the detailed personality analysis, contact requests). */

/**
 * Where a checkout URL leads: a path of this app (the embedded sandbox
 * checkout) is followed inside the app; anything else (Stripe) is a page
 * load.
 */
export function appPathOf(url: string, origin = window.location.origin): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== origin) return null;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/**
 * A fresh idempotency key. crypto.randomUUID needs a secure context; plain
 * http on a LAN address is not one, so the fallback builds a v4 UUID from
 * getRandomValues, which works everywhere.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext !== false) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A promo code as checkout and the partner application send it: trimmed and
 * upper case, or null when blank.
 */
export function normalizePromoCode(value: string | null | undefined): string | null {
  const code = (value ?? '').trim().toUpperCase();
  return code || null;
}
