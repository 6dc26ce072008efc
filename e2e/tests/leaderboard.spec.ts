/**
 * The leaderboard walk: A puts an entry forward, sees it pending on My
 * Photos, an admin approves it on /admin/leaderboard, and it shows on
 * /leaderboard with its rank and the server's contact price; the monthly
 * contest takes a photo with the attestation. Screenshots at 375 and 1280
 * px with axe checks.
 */
import fs from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { grantAdmin } from '../support/admin';
import { expect, test, viewports } from '../support/fixtures';
import { ASTRONAUT, signUp, useSession, type TestAccount } from '../support/score';
import { shoot } from '../support/screenshots';

async function saveEntry(request: APIRequestContext, account: TestAccount, fields: Record<string, string>) {
  const response = await request.post('/api/v1/photos', {
    headers: { Authorization: `Bearer ${account.accessToken}` },
    multipart: {
      image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) },
      ...fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; score: number };
}

test.describe('the leaderboard', () => {
  test('an entry waits for an admin, then shows with its rank and contact price', async ({ browser, request }) => {
    const name = `Eileen ${Date.now().toString(36)}`;
    const owner = await signUp(request);
    const photo = await saveEntry(request, owner, { public_listing: 'true', display_name: name, bio: 'Astronaut' });

    const ownerPage = await (await browser.newContext()).newPage();
    await useSession(ownerPage, owner);
    await ownerPage.goto('/dashboard');
    await expect(ownerPage.getByTestId('listing-status').first()).toHaveText('Leaderboard: pending. Admins will verify your entry soon.');
    await ownerPage.goto('/leaderboard');
    await expect(ownerPage.getByRole('heading', { level: 1, name: 'Global Leaderboard' })).toBeVisible();
    await expect(ownerPage.getByText(name)).toHaveCount(0);

    const admin = await signUp(request);
    await grantAdmin(admin.email);
    const adminPage = await (await browser.newContext()).newPage();
    await useSession(adminPage, admin);
    for (const viewport of viewports) {
      await adminPage.setViewportSize(viewport.size);
      await adminPage.goto('/admin/leaderboard');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Leaderboard Moderation' })).toBeVisible();
      await expect(adminPage.getByTestId('moderation-entry').filter({ hasText: name })).toBeVisible();
      await shoot(adminPage, viewport.name, 'admin-leaderboard-as-admin');
    }
    const card = adminPage.getByTestId('moderation-entry').filter({ hasText: name });
    await expect(card).toContainText(owner.email);
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect(adminPage.getByText('Entry approved')).toBeVisible();

    // The public page, signed out: rank, name, score and the server's price.
    const visitor = await (await browser.newContext()).newPage();
    const listing = await (await request.get('/api/v1/leaderboard?limit=100')).json();
    const entry = (listing.entries as { photo_id: string; rank: number; contact_fee: number }[]).find((e) => e.photo_id === photo.id)!;
    expect(entry.contact_fee).toBe(Math.max(1000 - (entry.rank - 1) * 50, 100));
    for (const viewport of viewports) {
      await visitor.setViewportSize(viewport.size);
      await visitor.goto('/leaderboard');
      const shown = visitor.getByTestId('leaderboard-entry').filter({ hasText: name });
      await expect(shown).toBeVisible();
      await expect(shown.getByTestId('entry-rank')).toHaveText(`#${entry.rank}`);
      await expect(shown.getByTestId('entry-score')).toHaveText(`${photo.score.toFixed(1)}/10`);
      await expect(shown.getByRole('button', { name: `Contact · $${entry.contact_fee.toLocaleString('en-US')}, ${name}` })).toBeVisible();
      // The photos load lazily: other walks' entries may put this one below the fold.
      await shown.scrollIntoViewIfNeeded();
      await expect(shown.getByRole('img')).toHaveJSProperty('complete', true);
      await shoot(visitor, viewport.name, 'leaderboard-with-entries');
    }
    await visitor.getByTestId('leaderboard-entry').filter({ hasText: name }).getByRole('button', { name: /^Contact/ }).click();
    await expect(visitor.getByText('Please sign in to contact contestants')).toBeVisible();
    // Signing in comes back to this entry with its Contact dialog open.
    await expect(visitor).toHaveURL(`/auth?returnTo=${encodeURIComponent(`/leaderboard?contactEntry=${photo.id}`)}`);

    // The owner sees it listed, without a Contact button on their own entry.
    await ownerPage.goto('/leaderboard');
    const own = ownerPage.getByTestId('leaderboard-entry').filter({ hasText: name });
    await expect(own.getByText('Your entry')).toBeVisible();
    await expect(own.getByRole('button', { name: /^Contact/ })).toHaveCount(0);
  });

  test('the monthly contest takes one of the user’s photos with the attestation', async ({ page, request }) => {
    const account = await signUp(request);
    await saveEntry(request, account, {});
    await useSession(page, account);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await page.goto('/global-ranking');
      await expect(page.getByRole('heading', { level: 1, name: 'Win $50,000' })).toBeVisible();
      await expect(page.getByTestId('time-left')).toContainText('left');
      await shoot(page, viewport.name, 'global-ranking-signed-in');
    }
    await page.getByRole('button', { name: 'Submit to Global Ranking' }).click();
    await expect(page.getByText('Please select a photo to submit')).toBeVisible();
    // The photo itself is the choice (its radio button is visually hidden).
    await page.locator('label').filter({ has: page.getByRole('radio') }).first().click();
    await expect(page.getByRole('radio').first()).toBeChecked();
    await page.getByLabel('Display name').fill('Contestant');
    await page.getByLabel(/I am 18 years or older/).check();
    await page.getByLabel(/original photo of myself/).check();
    await page.getByRole('button', { name: 'Submit to Global Ranking' }).click();
    await expect(page.getByText('Your photo was submitted! Admins will verify your entry soon.')).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByTestId('listing-status').first()).toContainText('pending');
  });
});
