/**
 * The admin pages mirror the server's answer to GET /api/v1/admin/access:
 * signed out they go to sign in, a user without the admin role is sent home
 * with the page's message, and an admin sees them.
 */
import path from 'node:path';
import { grantAdmin } from '../support/admin';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
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
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({
          path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, `${admin.name}-as-admin.png`),
          fullPage: true,
          animations: 'disabled',
        });
      }
    });
  }

  test.describe('the Admin links (side menu and account menu)', () => {
    const adminLinks = [
      ['Partner Management', '/admin/partners'],
      ['Payouts', '/admin/payouts'],
      ['Payments', '/admin/payments'],
      ['Leaderboard Moderation', '/admin/leaderboard'],
      ['Opportunity Applications', '/admin/opportunities'],
      ['Verification Requests', '/admin/verification'],
      ['Reports', '/admin/reports'],
      ['Audit Log', '/admin/audit'],
    ];

    for (const viewport of viewports) {
      test(`an admin finds every admin page in both menus at ${viewport.name}, with no serious axe violations`, async ({ page, request }) => {
        const account = await signUp(request);
        await grantAdmin(account.email);
        await useSession(page, account);
        await page.setViewportSize(viewport.size);
        await page.goto('/how-it-works');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

        // The side menu: always shown on a desktop, a sheet behind the header button on a phone.
        const phone = viewport.size.width < 768;
        if (phone) await page.getByRole('button', { name: 'Toggle sidebar' }).click();
        const menu = phone ? page.getByRole('dialog', { name: 'Site menu' }) : page.getByRole('navigation', { name: 'Site menu' });
        const group = menu.getByRole('group', { name: 'Admin' });
        await expect(group.getByRole('link')).toHaveText(adminLinks.map(([title]) => title));
        for (const [title, href] of adminLinks) await expect(group.getByRole('link', { name: title })).toHaveAttribute('href', href!);
        await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'admin-side-menu.png'), fullPage: false, animations: 'disabled' });
        await group.getByRole('link', { name: 'Audit Log' }).click();
        await expect(page).toHaveURL(/\/admin\/audit$/);
        await expect(page.getByRole('heading', { level: 1, name: 'Admin Audit Log' })).toBeVisible();
        // axe reads the page with the menus closed (an open Radix sheet or menu hides the rest
        // of the page from assistive technology, which axe reports for the hidden part).
        await page.waitForLoadState('networkidle');
        expect(await axeViolations(page)).toEqual([]);

        // The account menu.
        await page.getByRole('button', { name: 'Open user menu' }).click();
        const accountMenu = page.getByRole('menu');
        const adminGroup = accountMenu.getByRole('group', { name: 'Admin' });
        await expect(adminGroup.getByRole('menuitem')).toHaveText(adminLinks.map(([title]) => title));
        await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'admin-account-menu.png'), fullPage: false, animations: 'disabled' });
        await adminGroup.getByRole('menuitem', { name: 'Payouts' }).click();
        await expect(page).toHaveURL(/\/admin\/payouts$/);
        await expect(page.getByRole('heading', { level: 1, name: 'Payouts Management' })).toBeVisible();
      });
    }

    test('a user who is not an admin sees no Admin links, and the check logs no refused request', async ({ page, request }) => {
      // No allowedConsoleErrors here: a 403 on every page would fail this test.
      const account = await signUp(request);
      await useSession(page, account);
      await page.setViewportSize(viewports[1]!.size);
      const asked = page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/role'));
      await page.goto('/how-it-works');
      expect(await (await asked).json()).toEqual({ admin: false });
      await expect(page.getByRole('navigation', { name: 'Site menu' }).getByRole('group', { name: 'Account' })).toBeVisible();
      await expect(page.getByRole('group', { name: 'Admin' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Open user menu' }).click();
      await expect(page.getByRole('menu').getByRole('menuitem', { name: 'My Account' })).toBeVisible();
      await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Partner Management' })).toHaveCount(0);
    });
  });
});
