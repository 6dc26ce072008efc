/**
 * Hands with the free trial: the gate offers the trial, the server scores a
 * real hand photo (landmarks), the result shows the breakdown and is saved
 * as a hands photo; back on /hands-upload the trial is used and the page
 * offers Premium. A face and a coffee cup on /feet-upload are refused: no feet.
 * Screenshots at 375 and 1280 px with axe checks.
 */
import path from 'node:path';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR, TESTDATA_DIR } from '../support/paths';
import { ASTRONAUT, COFFEE, signUp, useSession } from '../support/score';
import { shoot } from '../support/screenshots';

const HAND = path.join(TESTDATA_DIR, 'hands', 'main_droite_dessus_0.webp');
const NOT_FEET = 'We could not find feet in this photo. Please try another one.';

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

test.describe('a photo without feet', () => {
  // The server's 422 answers show on the console as failed resources.
  test.use({ allowedConsoleErrors: [/status of 422/] });

  test('a face and a coffee cup on /feet-upload are not feet, and the trial stays unused', async ({ page, request }) => {
    const account = await signUp(request);
    await useSession(page, account);
    await page.goto('/feet-upload');
    await page.getByTestId('gate-trial').getByRole('button', { name: 'Use Free Trial' }).click();
    // The message at both sizes, while it shows (the toast goes by itself after a few
    // seconds): the face at the first, the coffee cup at the second.
    for (const [viewport, name, photo] of [
      [viewports[0]!, 'face', ASTRONAUT],
      [viewports[1]!, 'coffee', COFFEE],
    ] as const) {
      await page.setViewportSize(viewport.size);
      await page.getByTestId('body-gallery-input').setInputFiles(photo);
      await expect(page.getByTestId('body-preview')).toBeVisible();
      await page.getByRole('button', { name: 'Get My Score' }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: NOT_FEET });
      await expect(toast).toBeVisible();
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, `feet-refused-${name}.png`), animations: 'disabled' });
      expect(await axeViolations(page)).toEqual([]);
      await expect(page).toHaveURL(/\/feet-upload$/);
      await expect(toast).toHaveCount(0);
    }
    // Nothing was scored, so the trial is still there.
    const access = await request.post('/functions/v1/check-feature-access', {
      headers: { Authorization: `Bearer ${account.accessToken}` },
      data: { featureName: 'feet_scoring' },
    });
    expect(await access.json()).toMatchObject({ hasAccess: true, reason: 'trial_available' });
  });
});
