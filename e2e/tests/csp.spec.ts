import { expect, test } from '../support/fixtures';
import { violations, watchViolations } from '../support/csp';

/**
 * Every page of the app must work under the server's Content-Security-Policy:
 * tests/routes.spec.ts visits each route (and the not-found page) at both
 * sizes with support/csp.ts watching. (The console guard of
 * support/fixtures.ts also fails a test on the console error each violation
 * logs, in every other spec.) Here: the API docs, which are not the app.
 */
test('the API docs (Swagger UI) render the document with no violation', async ({ page }) => {
  await watchViolations(page);
  const response = await page.goto('/api/docs/');
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { name: /PrettyScore API/ })).toBeVisible();
  await expect(page.getByText('/api/v1/photos').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await violations(page)).toEqual([]);
});
