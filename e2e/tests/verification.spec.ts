/**
 * The verification flow: a user asks for the badge, an admin approves it
 * with notes, and the user sees "You're Verified!" and the badge on the user
 * dashboard; the decision is on the admin audit page. Screenshots at 375 and 1280 px with axe checks.
 */
import { grantAdmin } from '../support/admin';
import { expect, test, viewports } from '../support/fixtures';
import { signUp, useSession } from '../support/score';
import { shoot } from '../support/screenshots';

test('from the request to the badge', async ({ browser, request }) => {
  const name = `Ada ${Date.now().toString(36)}`;
  const user = await signUp(request);
  const page = await (await browser.newContext()).newPage();
  await useSession(page, user);
  await page.goto('/request-verification');
  for (const viewport of viewports) {
    await page.setViewportSize(viewport.size);
    await shoot(page, viewport.name, 'request-verification-form');
  }
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Why should you be verified?').fill('People copy my photos.');
  await page.getByLabel('Instagram Handle').fill('@ada.l');
  await page.getByRole('button', { name: 'Submit Verification Request' }).click();
  await expect(page.getByText("Verification request submitted! We'll review it soon.")).toBeVisible();
  await expect(page.getByTestId('verification-request')).toContainText('pending');

  const admin = await signUp(request);
  await grantAdmin(admin.email);
  const adminPage = await (await browser.newContext()).newPage();
  await useSession(adminPage, admin);
  await adminPage.goto('/admin/verification');
  const card = adminPage.getByRole('listitem', { name });
  await expect(card).toBeVisible();
  for (const viewport of viewports) {
    await adminPage.setViewportSize(viewport.size);
    await shoot(adminPage, viewport.name, 'admin-verification');
  }
  await card.getByLabel('Admin Notes').fill('Checked the Instagram.');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(adminPage.getByText('Verification request approved!')).toBeVisible();
  await expect(card).toContainText('approved');

  // The decision is on the admin audit page, with before and after.
  await adminPage.goto('/admin/audit');
  const decision = adminPage.getByTestId('audit-entry').filter({ hasText: 'Verification request approved' }).first();
  await expect(decision).toContainText(`by ${admin.email}`);
  await expect(decision).toContainText('pending → approved');
  for (const viewport of viewports) {
    await adminPage.setViewportSize(viewport.size);
    await shoot(adminPage, viewport.name, 'admin-audit');
  }

  await page.reload();
  await expect(page.getByTestId('verified')).toContainText("You're Verified!");
  await page.goto('/user-dashboard');
  await expect(page.getByTestId('verified-badge')).toHaveText('Verified');
  await expect(page.getByRole('link', { name: 'Get Verified' })).toHaveCount(0);
});
