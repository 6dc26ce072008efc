/**
 * The AI Photo Editor's Save keeps the original (issue 24, item 6): a new
 * photo is stored as taken and scored from it, with the edit attached; a
 * photo opened from My Photos is updated, never saved a second time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { expectToast, getPhoto, savePhotoFile, type SavedPhoto } from '../support/edits';
import { ARTIFACTS_DIR } from '../support/paths';
import { openEditorWithTrial, useFreeTrial } from '../support/premium';
import { ASTRONAUT, signUp, useSession, type TestAccount } from '../support/score';

async function photosOf(request: APIRequestContext, account: TestAccount): Promise<SavedPhoto[]> {
  const response = await request.get('/api/v1/photos', { headers: { Authorization: `Bearer ${account.accessToken}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as SavedPhoto[];
}

/** The server's score of the untouched astronaut, as /results shows it. */
async function originalScore(request: APIRequestContext): Promise<number> {
  const response = await request.post('/api/v1/analyses/face', {
    multipart: { image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { score: number }).score;
}

const fmt = (score: number) => `${score.toFixed(1)}/10`;

test.describe('saving in the AI photo editor', () => {
  for (const viewport of viewports) {
    test(`keeps the original and its score, and updates a photo from My Photos, at ${viewport.name}`, async ({ page: first, browser, baseURL, request }) => {
      // Two editor sessions, two edits and two saves on a loaded machine.
      test.slow();
      let page = first;
      await page.setViewportSize(viewport.size);
      const expected = await originalScore(request);

      // A new upload, edited and saved: one photo, the original's score, the edit beside it.
      const ada = await signUp(request);
      await useSession(page, ada);
      await openEditorWithTrial(page);
      await page.getByTestId('editor-input').setInputFiles(ASTRONAUT);
      await page.getByRole('button', { name: 'Retouch' }).click();
      await expectToast(page, 'Photo edited! 4 free edits remaining.');
      await page.getByRole('button', { name: 'Save' }).click();
      await expectToast(page, 'Photo saved to your dashboard!');
      await expect(page.getByTestId('editor-score')).toContainText(fmt(expected));
      const [saved, ...more] = await photosOf(request, ada);
      expect(more).toHaveLength(0);
      expect(saved!.score).toBe(expected);
      expect(saved!.edited_image_url).toBeTruthy();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'editor-saved.png'), fullPage: true, animations: 'disabled' });

      // A saved photo opened from My Photos, edited and saved: still one photo, its score kept.
      // Another person on another device (the editor's free trial is per browser).
      const context = await browser.newContext({ baseURL, viewport: viewport.size });
      page = await context.newPage();
      const bob = await signUp(request);
      const photo = await savePhotoFile(request, bob, ASTRONAUT);
      expect(photo.score).toBe(expected);
      await useSession(page, bob);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'My Photos (1)' })).toBeVisible();
      await page.getByRole('button', { name: new RegExp(`^Edit your ${fmt(photo.score).replace('/', '\\/')} photo`) }).click();
      await expect(page).toHaveURL(/\/editor$/);
      await useFreeTrial(page);
      await expect(page.getByTestId('editor-image')).toHaveAttribute('src', /^\/media\//);
      await page.getByRole('button', { name: 'Retouch' }).click();
      await expectToast(page, 'Photo edited! 4 free edits remaining.');
      await page.getByRole('button', { name: 'Save' }).click();
      await expectToast(page, 'Photo saved to your dashboard!');
      await expect(page.getByTestId('editor-score')).toContainText(fmt(photo.score));
      const photos = await photosOf(request, bob);
      expect(photos.map((p) => p.id)).toEqual([photo.id]);
      const updated = await getPhoto(request, bob, photo.id);
      expect(updated.score).toBe(photo.score);
      expect(updated.edited_image_url).toBeTruthy();
      expect(updated.original_image_url.split('?')[0]).toBe(photo.original_image_url.split('?')[0]);

      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'My Photos (1)' })).toBeVisible();
      await expect(page.getByTestId('photo-card').getByText('Edited')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'dashboard-after-editor-save.png'), fullPage: true, animations: 'disabled' });
      await context.close();
    });
  }
});
