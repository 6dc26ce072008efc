/**
 * The chat page (issue 24, items 3 and 4): a message leaves the box at
 * Enter and shows at once as "Sending…", then sent or failed with Retry,
 * with nothing lost or doubled when typing fast on a slow network; and the
 * page is exactly as tall as its content, however long the conversation.
 * At 375 and 1280 px, with axe.
 */
import path from 'node:path';
import type { Page, Route } from '@playwright/test';
import { approvedConversation, fillConversation, findEntry } from '../support/conversation';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { useSession } from '../support/score';

async function shoot(page: Page, viewport: string, name: string) {
  // Not 'networkidle': the chat keeps its message stream open.
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Holds every message send until the test lets it through (a slow network, without a timer). */
async function holdSends(page: Page) {
  const held: Route[] = [];
  await page.route('**/api/v1/contact-requests/*/messages', async (route) => {
    if (route.request().method() === 'POST') held.push(route);
    else await route.continue();
  });
  return held;
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('typing "ok" Enter "thanks" Enter fast on a slow network sends two messages, in order, each shown at once as Sending…', async ({
      page,
      request,
    }) => {
      test.slow();
      const conversation = await approvedConversation(request);
      await useSession(page, conversation.requester);
      const held = await holdSends(page);
      await page.goto(`/messages/${conversation.requestId}`);
      await expect(page.getByRole('heading', { level: 1, name: conversation.contestantName })).toBeVisible();
      const input = page.getByRole('textbox', { name: 'Message' });
      const log = page.getByRole('log');
      await expect(log).toBeVisible();

      await input.click();
      await page.keyboard.type('ok');
      await page.keyboard.press('Enter');
      await page.keyboard.type('thanks');
      await page.keyboard.press('Enter');
      await expect(input).toHaveValue('');
      const outgoing = log.getByTestId('outgoing-message');
      await expect(outgoing.getByTestId('message-content')).toHaveText(['ok', 'thanks']);
      await expect(outgoing.getByTestId('message-status')).toHaveText(['Sending…', 'Sending…']);
      await shoot(page, viewport.name, 'messages-sending');

      // One send at a time, in the order typed.
      await expect.poll(() => held.length).toBe(1);
      expect(held[0]!.request().postDataJSON()).toMatchObject({ content: 'ok' });
      await held[0]!.continue();
      await expect.poll(() => held.length).toBe(2);
      expect(held[1]!.request().postDataJSON()).toMatchObject({ content: 'thanks' });
      await held[1]!.continue();

      await expect(outgoing).toHaveCount(0);
      await expect(log.getByTestId('chat-message').getByTestId('message-content')).toHaveText(['ok', 'thanks']);
      await expect(log.getByText('okthanks')).toHaveCount(0);

      // The other party sees the same two, once each.
      const stored = await request.get(`/api/v1/contact-requests/${conversation.requestId}/messages`, {
        headers: { Authorization: `Bearer ${conversation.contestant.accessToken}` },
      });
      const page1 = (await stored.json()) as { messages: { content: string }[] };
      expect(page1.messages.map((message) => message.content)).toEqual(['ok', 'thanks']);
    });

    test.describe('when a send fails', () => {
      // Chromium reports the failed send's status on the console.
      test.use({ allowedConsoleErrors: [/status of 503/] });

      test('the message stays, marked Not sent, and Retry sends it once', async ({ page, request }) => {
        test.slow();
        const conversation = await approvedConversation(request);
        await useSession(page, conversation.requester);
        let failNext = true;
        const sends: string[] = [];
        await page.route('**/api/v1/contact-requests/*/messages', async (route) => {
          if (route.request().method() !== 'POST') return route.continue();
          sends.push((route.request().postDataJSON() as { id: string }).id);
          if (failNext) {
            failNext = false;
            return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', message: 'Try again' }) });
          }
          return route.continue();
        });
        await page.goto(`/messages/${conversation.requestId}`);
        const input = page.getByRole('textbox', { name: 'Message' });
        await input.fill('Are you free on Friday?');
        await input.press('Enter');
        await expect(input).toHaveValue('');
        const failed = page.getByRole('log').getByTestId('outgoing-message');
        await expect(failed).toHaveAttribute('data-status', 'failed');
        await expect(failed.getByTestId('message-status')).toContainText('Not sent');
        await shoot(page, viewport.name, 'messages-send-failed');
        await failed.getByRole('button', { name: /^Retry/ }).click();
        await expect(page.getByRole('log').getByTestId('chat-message').getByTestId('message-content')).toHaveText(['Are you free on Friday?']);
        await expect(failed).toHaveCount(0);
        expect(sends).toHaveLength(2);
        expect(sends[1]).toBe(sends[0]);
      });
    });

    test('with 66 messages the page is exactly as tall as its content', async ({ page, request }) => {
      test.slow();
      const conversation = await approvedConversation(request);
      await fillConversation(request, conversation, 66);
      await useSession(page, conversation.requester);
      await page.goto(`/messages/${conversation.requestId}`);
      await expect(page.getByRole('log').getByTestId('chat-message')).toHaveCount(66);
      await page.evaluate(() => document.fonts.ready);
      const { scrollHeight, contentBottom, viewportHeight } = await page.evaluate(() => {
        const footer = document.querySelector('footer[role="contentinfo"], footer')!;
        return {
          scrollHeight: document.scrollingElement!.scrollHeight,
          contentBottom: Math.ceil(footer.getBoundingClientRect().bottom + window.scrollY),
          viewportHeight: window.innerHeight,
        };
      });
      // The layout ends with the footer: nothing may reach below it (before the fix, the
      // visually hidden labels inside the messages did, thousands of pixels down).
      // (Within a pixel: the footer's bottom can fall between two.)
      expect(Math.abs(scrollHeight - Math.max(contentBottom, viewportHeight))).toBeLessThanOrEqual(1);
      await shoot(page, viewport.name, 'messages-66');
    });

    test('the leaderboard entry of a contestant one is chatting with reads "Open chat" and opens it (issue 44)', async ({ page, request }) => {
      test.slow();
      const conversation = await approvedConversation(request);
      await useSession(page, conversation.requester);
      const card = await findEntry(page, conversation.contestantName);
      const openChat = card.getByRole('link', { name: `Open chat, ${conversation.contestantName}` });
      await expect(openChat).toBeVisible();
      await expect(card.getByRole('button', { name: /^Contact/ })).toHaveCount(0);
      await expect(card).not.toContainText('Contact ·');
      await card.scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      await card.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'leaderboard-open-chat.png'), animations: 'disabled' });
      await openChat.click();
      await expect(page).toHaveURL(new RegExp(`/messages/${conversation.requestId}$`));
      await expect(page.getByRole('heading', { level: 1, name: conversation.contestantName })).toBeVisible();
    });
  });
}
