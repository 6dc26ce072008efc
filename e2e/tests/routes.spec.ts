import path from 'node:path';
import { expect, seriousAxeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { appRoutes, unknownRoute, type AppRoute } from '../support/routes';
import type { Page } from '@playwright/test';

async function checkPage(page: Page, route: AppRoute, viewportName: string) {
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeAttached();
  await page.waitForLoadState('networkidle');

  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.screenshot({
    path: path.join(ARTIFACTS_DIR, 'screenshots', viewportName, `${route.name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    for (const route of appRoutes) {
      test(`${route.path} renders with one h1, no console errors and no serious axe violations`, async ({
        page,
      }) => {
        const response = await page.goto(route.path);
        expect(response?.status()).toBe(200);
        await checkPage(page, route, viewport.name);
      });
    }

    test.describe('an unknown path', () => {
      // The server answers an unknown path with the app and status 404, and
      // Chromium reports that status of the document on the console.
      test.use({ allowedConsoleErrors: [/status of 404/] });

      test('shows the not-found page, with no other console errors and no serious axe violations', async ({
        page,
      }) => {
        const warnings: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'warning') warnings.push(message.text());
        });
        await page.goto(unknownRoute.path);
        await expect(page.getByText('404', { exact: true })).toBeVisible();
        await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
        await expect(page.getByRole('main').getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
        await checkPage(page, unknownRoute, viewport.name);
        expect(warnings).toContain(
          `404 Error: User attempted to access non-existent route: ${unknownRoute.path}`,
        );
      });
    });
  });
}
