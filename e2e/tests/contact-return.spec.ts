/**
 * A signed-out visitor who presses Contact on a leaderboard entry signs in
 * and comes back to that entry with its Contact dialog open (issue 24,
 * item 2), at 375 and 1280 px with axe.
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { PASSWORD, submitCredentials } from '../support/auth';
import { listedEntry, signUpNamed } from '../support/conversation';
import { expect, seriousAxeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';

/** The entry's card on /leaderboard, paging on until it shows (other walks list entries too). */
async function findEntry(page: Page, name: string): Promise<Locator> {
  await page.goto('/leaderboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Global Leaderboard' })).toBeVisible();
  const card = page.getByTestId('leaderboard-entry').filter({ hasText: name });
  for (let pageNumber = 1; pageNumber <= 50; pageNumber += 1) {
    await expect(page.getByTestId('leaderboard-entry').first()).toBeVisible();
    if (await card.count()) return card;
    const next = page.getByRole('navigation', { name: 'Leaderboard pages' }).getByRole('button', { name: 'Next' });
    if (await next.isDisabled()) break;
    await next.click();
    await expect(page.getByText(`Page ${pageNumber + 1}`)).toBeVisible();
  }
  throw new Error(`${name} is not on the leaderboard`);
}

for (const viewport of viewports) {
  test(`signing in from Contact comes back to the same entry with its dialog open at ${viewport.name}`, async ({ page, request }) => {
    test.slow();
    await page.setViewportSize(viewport.size);
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const contestantName = `Nia ${suffix}`;
    const { photoId } = await listedEntry(request, contestantName);
    const visitor = await signUpNamed(request, `Rex ${suffix}`);

    const card = await findEntry(page, contestantName);
    await card.getByRole('button', { name: new RegExp(`^Contact ${contestantName} for \\$`) }).click();
    await expect(page).toHaveURL(/\/auth\?returnTo=/);
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe(`/leaderboard?contactEntry=${photoId}`);
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await submitCredentials(page, visitor.email, PASSWORD, 'Sign In');

    const dialog = page.getByRole('dialog', { name: `Contact ${contestantName}` });
    await expect(dialog).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'contact-after-sign-in.png'), animations: 'disabled' });

    // Once: closed, it stays closed after a reload.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/leaderboard$/);
    await page.reload();
    await expect(page.getByTestId('leaderboard-entry').first()).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });
}
