/**
 * The server sends a Content-Security-Policy on every response (no inline
 * script, no framing). Chromium reports each script, style, image or request
 * it blocks as a `securitypolicyviolation` event: `watchViolations` collects
 * them in every document the page loads, `violations` reads them.
 */
import { expect, type Page, type Response } from '@playwright/test';

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

export async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
}

export async function violations(page: Page) {
  return page.evaluate(() => window.__cspViolations);
}

/** The headers every page of the app is sent with. */
export function expectSecurityHeaders(response: Response | null) {
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
}
