/**
 * The admin pages mirror the server's answer to GET /api/v1/admin/access:
 * signed out they go to sign in, a user without the admin role is sent home
 * with the page's message, and an admin sees them.
 */
import path from 'node:path';
import { grantAdmin } from '../support/admin';
import { expect, seriousAxeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { signUp, useSession } from '../support/score';

const adminPages = [
  { name: 'admin-partners', path: '/admin/partners', title: 'Partner Management', refusal: 'Access denied: Admin only' },
  { name: 'admin-payouts', path: '/admin/payouts', title: 'Payouts Management', refusal: 'Access denied: Admin only' },
  { name: 'admin-verification', path: '/admin/verification', title: 'Verification Requests', refusal: 'Admin access required' },
  { name: 'admin-leaderboard', path: '/admin/leaderboard', title: 'Leaderboard Moderation', refusal: 'Access denied: Admin only' },
];

test.describe('the admin pages', () => {
  for (const page of adminPages) {
    test(`signed out, ${page.path} goes to sign in and keeps the way back`, async ({ page: tab }) => {
      await tab.goto(page.path);
      await expect(tab).toHaveURL(new RegExp(`/auth\\?returnTo=${encodeURIComponent(page.path)}$`));
    });
  }

  test.describe('for a user without the admin role', () => {
    // Chromium reports the server's 403 on the console.
    test.use({ allowedConsoleErrors: [/status of 403/] });

    test('each page says why and goes home, as the server answers', async ({ page, request }) => {
      const account = await signUp(request);
      await useSession(page, account);
      const refused = await request.get('/api/v1/admin/access', { headers: { Authorization: `Bearer ${account.accessToken}` } });
      expect(refused.status()).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'admin_only', message: 'Access denied: Admin only' });
      for (const admin of adminPages) {
        await page.goto(admin.path);
        await expect(page.locator('[data-sonner-toast]').filter({ hasText: admin.refusal })).toBeVisible();
        await expect(page).toHaveURL(/\/$/);
        await expect(page.getByRole('heading', { level: 1, name: admin.title })).toHaveCount(0);
      }
    });
  });

  for (const viewport of viewports) {
    test(`an admin sees every admin page at ${viewport.name}, with no serious axe violations`, async ({ page, request }) => {
      const account = await signUp(request);
      await grantAdmin(account.email);
      await useSession(page, account);
      await page.setViewportSize(viewport.size);
      for (const admin of adminPages) {
        await page.goto(admin.path);
        await expect(page.getByRole('heading', { level: 1, name: admin.title })).toBeVisible();
        await expect(page).toHaveURL(new RegExp(`${admin.path}$`));
        await page.waitForLoadState('networkidle');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.screenshot({
          path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, `${admin.name}-as-admin.png`),
          fullPage: true,
          animations: 'disabled',
        });
      }
    });
  }
});
