/**
 * A contestant is paid for a conversation, not for a click (issue 42 §2):
 * B pays to contact A (a hold), A approves (the fee is captured) and writes
 * nothing; once the reply window has passed, B is refunded in full,
 * automatically, and both are mailed why. A's /earnings line says the same
 * reason, and B's sent request says Refunded. Screenshots of /earnings and of
 * the request lists at 375 and 1280 px, with axe.
 *
 * It runs on a server of its own, started here, whose reply window is 0
 * days and whose payout job (which refunds unanswered approvals) runs every
 * second: the approval is unanswered the moment it is made. The suite's
 * server keeps the default 7 days, so the other walks' approvals stay.
 */
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { findEntry, listedEntry, signUpNamed } from '../support/conversation';
import { expectToast } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { useSession } from '../support/score';
import { startServer, stopServer, type RunningServer } from '../support/server';

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

type OutboxMessage = { to: string; subject: string; body_text: string; kind: string };

/** The mails to `email` in the server's development outbox, newest first. */
async function mailsTo(api: APIRequestContext, email: string): Promise<OutboxMessage[]> {
  const response = await api.get(`/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
  expect(response.status(), 'the dev outbox is served').toBe(200);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

test.describe('an approval nobody answers', () => {
  let server: RunningServer;
  let api: APIRequestContext;

  test.beforeAll(async ({ playwright }) => {
    server = await startServer(
      { PRETTYSCORE_PAYMENTS__REPLY_WINDOW_DAYS: '0', PRETTYSCORE_PAYMENTS__PAYOUT_INTERVAL_SECS: '1' },
      'server-unanswered.log',
    );
    api = await playwright.request.newContext({ baseURL: server.url });
  });

  test.afterAll(async () => {
    await api?.dispose();
    if (server) await stopServer(server);
  });

  test('is refunded to the requester in full, and both are told why', async ({ browser }) => {
    test.slow();
    // Consonants only: digits and vowels could fold into a reserved word
    // ("4dm1n"), which display names refuse.
    const suffix = [...`${Date.now()}${Math.floor(Math.random() * 1000)}`].map((digit) => 'bcdfghjkpq'[Number(digit)]).join('');
    const contestantName = `Ada ${suffix}`;
    const requesterName = `Ben ${suffix}`;
    const { contestant } = await listedEntry(api, contestantName, { account: signUpNamed, dataDir: server.dataDir });
    const requester = await signUpNamed(api, requesterName);
    const a = await (await browser.newContext({ baseURL: server.url })).newPage();
    await useSession(a, contestant);
    const b = await (await browser.newContext({ baseURL: server.url })).newPage();
    await useSession(b, requester);

    // B: the dialog says the rule before paying, then Pay in the sandbox checkout (a hold).
    const card = await findEntry(b, contestantName, server.url);
    await card.getByRole('button', { name: new RegExp(`^Contact · \\$[\\d,]+, ${contestantName}$`) }).click();
    const dialog = b.getByRole('dialog', { name: `Contact ${contestantName}` });
    await expect(dialog.getByTestId('contact-reply-rule')).toHaveText(
      'You pay for a conversation: if the contestant approves but sends you nothing within 0 days, you are refunded in full, automatically.',
    );
    const price = (await dialog.getByTestId('contact-price').innerText()).trim();
    await dialog.getByLabel('Your message').fill(`Hello ${contestantName}, I would love to book you for a shoot.`);
    await dialog.getByRole('button', { name: /^Send and pay/ }).click();
    await expect(b).toHaveURL(/\/checkout\/sandbox\/[^/]+$/);
    await b.getByRole('button', { name: /^Pay / }).click();
    await expectToast(b, /^Request sent!/);

    // A: the request card says how the share is earned; A approves and writes nothing.
    await a.goto('/contestant-requests');
    const received = a.getByTestId('received-request').filter({ hasText: requesterName });
    await expect(received.getByTestId('request-reply-rule')).toContainText('You are paid for a conversation, not a click');
    await expect(received.getByTestId('request-reply-rule')).toContainText('If you send nothing within 0 days of approving, they are refunded in full.');
    await shoot(a, 'contestant-request-reply-rule');
    await received.getByRole('button', { name: `Approve ${requesterName}'s request` }).click();
    await expectToast(a, 'Request approved! You can now chat.');

    // The payout job refunds it: A's /earnings says so, and why.
    await a.goto('/earnings');
    await expect(a.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    const line = a.getByTestId('earnings-line');
    await expect(async () => {
      await a.reload();
      await expect(line.getByTestId('line-status')).toHaveText('Refunded — no reply in time', { timeout: 2_000 });
    }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
    await expect(line.getByTestId('line-reason')).toHaveText('Refunded to the requester: you did not write to them within 0 days of approving.');
    await expect(a.getByTestId('total-pending')).toContainText('$0.00');
    await expect(a.getByTestId('total-paid')).toContainText('$0.00');
    await expect(a.getByTestId('payout-rule')).toContainText('It counts only once you have written to them in the chat');
    await shoot(a, 'earnings-no-reply-refunded');

    // B: the sent request says Refunded.
    await b.goto('/contestant-requests');
    await b.getByRole('tab', { name: /^Sent/ }).click();
    const sent = b.getByTestId('sent-request').filter({ hasText: contestantName });
    await expect(sent.getByTestId('sent-status')).toHaveText('Refunded');
    await expect(sent).toContainText('Your fee was refunded to your card in full. We mailed you why.');
    await shoot(b, 'sent-request-refunded');

    // Both were mailed once, with the reason; B's receipt and refund name the amount.
    await expect.poll(async () => (await mailsTo(api, requester.email)).filter((mail) => mail.kind === 'payment_refund').length).toBe(1);
    const toB = await mailsTo(api, requester.email);
    const refund = toB.find((mail) => mail.kind === 'payment_refund')!;
    expect(refund.subject).toBe(`Your PrettyScore refund: ${price.replace(/,/g, '')}.00`);
    expect(refund.body_text).toContain('did not write to you within 0 days, so your fee was refunded in full, automatically.');
    expect(toB.filter((mail) => mail.kind === 'payment_receipt')).toHaveLength(1);
    const toA = await mailsTo(api, contestant.email);
    const reversal = toA.filter((mail) => mail.kind === 'earning_reversed');
    expect(reversal).toHaveLength(1);
    expect(reversal[0]!.subject).toBe('A contact request was refunded: you did not reply in time');
    const heldMail = toA.find((mail) => mail.kind === 'contact_request_received')!;
    expect(heldMail.subject).toBe(`${requesterName} sent you a paid request on PrettyScore`);
  });
});
