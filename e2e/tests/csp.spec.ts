import { expect, test } from '../support/fixtures';
import { appRoutes, unknownRoute } from '../support/routes';
import type { Page } from '@playwright/test';

/**
 * The server sends a Content-Security-Policy on every response (no inline
 * script, no framing). Every page of the app, and the API docs, must work
 * under it: Chromium reports each blocked script, style, image or request
 * as a `securitypolicyviolation` event, collected here. (The console guard
 * of support/fixtures.ts also fails a test on the console error each one
 * logs, in every other spec.)
 */
declare global {
  interface Window {
    __cspViolations: string[];
  }
}

async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
}

async function violations(page: Page) {
  return page.evaluate(() => window.__cspViolations);
}

test.describe('under the Content-Security-Policy', () => {
  for (const route of appRoutes) {
    test(`${route.path} loads with no violation`, async ({ page }) => {
      await watchViolations(page);
      const response = await page.goto(route.path);
      const csp = response?.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response?.headers()['x-content-type-options']).toBe('nosniff');
      await expect(page.locator('h1')).toHaveCount(1);
      await page.waitForLoadState('networkidle');
      expect(await violations(page)).toEqual([]);
    });
  }

  test.describe('an unknown path', () => {
    // Chromium reports the document's 404 status on the console.
    test.use({ allowedConsoleErrors: [/status of 404/] });

    test('shows the not-found page with no violation', async ({ page }) => {
      await watchViolations(page);
      const response = await page.goto(unknownRoute.path);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await expect(page.getByText('404', { exact: true })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await violations(page)).toEqual([]);
    });
  });

  test('the API docs (Swagger UI) render the document with no violation', async ({ page }) => {
    await watchViolations(page);
    const response = await page.goto('/api/docs/');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect(page.getByRole('heading', { name: /PrettyScore API/ })).toBeVisible();
    await expect(page.getByText('/api/v1/photos').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
  });
});
