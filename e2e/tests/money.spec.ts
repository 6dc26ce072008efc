/**
 * Money a requester can trust (issue 42, sections 1 and 4), in the browser:
 *
 * - Two tabs of one requester press "Send and pay" for the same contestant:
 *   both land on the same sandbox checkout; the first Pay holds the fee, the
 *   second is told the checkout is paid already. My Account lists one hold
 *   and the contestant's /earnings one line.
 * - An admin refunds a contact fee whose 75 % share was paid out already:
 *   /admin/payments asks for a reason, the payment is refunded through the
 *   sandbox, and the transfer job takes the share back, so the contestant's
 *   /earnings says Reversed.
 *
 * Screenshots at 375 and 1280 px, with axe. The server's 0-day payout window
 * and 1 s payout interval come from global-setup.ts (see payouts.spec.ts).
 */
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { grantAdmin } from '../support/admin';
import { approvedConversation, fillConversation, findEntry, listedEntry, signUpNamed } from '../support/conversation';
import { expectToast } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { signUp, useSession, type TestAccount } from '../support/score';

/** Every viewport: axe (serious and critical) and a full-page screenshot. */
async function shoot(page: Page, name: string) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport.size);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, `${name}.png`), fullPage: true, animations: 'disabled' });
  }
}

const bearer = (account: TestAccount) => ({ Authorization: `Bearer ${account.accessToken}` });

type Earnings = { lines: { state: string; amountCents: number }[]; totals: { paidCents: number } };

