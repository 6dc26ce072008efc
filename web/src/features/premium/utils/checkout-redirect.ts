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
