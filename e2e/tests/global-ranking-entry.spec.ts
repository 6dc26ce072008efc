/**
 * /global-ranking (issue 24, item 12): a user without photos is sent to
 * /upload and told why; after submitting an entry the page shows it as
 * pending review. At 375 and 1280 px with axe.
 */
import path from 'node:path';
import { savePhotoFile } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { ASTRONAUT, signUp, useSession } from '../support/score';

test('a user without photos is told to save one first; a submitted entry shows as pending review', async ({ page, request }) => {
  test.slow();
  const account = await signUp(request);
  await useSession(page, account);
  await page.goto('/global-ranking');
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Save a scored photo first to enter the contest.' })).toBeVisible();

  await savePhotoFile(request, account, ASTRONAUT);
  await page.goto('/global-ranking');
  await page.locator('fieldset label').first().click();
  await expect(page.getByRole('radio').first()).toBeChecked();
  await page.getByLabel('Display name').fill('Eileen');
  await page.getByLabel(/I am 18 years or older/).check();
  await page.getByLabel(/original photo of myself/).check();
  await page.getByRole('button', { name: 'Submit to Global Ranking' }).click();
  const mine = page.getByRole('region', { name: 'Your entries this month' });
  await expect(mine.getByTestId('my-entry')).toHaveAttribute('data-status', 'pending');
  await expect(mine).toContainText('Pending review');

  // Still there after a reload: it is the server's state, not the page's memory.
  await page.reload();
  await expect(mine.getByTestId('my-entry')).toHaveAttribute('data-status', 'pending');
  for (const viewport of viewports) {
    await page.setViewportSize(viewport.size);
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'global-ranking-entry-pending.png'), fullPage: true, animations: 'disabled' });
  }
});
