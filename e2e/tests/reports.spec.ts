/**
 * Issue 41, sections 3 and 4, in the browser at 375 and 1280 px with axe: a
 * signed-out visitor reports a share page; an admin removes it with
 * reasons; the owner appeals from the mail's link and is answered by a
 * second admin; two chat users report and block each other, and a hurtful
 * message is sent only after "Are you sure?".
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { grantAdmin } from '../support/admin';
import { approvedConversation, signUpNamed } from '../support/conversation';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { ASTRONAUT, signUp, useSession, type TestAccount } from '../support/score';

const bearer = (account: TestAccount) => ({ Authorization: `Bearer ${account.accessToken}` });

async function shoot(page: Page, viewport: string, name: string) {
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`), fullPage: true, animations: 'disabled' });
}

type Mail = { to: string; subject: string; body_text: string; kind: string };

/** The newest mail of `kind` to `email` in the development outbox. */
async function mailOf(request: APIRequestContext, email: string, kind: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
      const { messages } = (await response.json()) as { messages: Mail[] };
      found = messages.find((message) => message.kind === kind);
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

/** A fresh signed-in page of `account` in a context of its own. */
async function pageOf(browser: Browser, viewport: { width: number; height: number }, account?: TestAccount): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: process.env.PRETTYSCORE_BASE_URL });
  const page = await context.newPage();
  if (account) await useSession(page, account);
  return page;
}

