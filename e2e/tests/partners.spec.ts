/**
 * The partner programme end to end: a user applies, an admin approves them
 * and sets the Pro tier, a visitor in another browser follows the referral
 * link, signs up and buys Premium in the sandbox, the partner's portal shows
 * the conversion at 20% of $9.99 ($2.00), and the admin marks the payout
 * paid. The server runs with a 0-day commission hold (global-setup.ts), so
 * the line is payable at once. Screenshots at 375 and 1280 px with axe checks.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { grantAdmin } from '../support/admin';
import { submitCredentials, uniqueEmail, PASSWORD } from '../support/auth';
import { expectToast } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { upgradeToSandboxCheckout } from '../support/premium';
import { signUp, useSession } from '../support/score';

async function shoot(page: Page, name: string) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport.size);
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, `${name}.png`), fullPage: true, animations: 'disabled' });
  }
}

/** A short code no other run uses: 3-10 upper-case letters and digits. */
function randomCode(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 8)}`.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 10);
}

test('apply, approve at Pro, a referred sign-up buys Premium, the portal shows 20%, and the payout is marked paid', async ({ browser, request }) => {
  // Four browsers, a checkout and its 3 s return on a shared 2-core machine.
  test.slow();
  const code = randomCode('E2E');
  const name = `Partner ${Date.now().toString(36)}`;

  // 1. A signed-in user applies with a custom short code (typed in lower case: the form upper-cases it).
  const partner = await signUp(request);
  const partnerPage = await (await browser.newContext()).newPage();
  await useSession(partnerPage, partner);
  await partnerPage.goto('/partners/apply');
  await expect(partnerPage.getByRole('heading', { level: 1, name: 'Partner Application' })).toBeVisible();
  await partnerPage.getByLabel('Display Name').fill(name);
  await partnerPage.getByLabel('Custom Short Code').pressSequentially(code.toLowerCase());
  await expect(partnerPage.getByLabel('Custom Short Code')).toHaveValue(code);
  await expect(partnerPage.getByTestId('referral-link-preview')).toContainText(`/r/${code}`);
  await shoot(partnerPage, 'partners-apply-filled');
  await partnerPage.getByRole('button', { name: 'Submit Application' }).click();
  await expectToast(partnerPage, "Application submitted! We'll review it shortly.");
  await expect(partnerPage).toHaveURL(/\/partners\/portal$/);
  await expect(partnerPage.getByTestId('partner-status')).toHaveText('PENDING');
  await expect(partnerPage.getByText('Your application is under review')).toBeVisible();
  await expect(partnerPage.getByTestId('referral-link')).toHaveValue(new RegExp(`/r/${code}$`));
  await expect(partnerPage.getByText('No conversions yet. Start sharing your referral link!')).toBeVisible();
  // Opening the application again leads back to the portal, saying why.
  await partnerPage.goto('/partners/apply');
  await expectToast(partnerPage, 'You already have a partner account');
  await expect(partnerPage).toHaveURL(/\/partners\/portal$/);
  await expect(partnerPage.getByTestId('partner-status')).toHaveText('PENDING');

  // 2. An admin approves the application and sets the tier to Pro.
  const admin = await signUp(request);
  await grantAdmin(admin.email);
  const adminPage = await (await browser.newContext()).newPage();
  await useSession(adminPage, admin);
  await adminPage.goto('/admin/partners');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Partner Management' })).toBeVisible();
  const row = adminPage.locator(`[data-testid="partner-row"][data-partner-code="${code}"]`);
  await expect(row).toContainText('PENDING');
  await expect(row).toContainText(partner.email);
  await shoot(adminPage, 'admin-partners');
  await row.getByRole('button', { name: 'Approve' }).click();
  await expectToast(adminPage, 'Partner approved');
  await expect(row).toContainText('APPROVED');
  await row.getByLabel(`Tier for ${name}`).selectOption('pro');
  await expectToast(adminPage, 'Tier updated to pro');
  await expect(row.getByLabel(`Tier for ${name}`)).toHaveValue('pro');
  await expect(row.getByRole('button', { name: 'Suspend' })).toBeVisible();

  await partnerPage.reload();
  await expect(partnerPage.getByTestId('partner-status')).toHaveText('APPROVED');
  await expect(partnerPage.getByTestId('stat-rate')).toContainText('20%');
  await expect(partnerPage.getByTestId('stat-rate')).toContainText('Pro tier');

  // 3. A visitor in a new browser follows the link: 'Redirecting...', then home, with the affiliate cookie.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/r/${code}`);
  await expect(visitor).toHaveURL(/\/$/);
  await expect
    .poll(async () => (await visitorContext.cookies()).find((cookie) => cookie.name === 'affiliate_code')?.value)
    .toBe(code);

  // 4. The visitor signs up and buys Premium in the sandbox.
  await visitor.goto('/auth');
  await visitor.getByRole('tab', { name: 'Sign Up' }).click();
  await submitCredentials(visitor, uniqueEmail('e2e-referred'), PASSWORD, 'Create Account');
  await expect(visitor).toHaveURL(/\/dashboard$/);
  await upgradeToSandboxCheckout(visitor);
  await visitor.getByRole('button', { name: 'Pay $9.99 / month' }).click();
  await expect(visitor).toHaveURL(/\/premium\?success=true$/);
  await expect(visitor).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
  await expect(visitor.getByTestId('premium-member-badge')).toHaveText('Premium Member');

  // 5. The partner's portal shows the conversion: 20% of $9.99, rounded half up to $2.00.
  await expect(async () => {
    await partnerPage.reload();
    await expect(partnerPage.getByTestId('conversion-row')).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const line = partnerPage.getByTestId('conversion-row');
  await expect(line).toContainText('$9.99');
  await expect(line.getByTestId('conversion-commission')).toHaveText('$2.00');
  await expect(partnerPage.getByTestId('stat-conversions')).toContainText('1');
  await expect(partnerPage.getByTestId('stat-earned')).toContainText('$2.00');
  await expect(partnerPage.getByTestId('stat-clicks')).toContainText('1');
  await expect(partnerPage.getByTestId('total-payable')).toContainText('$2.00');
  await shoot(partnerPage, 'partners-portal');

  // 6. The admin pays it out.
  await adminPage.goto('/admin/payouts');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Payouts Management' })).toBeVisible();
  await expect(adminPage.getByRole('heading', { name: 'Partners with Unpaid Conversions' })).toBeVisible();
  const payable = adminPage.getByRole('listitem', { name });
  await expect(payable.getByTestId('unpaid-count')).toHaveText('1');
  await expect(payable.getByTestId('unpaid-amount')).toHaveText('$2.00');
  await shoot(adminPage, 'admin-payouts');
  await payable.getByRole('button', { name: 'Mark as Paid' }).click();
  // It asks first, saying what will happen.
  const confirm = adminPage.getByRole('alertdialog', { name: `Mark ${name}'s payout as paid?` });
  await expect(confirm).toContainText('records a payout of $2.00 for 1 conversion');
  await adminPage.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', '1280x800', 'admin-payouts-confirm.png'), animations: 'disabled' });
  await confirm.getByRole('button', { name: 'Mark as Paid' }).click();
  await expectToast(adminPage, 'Payout marked as sent');
  await expect(confirm).toBeHidden();
  await expect(payable).toHaveCount(0);
  await expect(adminPage.getByRole('link', { name: 'Back to Partners' })).toHaveAttribute('href', '/admin/partners');

  await partnerPage.reload();
  await expect(partnerPage.getByTestId('conversion-row')).toContainText('Paid');
  await expect(partnerPage.getByTestId('total-paid')).toContainText('$2.00');
  await expect(partnerPage.getByTestId('total-payable')).toContainText('$0.00');
});