async function earningsOf(request: APIRequestContext, account: TestAccount): Promise<Earnings> {
  const response = await request.get('/api/v1/payouts/earnings', { headers: bearer(account) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Earnings;
}

/** Connects `account`'s sandbox payout account through the API its pages use. */
async function connectPayoutAccount(request: APIRequestContext, account: TestAccount) {
  const link = await request.post('/api/v1/payouts/account', { headers: bearer(account) });
  expect(link.ok(), await link.text()).toBe(true);
  const url = ((await link.json()) as { url: string }).url;
  const id = url.split('/').pop()!;
  const done = await request.post(`/api/v1/payouts/sandbox/accounts/${id}/complete`, { headers: bearer(account) });
  expect(done.ok(), await done.text()).toBe(true);
}

/** Opens the Contact dialog of the entry on `page`, writes, and presses Send and pay; the sandbox checkout's URL. */
async function sendAndPay(page: Page, contestantName: string): Promise<string> {
  const card = await findEntry(page, contestantName);
  await card.getByRole('button', { name: new RegExp(`^Contact · \\$[\\d,]+, ${contestantName}$`) }).click();
  const dialog = page.getByRole('dialog', { name: `Contact ${contestantName}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your message').fill(`Hello ${contestantName}, I would love to book you for a shoot.`);
  await dialog.getByRole('button', { name: /^Send and pay/ }).click();
  await expect(page).toHaveURL(/\/checkout\/sandbox\/[^/]+$/);
  return page.url();
}

test.describe('one contact request holds money once', () => {
  test('two tabs press Send and pay: one checkout, one hold on My Account, one line on /earnings', async ({ browser, request }) => {
    test.slow();
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const contestantName = `Ada ${suffix}`;
    const requesterName = `Ben ${suffix}`;
    const { contestant } = await listedEntry(request, contestantName);
    const requester = await signUpNamed(request, requesterName);

    // Two tabs of the same browser, both signed in as the requester.
    const context = await browser.newContext();
    const first = await context.newPage();
    const second = await context.newPage();
    await useSession(first, requester);
    await useSession(second, requester);

    const firstCheckout = await sendAndPay(first, contestantName);
    const secondCheckout = await sendAndPay(second, contestantName);
    // One open checkout per request: the second tab is sent to the first tab's.
    expect(secondCheckout).toBe(firstCheckout);

    await first.getByRole('button', { name: /^Pay / }).click();
    await expectToast(first, 'Request sent! The contestant has 7 days to answer.');
    // The second tab's checkout is the one just paid: it offers no second Pay.
    await second.reload();
    await expect(second.getByTestId('sandbox-closed')).toContainText('This checkout is already paid.');
    await expect(second.getByRole('button', { name: /^Pay / })).toHaveCount(0);

    // My Account: one hold.
    await first.goto('/account');
    const rows = first.getByTestId('payment-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('On hold');
    await expect(rows.first()).toContainText('Contact request fee');
    await shoot(first, 'money-one-hold-account');

    // The contestant: one line, waiting for the answer.
    const contestantPage = await (await browser.newContext()).newPage();
    await useSession(contestantPage, contestant);
    await contestantPage.goto('/earnings');
    await expect(contestantPage.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    const lines = contestantPage.getByTestId('earnings-line');
    await expect(lines).toHaveCount(1);
    await expect(lines.first().getByTestId('line-status')).toHaveText('Waiting for your answer');
    await shoot(contestantPage, 'money-one-line-earnings');
    expect((await earningsOf(request, contestant)).lines).toHaveLength(1);
  });
});

test.describe('admins put money right', () => {
  test('an admin refunds a contact fee with a reason and the paid share is reversed', async ({ browser, request }) => {
    test.slow();
    const conversation = await approvedConversation(request);
    const { contestant, requester } = conversation;
    // A share is payable only once the contestant has written (issue 42 §2).
    await fillConversation(request, conversation, 2);
    await connectPayoutAccount(request, contestant);
    // The transfer job (every second, 0-day window) sends the 75 % share.
    await expect.poll(async () => (await earningsOf(request, contestant)).lines[0]?.state, { timeout: 60_000 }).toBe('transferred');

    const admin = await signUp(request);
    await grantAdmin(admin.email);
    const page = await (await browser.newContext()).newPage();
    await useSession(page, admin);
    await page.goto('/admin/payments');
    await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
    await page.getByLabel('Payer’s email').fill(requester.email);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByTestId('admin-payment').filter({ hasText: requester.email });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('payment-share')).toHaveText('Payee’s share: paid out');
    await expect(row.getByTestId('payment-status')).toHaveText('Paid');
    await shoot(page, 'admin-payments');

    await page.setViewportSize(viewports[1]!.size);
    await row.getByRole('button', { name: /^Refund/ }).click();
    const dialog = page.getByTestId('refund-dialog');
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole('button', { name: /^Refund \$/ });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Reason (kept in the audit log)').fill('The contestant never answered the requester');
    await shoot(page, 'admin-payments-refund-dialog');
    await confirm.click();
    await expectToast(page, /^Refunded\./);
    await expect(row.getByTestId('payment-status')).toContainText('Refunded');
    await expect(row.getByTestId('payment-refund')).toContainText('The contestant never answered the requester');

    // The transfer job takes the paid share back: reload until it says so.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('admin-payment').filter({ hasText: requester.email }).getByTestId('payment-share')).toHaveText('Payee’s share: taken back', {
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
    await shoot(page, 'admin-payments-refunded');
    const answer = await earningsOf(request, contestant);
    expect(answer.lines[0]?.state).toBe('reversed');
    expect(answer.totals.paidCents).toBe(0);

    // The contestant sees it on /earnings.
    const contestantPage = await (await browser.newContext()).newPage();
    await useSession(contestantPage, contestant);
    await contestantPage.goto('/earnings');
    await expect(contestantPage.getByTestId('earnings-line').first().getByTestId('line-status')).toHaveText(/^Reversed/);
    await shoot(contestantPage, 'earnings-reversed-by-admin-refund');

    // The audit log has the decision and its reason.
    await page.goto('/admin/audit');
    await expect(page.getByTestId('audit-entry').filter({ hasText: 'Payment refunded' }).filter({ hasText: 'The contestant never answered' }).first()).toBeVisible();
  });
});
