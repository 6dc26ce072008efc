/**
 * The user dashboard for a free and a premium user: the stats cards come
 * from the server (a saved face photo, the free edits, the membership), the
 * tabs open, Get Verified is offered to the unverified, and members see the
 * Premium Member badge with the feet and hands shortcuts. Sign Out leads to
 * /. Screenshots at 375 and 1280 px with axe checks.
 */
import fs from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, test, viewports } from '../support/fixtures';
import { ASTRONAUT, signUp, useSession, type TestAccount } from '../support/score';
import { shoot } from '../support/screenshots';

const auth = (account: TestAccount) => ({ Authorization: `Bearer ${account.accessToken}` });

/** Premium through the sandbox: a checkout, then Pay (the provider's events do the rest). */
async function makePremium(request: APIRequestContext, account: TestAccount) {
  const user = account.session.user as { id: string };
  const opened = await request.post('/functions/v1/create-checkout', {
    headers: auth(account),
    data: { userId: user.id, email: account.email, type: 'subscription' },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  const { sessionId } = (await opened.json()) as { sessionId: string };
  const paid = await request.post(`/api/v1/billing/sandbox/${sessionId}/pay`, { headers: auth(account), data: {} });
  expect(paid.ok(), await paid.text()).toBe(true);
}

async function saveFace(request: APIRequestContext, account: TestAccount): Promise<number> {
  const response = await request.post('/api/v1/photos', {
    headers: auth(account),
    multipart: { image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { score: number }).score;
}

test.describe('the user dashboard', () => {
  test('a free user: stats, tabs, Get Verified, and Sign Out to /', async ({ page, request }) => {
    const account = await signUp(request);
    const score = await saveFace(request, account);
    await useSession(page, account);
    await page.goto('/user-dashboard');
    await expect(page.getByTestId('stat-photos')).toContainText('1');
    await expect(page.getByTestId('stat-scores')).toContainText(score.toFixed(1));
    await expect(page.getByTestId('stat-edits')).toContainText('5 left');
    await expect(page.getByTestId('stat-membership')).toContainText('Free');
    await expect(page.getByRole('link', { name: 'Get Verified' })).toHaveAttribute('href', '/request-verification');
    await expect(page.getByTestId('premium-offer')).toBeVisible();
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'user-dashboard-free');
    }
    await page.getByRole('tab', { name: 'My Photos' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'My Photos (1)' })).toBeVisible();
    await page.getByRole('tab', { name: 'Personality' }).click();
    await expect(page.getByText('No personality results yet')).toBeVisible();
    await page.getByRole('tab', { name: 'Premium' }).click();
    await expect(page.getByTestId('subscription-card')).toBeVisible();

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a premium member: the badge, unlimited edits and the feet and hands shortcuts', async ({ page, request }) => {
    const account = await signUp(request);
    await makePremium(request, account);
    await useSession(page, account);
    await page.goto('/user-dashboard');
    await expect(page.getByTestId('stat-membership')).toContainText('Premium');
    await expect(page.getByTestId('stat-edits')).toContainText('Unlimited');
    const badge = page.getByTestId('premium-member-badge');
    await expect(badge).toHaveText('Premium Member');
    await expect(page.getByRole('link', { name: 'Feet Score' }).first()).toHaveAttribute('href', '/feet-upload');
    await expect(page.getByRole('link', { name: 'Hands Score' }).first()).toHaveAttribute('href', '/hands-upload');
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'user-dashboard-premium');
    }
  });
});