async function newAdmin(request: APIRequestContext): Promise<TestAccount> {
  const admin = await signUp(request);
  await grantAdmin(admin.email);
  return admin;
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('a visitor reports a share page, an admin removes it with reasons, the owner appeals and a second admin answers', async ({
      page,
      request,
      browser,
    }) => {
      test.slow();
      // The owner shares a photo.
      const owner = await signUpNamed(request, 'Owner');
      const saved = await request.post('/api/v1/photos', {
        headers: bearer(owner),
        multipart: { image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) } },
      });
      expect(saved.ok(), await saved.text()).toBe(true);
      const photo = (await saved.json()) as { id: string };
      const shared = await request.post(`/api/v1/photos/${photo.id}/share`, { headers: bearer(owner), data: {} });
      expect(shared.ok(), await shared.text()).toBe(true);
      const sharePath = new URL(((await shared.json()) as { share_url: string }).share_url).pathname;

      // A signed-out visitor opens the share page and reports it.
      const visitor = `visitor-${Date.now()}-${viewport.name}@example.com`;
      await page.goto(sharePath);
      await page.getByRole('link', { name: 'Report this page' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Report Content' })).toBeVisible();
      await page.getByRole('radio', { name: 'A photo of me used without my consent' }).check();
      const complaint = `This is my face (${viewport.name}). I never agreed to it being posted.`;
      await page.getByLabel('What is wrong? (optional)').fill(complaint);
      await page.getByLabel('Your email address').fill(visitor);
      await page.getByRole('checkbox', { name: /in good faith/ }).check();
      await shoot(page, viewport.name, 'report-share-page');
      await page.getByRole('button', { name: 'Send report' }).click();
      await expect(page.getByRole('main').getByRole('status')).toContainText('We have received your report');
      expect((await mailOf(request, visitor, 'report_received')).body_text).toContain('48 hours');

      // The first admin removes it with reasons, from the one queue.
      const first = await newAdmin(request);
      const adminPage = await pageOf(browser, viewport.size, first);
      await adminPage.goto('/admin/reports');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
      const card = adminPage.locator('[aria-label^="Report: "]').filter({ hasText: complaint });
      await expect(card).toBeVisible();
      await expect(card).toContainText(/h \d+ min left/);
      await card.getByRole('radio', { name: 'Remove the content' }).check();
      await card.getByLabel(/Statement of reasons/).fill('The person in the photo did not agree to it being shared.');
      await shoot(adminPage, viewport.name, 'admin-reports-decide');
      await card.getByRole('button', { name: 'Decide' }).click();
      await expect(adminPage.getByText(/Decided\. The reporter and the affected user/)).toBeVisible();
      // Gone at once: the share page and its card.
      expect((await request.get(sharePath)).status()).toBe(404);
      expect((await request.get(`${sharePath}/card.png`)).status()).toBe(404);
      expect((await mailOf(request, visitor, 'report_decided')).body_text).toContain('We removed');

      // The owner appeals from the mail's link, signed out.
      const statement = await mailOf(request, owner.email, 'moderation_decision');
      expect(statement.body_text).toContain('/guidelines#g2');
      const link = statement.body_text.split(/\s+/).find((word) => word.includes('/appeal/'))!;
      const ownerPage = await pageOf(browser, viewport.size);
      await ownerPage.goto(new URL(link).pathname + new URL(link).search);
      await expect(ownerPage.getByRole('heading', { level: 1, name: 'Appeal a Decision' })).toBeVisible();
      await expect(ownerPage.getByText(/We removed a shared photo/)).toBeVisible();
      const appealText = `That photo is of me (${viewport.name}), not of anyone else.`;
      await ownerPage.getByLabel(/Why is this decision wrong/).fill(appealText);
      await shoot(ownerPage, viewport.name, 'appeal-form');
      await ownerPage.getByRole('button', { name: 'Send appeal' }).click();
      // The decision, read again, says the appeal waits for another admin.
      await expect(ownerPage.getByRole('main').getByRole('status')).toContainText(/another admin/i);

      // The admin who decided cannot answer; a second admin does.
      await adminPage.reload();
      await expect(
        adminPage.locator('[aria-label^="Appeal of: "]').filter({ hasText: appealText }).getByText('You took this decision, so another admin must answer the appeal.'),
      ).toBeVisible();
      const second = await newAdmin(request);
      const secondPage = await pageOf(browser, viewport.size, second);
      await secondPage.goto('/admin/reports');
      const appealCard = secondPage.locator('[aria-label^="Appeal of: "]').filter({ hasText: appealText });
      await appealCard.getByRole('radio', { name: 'Uphold: the decision stands' }).check();
      await appealCard.getByLabel('Answer to the user').fill('The visitor showed us it is their face; the removal stands.');
      await shoot(secondPage, viewport.name, 'admin-reports-appeal');
      await appealCard.getByRole('button', { name: 'Answer the appeal' }).click();
      await expect(secondPage.getByText('Answered. The user has been mailed.')).toBeVisible();
      expect((await mailOf(request, owner.email, 'appeal_decided')).body_text).toContain('the decision stands');
      await ownerPage.reload();
      await expect(ownerPage.getByText('Your appeal was heard: the decision stands.')).toBeVisible();
      await shoot(ownerPage, viewport.name, 'appeal-answered');
      for (const other of [adminPage, ownerPage, secondPage]) await other.context().close();
    });

    test.describe('in a chat', () => {
      // "Are you sure?" is the server's 409 to the first send, which the browser logs.
      test.use({ allowedConsoleErrors: [/status of 409/] });

      test('two users report and block each other, and a hurtful message goes only after "Are you sure?"', async ({ page, request, browser }) => {
        test.slow();
        const conversation = await approvedConversation(request);
        const sent = await request.post(`/api/v1/contact-requests/${conversation.requestId}/messages`, {
          headers: bearer(conversation.contestant),
          data: { id: crypto.randomUUID(), content: 'Pay me more or go away' },
        });
        expect(sent.ok()).toBe(true);

        // The requester is asked before a hurtful message goes, then reports the contestant's message.
        await useSession(page, conversation.requester);
        await page.goto(`/messages/${conversation.requestId}`);
        const input = page.getByRole('textbox', { name: 'Message' });
        await input.fill('You are an idiot');
        await input.press('Enter');
        const asked = page.getByRole('alertdialog', { name: 'Are you sure?' });
        await expect(asked).toContainText('may hurt or offend');
        await shoot(page, viewport.name, 'chat-are-you-sure');
        await asked.getByRole('button', { name: 'Edit message' }).click();
        await expect(input).toHaveValue('You are an idiot');
        await input.fill('You are rude');
        await input.press('Enter');
        const log = page.getByRole('log');
        await expect(log.getByTestId('chat-message').getByTestId('message-content').last()).toHaveText('You are rude');

        await log.getByRole('button', { name: `Report this message from ${conversation.contestantName}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Report this message' });
        await dialog.getByRole('radio', { name: 'Spam or scam' }).check();
        await dialog.getByLabel('What is wrong? (optional)').fill('Asks for money outside the app');
        await shoot(page, viewport.name, 'chat-report-message');
        await dialog.getByRole('button', { name: 'Send report' }).click();
        await expect(dialog.getByRole('status')).toContainText('We have received your report');
        await page.keyboard.press('Escape');

        // The contestant reports the whole conversation and blocks the requester.
        const other = await pageOf(browser, viewport.size, conversation.contestant);
        await other.goto(`/messages/${conversation.requestId}`);
        await other.getByRole('button', { name: 'Report this conversation' }).click();
        const conv = other.getByRole('dialog', { name: 'Report this conversation' });
        await conv.getByRole('radio', { name: 'Harassment' }).check();
        await conv.getByRole('button', { name: 'Send report' }).click();
        await expect(conv.getByRole('status')).toContainText('We have received your report');
        await other.keyboard.press('Escape');
        await other.getByRole('button', { name: 'Block' }).click();
        const confirm = other.getByRole('alertdialog', { name: `Block ${conversation.requesterName}?` });
        await confirm.getByRole('button', { name: 'Block' }).click();
        await expect(other.getByTestId('conversation-closed')).toBeVisible();
        await shoot(other, viewport.name, 'chat-blocked');

        // Closed for both.
        await page.reload();
        await expect(page.getByTestId('conversation-closed')).toBeVisible();
        await expect(page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
        await other.context().close();
      });
    });
  });
}
