/**
 * Contact earnings paid out (issue 23, items 5 and 6), with two people in
 * two browser contexts: A has a leaderboard entry; B pays to contact A in the
 * sandbox checkout (a hold); A approves on /contestant-requests (the fee is
 * captured) and writes to B in the chat (a share is paid for a
 * conversation); A opens /earnings from the dashboard's Contact earnings card,
 * connects a payout account through the sandbox's onboarding page and comes
 * back; the line becomes payable and the transfer job sends it, so it says
 * Paid and the Paid total is 75% of the fee. B, who has earned nothing, is
 * told that a payout account opens with the first earnings. Screenshots of
 * /earnings and of the sandbox onboarding page at 375 and 1280 px, with axe.
 *
 * The server config it needs is set by global-setup.ts:
 *   - PRETTYSCORE_PAYMENTS__PAYOUT_WINDOW_DAYS=0: a captured fee is payable at
 *     once (/earnings then says "payable 0 days after", checked below);
 *   - PRETTYSCORE_PAYMENTS__PAYOUT_INTERVAL_SECS=1: the transfer job runs every
 *     second, so the payable line is sent within the test's budget;
 *   - the embedded sandbox payment provider (the default).
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { listedEntry, signUpNamed } from '../support/conversation';
import { expectToast } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { useSession, type TestAccount } from '../support/score';

/** Money as the app writes it (en-US dollars). */
const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

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

type EarningsAnswer = {
  account: { status: string; connectedAt: string | null } | null;
  canConnect: boolean;
  payoutWindowDays: number;
  totals: { pendingCents: number; availableCents: number; paidCents: number };
  lines: { id: string; feeCents: number; amountCents: number; state: string }[];
};

