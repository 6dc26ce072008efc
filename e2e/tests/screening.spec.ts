/**
 * The nudity check in the browser: a shared photo that the classifier flags is
 * held (its page answers 404), the owner's photo dialog says so, and an admin
 * sees the classifier's scores beside it under "Held by screening" and
 * releases it, after which the share page is public.
 *
 * The flagged image is the nude in testdata/screening/. The analysis saves only
 * a photo with a face, so the test saves the astronaut and then puts the nude
 * in the stored file's place, on the server's data directory (shared by global
 * setup), as the API tests do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { grantAdmin } from '../support/admin';
import { savePhotoFile } from '../support/edits';
import { expect, test, viewports } from '../support/fixtures';
import { TESTDATA_DIR } from '../support/paths';
import { shoot } from '../support/screenshots';
import { signUp, useSession, type TestAccount } from '../support/score';
import type { APIRequestContext } from '@playwright/test';

async function heldShare(request: APIRequestContext, owner: TestAccount) {
  const dataDir = process.env.PRETTYSCORE_E2E_DATA_DIR;
  if (!dataDir) throw new Error('this test writes to the data directory of the server that global setup starts');
  const photo = await savePhotoFile(request, owner, path.join(TESTDATA_DIR, 'face/astronaut.png'));
  const key = new URL(photo.original_image_url, 'http://x').pathname.replace(/^\/media\//, '');
  fs.writeFileSync(path.join(dataDir, 'media', key), fs.readFileSync(path.join(TESTDATA_DIR, 'screening/birth-of-venus-detail.png')));
  const response = await request.post(`/api/v1/photos/${photo.id}/share`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
  expect(response.status()).toBe(200);
  const link = (await response.json()) as { share_url: string; held_for_review: boolean; message: string };
  expect(link.held_for_review).toBe(true);
  return { photo, link };
}

for (const viewport of viewports) {
  test(`a flagged share waits for an admin, who sees its scores and releases it, at ${viewport.name}`, async ({ page, request }) => {
    const owner = await signUp(request);
    const { link } = await heldShare(request, owner);
    expect((await request.get(new URL(link.share_url).pathname)).status()).toBe(404);

    const admin = await signUp(request);
    await grantAdmin(admin.email);
    await useSession(page, admin);
    await page.setViewportSize(viewport.size);
    await page.goto('/admin/leaderboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard Moderation' })).toBeVisible();
    await page.getByRole('button', { name: 'Held by screening' }).click();
    const card = page.getByTestId('moderation-entry').filter({ hasText: owner.email });
    await expect(card.getByTestId('screening-scores')).toContainText('Screening: flagged, held for review');
    await expect(card.getByTestId('screening-scores')).toContainText('Hentai81%');
    await shoot(page, viewport.name, 'admin-leaderboard-held-by-screening');

    await card.getByRole('button', { name: 'Release' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Release' }).click();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Photo released' })).toBeVisible();
    await expect(card).toHaveCount(0);
    expect((await request.get(new URL(link.share_url).pathname)).status()).toBe(200);
  });
}
