/**
 * Hands with the free trial: the gate offers the trial, the server scores a
 * real hand photo (landmarks), the result shows the breakdown and is saved
 * as a hands photo; back on /hands-upload the trial is used and the page
 * offers Premium. A face on /feet-upload is refused as not feet.
 * Screenshots at 375 and 1280 px with axe checks.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, seriousAxeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR, TESTDATA_DIR } from '../support/paths';
import { ASTRONAUT, signUp, useSession } from '../support/score';

const HAND = path.join(TESTDATA_DIR, 'hands', 'main_droite_dessus_0.webp');

async function shoot(page: Page, viewport: string, name: string) {
  await page.waitForLoadState('networkidle');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`), fullPage: true, animations: 'disabled' });
}

test.describe('feet and hands scores', () => {
  test('hands with the trial, saved, then the upgrade offer', async ({ page, request }) => {
    const account = await signUp(request);
    await useSession(page, account);
    await page.goto('/hands-upload');
    await page.getByTestId('gate-trial').getByRole('button', { name: 'Use Free Trial' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hands Beauty Score' })).toBeVisible();
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'hands-upload');
    }
    await page.getByTestId('body-gallery-input').setInputFiles(HAND);
    await expect(page.getByTestId('body-preview')).toBeVisible();
    await page.getByRole('button', { name: 'Get My Score' }).click();
    await expect(page).toHaveURL(/\/hands-results$/);
    const label = page.getByTestId('body-label');
    await expect(label).toHaveText(/^(Perfect Hands|Exceptional|Beautiful|Very Pretty|Pretty|Lovely)$/);
    await expect(page.getByTestId('body-breakdown')).toContainText('Finger Proportions');
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'hands-results');
    }
    const shown = Number((await page.getByTestId('body-score').textContent())!.replace('out of 10', ''));

    await page.getByRole('button', { name: 'Save Results' }).click();
    await expect(page.getByText('Saved to My Photos!')).toBeVisible();
    const photos = await request.get('/api/v1/photos', { headers: { Authorization: `Bearer ${account.accessToken}` } });
    const saved = (await photos.json()) as { photo_type: string; score: number }[];
    expect(saved.map((p) => [p.photo_type, p.score])).toEqual([['hands', shown]]);

    await page.goto('/hands-upload');
    await expect(page.getByTestId('gate-premium')).toContainText('You have used your free trial of the Hands Score.');
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'hands-upgrade-offer');
    }
  });

});

test.describe('a feet photo that shows a face', () => {
  // The server's 422 answer shows on the console as a failed resource.
  test.use({ allowedConsoleErrors: [/status of 422/] });

  test('a face on /feet-upload is not feet', async ({ page, request }) => {
    const account = await signUp(request);
    await useSession(page, account);
    await page.goto('/feet-upload');
    await page.getByTestId('gate-trial').getByRole('button', { name: 'Use Free Trial' }).click();
    await page.getByTestId('body-gallery-input').setInputFiles(ASTRONAUT);
    await expect(page.getByTestId('body-preview')).toBeVisible();
    await page.getByRole('button', { name: 'Get My Score' }).click();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: /face/i })).toBeVisible();
    await expect(page).toHaveURL(/\/feet-upload$/);
  });
});