/** GET /api/v1/payouts/earnings as `account` (what the page shows must agree with it). */
async function earningsOf(page: Page, account: TestAccount): Promise<EarningsAnswer> {
  const response = await page.request.get('/api/v1/payouts/earnings', { headers: { Authorization: `Bearer ${account.accessToken}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as EarningsAnswer;
}

test.describe('contact earnings paid out', () => {
  test('B pays to contact A, A approves, connects a payout account in the sandbox, and the line is paid: 75% of the fee', async ({
    browser,
    request,
  }) => {
    // Two people, an admin, a checkout, an onboarding and a transfer job on a shared 2-core machine.
    test.slow();
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const contestantName = `Ava ${suffix}`;
    const requesterName = `Sam ${suffix}`;

    // A has an approved leaderboard entry; B is a fresh account.
    const { contestant } = await listedEntry(request, contestantName);
    const requester = await signUpNamed(request, requesterName);
    const a = await (await browser.newContext()).newPage();
    await useSession(a, contestant);
    const b = await (await browser.newContext()).newPage();
    await useSession(b, requester);

    // B: Contact on the leaderboard, the fee the dialog names, then Pay in the sandbox checkout (a hold).
    const card = await findEntry(b, contestantName);
    await card.getByRole('button', { name: new RegExp(`^Contact · \\$[\\d,]+, ${contestantName}$`) }).click();
    const dialog = b.getByRole('dialog', { name: `Contact ${contestantName}` });
    await expect(dialog).toBeVisible();
    const price = (await dialog.getByTestId('contact-price').innerText()).trim();
    const feeCents = Math.round(Number(price.replace(/[^0-9.]/g, '')) * 100);
    expect(feeCents, `the dialog's price ${price}`).toBeGreaterThan(0);
    // Whole-dollar fees: 75% is a whole number of cents, with no rounding to agree on.
    const shareCents = (feeCents * 3) / 4;
    expect(Number.isInteger(shareCents), `75% of ${price} in whole cents`).toBe(true);
    await dialog.getByLabel('Your message').fill(`Hello ${contestantName}, I would love to book you for a shoot.`);
    await dialog.getByRole('button', { name: /^Send and pay/ }).click();
    await expect(b).toHaveURL(/\/checkout\/sandbox\/[^/]+$/);
    await b.getByRole('button', { name: /^Pay / }).click();
    await expectToast(b, 'Request sent! The contestant has 7 days to answer.');

    // A: approves on /contestant-requests; the requester is charged (captured).
    await a.goto('/contestant-requests');
    await expect(a.getByRole('heading', { level: 1, name: 'Contact Requests' })).toBeVisible();
    const received = a.getByTestId('received-request').filter({ hasText: requesterName });
    await received.getByRole('button', { name: `Approve ${requesterName}'s request` }).click();
    await expectToast(a, 'Request approved! You can now chat.');

    // A writes to B: the share is paid for a conversation (issue 42), so it
    // counts only once A has replied.
    await a.getByRole('tab', { name: /^Approved/ }).click();
    await a.getByRole('link', { name: `Open chat with ${requesterName}` }).click();
    await expect(a).toHaveURL(/\/messages\/[^/]+$/);
    const input = a.getByRole('textbox', { name: 'Message' });
    await input.fill('Thanks for writing! Friday works for me.');
    await input.press('Enter');
    await expect(a.getByRole('log')).toContainText('Thanks for writing! Friday works for me.');
    // Sent, not only shown: the message shows at once as "Sending…", and
    // leaving the page before the server has it would cancel the send.
    await expect(a.getByRole('log').getByTestId('message-status')).toHaveCount(0);

    // A: the dashboard's Contact earnings card leads to /earnings.
    await a.goto('/user-dashboard');
    await a.getByTestId('stat-contact-earnings').click();
    await expect(a).toHaveURL(/\/earnings$/);
    await expect(a.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    // The server runs with a 0-day payout window (see the top of this file).
    await expect(a.getByTestId('payout-rule')).toContainText('becomes payable 0 days after the requester is charged');
    const line = a.getByTestId('earnings-line');
    await expect(line).toHaveCount(1);
    await expect(line.getByTestId('line-fee')).toHaveText(usd(feeCents));
    await expect(line.getByTestId('line-share')).toHaveText(usd(shareCents));
    // Charged and in (or just out of) a 0-day window; nothing can be sent without an account.
    await expect(line.getByTestId('line-status')).toHaveText(/^(Payable on |Connect a payout account to receive it)/);
    await expect(a.getByTestId('total-paid')).toContainText('$0.00');
    const account = a.getByTestId('payout-account');
    await expect(account).toHaveAttribute('data-status', 'none');
    await shoot(a, 'earnings-not-connected');

    // Connect payout account: the sandbox's onboarding page, a test that asks for nothing.
    await account.getByRole('button', { name: 'Connect payout account' }).click();
    await expect(a).toHaveURL(/\/payouts\/sandbox\/onboard\/[^/]+$/);
    await expect(a.getByRole('heading', { level: 1, name: 'Test Payout Account' })).toBeVisible();
    await expect(a.getByTestId('sandbox-onboarding-notice')).toContainText('Test payout account — no real bank details are asked for or stored');
    await expect(a.getByTestId('sandbox-onboarding-email')).toHaveText(contestant.email);
    await expect(a.getByRole('main').getByRole('textbox')).toHaveCount(0);
    await shoot(a, 'payouts-sandbox-onboard');
    await a.getByRole('button', { name: 'Finish test setup' }).click();

    // Back on /earnings the way Stripe's return_url brings the user; the ?onboarding=return is dropped once confirmed.
    await expect(a).toHaveURL(/\/earnings(\?onboarding=return)?$/);
    await expectToast(a, 'Payout account set up');
    await expect(a).toHaveURL(/\/earnings$/);
    await expect(account.getByTestId('payout-account-connected')).toContainText('Payout account connected');
    await expect(account).toHaveAttribute('data-status', 'enabled');

    // The transfer job sends the payable line to the new account: reload until it says Paid.
    await expect(async () => {
      await a.reload();
      await expect(line.getByTestId('line-status')).toHaveText(/^Paid /, { timeout: 2_000 });
    }).toPass({ timeout: 120_000, intervals: [1_000, 2_000, 3_000] });
    await expect(a.getByTestId('total-paid')).toContainText(usd(shareCents));
    await expect(a.getByTestId('total-pending')).toContainText('$0.00');
    await expect(a.getByTestId('total-available')).toContainText('$0.00');
    await expect(line.getByTestId('line-share')).toHaveText(usd(shareCents));

    // The server agrees: one transferred line, 75% of the fee, paid.
    const answer = await earningsOf(a, contestant);
    expect(answer.account?.status).toBe('enabled');
    expect(answer.lines).toHaveLength(1);
    expect(answer.lines[0]).toMatchObject({ state: 'transferred', feeCents, amountCents: shareCents });
    expect(answer.totals).toEqual({ pendingCents: 0, availableCents: 0, paidCents: shareCents });
    await shoot(a, 'earnings-paid');

    // B has earned nothing: no payout account to open yet, and nothing listed.
    await b.goto('/earnings');
    await expect(b.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    await expect(b.getByTestId('payout-account-not-yet')).toContainText('A payout account opens with your first earnings');
    await expect(b.getByTestId('payout-account').getByRole('button')).toHaveCount(0);
    await expect(b.getByTestId('no-earnings')).toBeVisible();
    await shoot(b, 'earnings-empty');
  });
});
