/**
 * Contact requests and messages, with two people in two browser contexts:
 * A lists an entry and an admin approves it; B contacts A from
 * /leaderboard and pays in the sandbox checkout (a hold); A approves on
 * /contestant-requests; both chat both ways in real time; the side menu's
 * unread badge appears and clears; a reload resumes the conversation with
 * nothing lost. Screenshots at 375 and 1280 px with axe checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { grantAdmin } from '../support/admin';
import { MEMBER_DATA } from '../support/auth';
import { expectToast } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { ASTRONAUT, signUp, useSession, type TestAccount } from '../support/score';

const HOLD_NOTICE =
  "Your card is only held, not charged, until the contestant answers. If they deny or don't answer within 7 days, the hold is released.";

/** A fresh account with a display name (what a contestant sees of a requester: never the address). */
async function signUpNamed(request: APIRequestContext, displayName: string): Promise<TestAccount> {
  const email = `contact-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery';
  const response = await request.post('/auth/v1/signup', { data: { email, password, data: { ...MEMBER_DATA, display_name: displayName } } });
  expect(response.ok(), await response.text()).toBe(true);
  const session = (await response.json()) as Record<string, unknown>;
  expect(session.access_token, 'sign-up returns a session').toBeTruthy();
  return { email, password, accessToken: session.access_token as string, session };
}

/** A puts the astronaut forward for the leaderboard under `displayName`. */
async function listEntry(request: APIRequestContext, account: TestAccount, displayName: string) {
  const response = await request.post('/api/v1/photos', {
    headers: { Authorization: `Bearer ${account.accessToken}` },
    multipart: {
      image: { name: 'astronaut.png', mimeType: 'image/png', buffer: fs.readFileSync(ASTRONAUT) },
      public_listing: 'true',
      display_name: displayName,
      bio: 'Astronaut',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; score: number };
}

/** An admin approves the entry, as /admin/leaderboard's Approve does. */
async function approveEntry(request: APIRequestContext, admin: TestAccount, photoId: string) {
  const response = await request.post(`/api/v1/admin/leaderboard/entries/${photoId}/approve`, {
    headers: { Authorization: `Bearer ${admin.accessToken}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

async function shoot(page: Page, viewport: string, name: string) {
  // Not 'networkidle': the chat keeps its message stream open.
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`), fullPage: true, animations: 'disabled' });
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

/** The side menu's Contact Requests badge (desktop: the menu is always shown). */
function unreadBadge(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Site menu' }).getByTestId('contact-unread-badge');
}

/** The chat's messages, as the page shows them, in order. */
async function chatTexts(page: Page): Promise<string[]> {
  return page.getByRole('log').getByTestId('message-content').allInnerTexts();
}

async function say(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
  await expect(input).toHaveValue('');
  await expect(page.getByRole('log').getByText(text, { exact: true })).toBeVisible();
}

test.describe('contact requests and messages', () => {
  test('B contacts A, pays a hold, A approves, they chat in real time, badges come and go, a reload loses nothing', async ({
    browser,
    request,
  }) => {
    // Two people, an admin, a checkout and a chat on a shared 2-core machine.
    test.slow();
    const suffix = Date.now().toString(36);
    const contestantName = `Ava ${suffix}`;
    const requesterName = `Sam ${suffix}`;

    // A lists an entry; an admin approves it.
    const contestant = await signUpNamed(request, contestantName);
    const photo = await listEntry(request, contestant, contestantName);
    const admin = await signUp(request);
    await grantAdmin(admin.email);
    await approveEntry(request, admin, photo.id);
    const listing = await (await request.get('/api/v1/leaderboard?limit=100')).json();
    const listed = (listing.entries as { photo_id: string; rank: number; contact_fee: number }[]).find((entry) => entry.photo_id === photo.id);
    const fee = listed ? `$${listed.contact_fee.toLocaleString('en-US')}` : null;

    const requester = await signUpNamed(request, requesterName);
    const a = await (await browser.newContext()).newPage();
    await useSession(a, contestant);
    const b = await (await browser.newContext()).newPage();
    await useSession(b, requester);

    // B: Contact on the leaderboard, the dialog with its price and the hold notice, then the sandbox checkout.
    const card = await findEntry(b, contestantName);
    await card.getByRole('button', { name: new RegExp(`^Contact · \\$[\\d,]+, ${contestantName}$`) }).click();
    const dialog = b.getByRole('dialog', { name: `Contact ${contestantName}` });
    await expect(dialog).toBeVisible();
    if (fee) await expect(dialog.getByTestId('contact-price')).toHaveText(fee);
    await expect(dialog.getByTestId('contact-hold-notice')).toHaveText(HOLD_NOTICE);
    const send = dialog.getByRole('button', { name: /^Send and pay/ });
    await expect(send).toBeDisabled();
    for (const viewport of viewports) {
      await b.setViewportSize(viewport.size);
      await shoot(b, viewport.name, 'contact-dialog');
    }
    const intro = `Hello ${contestantName}, I would love to work with you on a shoot.`;
    await dialog.getByLabel('Your message').fill(intro);
    await expect(dialog.getByTestId('contact-counter')).toHaveText(`${intro.length}/1000`);
    await send.click();
    await expect(b).toHaveURL(/\/checkout\/sandbox\/[^/]+$/);
    await b.getByRole('button', { name: /^Pay / }).click();
    await expect(b).toHaveURL(/\/leaderboard/);
    await expectToast(b, 'Request sent! The contestant has 7 days to answer.');
    await expect(b).toHaveURL(/\/leaderboard$/);

    // A: the badge says a request waits; the inbox shows it without B's address.
    await a.goto('/dashboard');
    await expect(unreadBadge(a)).toContainText('1');
    await a.goto('/contestant-requests');
    await expect(a.getByRole('heading', { level: 1, name: 'Contact Requests' })).toBeVisible();
    const received = a.getByTestId('received-request').filter({ hasText: requesterName });
    await expect(received).toBeVisible();
    await expect(received.getByTestId('request-message')).toHaveText(intro);
    await expect(received).not.toContainText(requester.email);
    await expect(received.getByTestId('request-share')).toBeVisible();
    await expect(received.getByTestId('request-expires')).toBeVisible();
    await expect(a.getByTestId('payouts-note')).toContainText('sent to your payout account');
    for (const viewport of viewports) {
      await a.setViewportSize(viewport.size);
      await shoot(a, viewport.name, 'contestant-requests-pending');
    }
    await a.setViewportSize(viewports[1]!.size);
    await received.getByRole('button', { name: `Approve ${requesterName}'s request` }).click();
    await expectToast(a, 'Request approved! You can now chat.');
    await expect(unreadBadge(a)).toHaveCount(0);

    // Both open the chat: A from Approved, B from Sent.
    await a.getByRole('tab', { name: /^Approved/ }).click();
    await a.getByRole('link', { name: `Open chat with ${requesterName}` }).click();
    await expect(a).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const chatPath = new URL(a.url()).pathname;
    await expect(a.getByRole('heading', { level: 1, name: requesterName })).toBeVisible();

    await b.goto('/contestant-requests');
    await b.getByRole('tab', { name: /^Sent/ }).click();
    const sent = b.getByTestId('sent-request').filter({ hasText: contestantName });
    await expect(sent.getByTestId('sent-status')).toHaveText('Approved');
    await sent.getByRole('link', { name: `Open chat with ${contestantName}` }).click();
    await expect(b).toHaveURL(new RegExp(`${chatPath}$`));
    await expect(b.getByRole('heading', { level: 1, name: contestantName })).toBeVisible();

    // Real time, both ways: each message shows on the other page without a reload.
    await say(a, 'Hi Sam, thanks for reaching out!');
    await expect(b.getByRole('log').getByText('Hi Sam, thanks for reaching out!')).toBeVisible({ timeout: 10_000 });
    await say(b, 'Great to hear from you.\nWhen are you free?');
    await expect(a.getByRole('log').getByText(/When are you free\?/)).toBeVisible({ timeout: 10_000 });
    // A has B's message on screen: B sees Seen under it (the stream carries A's read mark).
    await expect(b.getByTestId('seen-mark')).toBeVisible({ timeout: 20_000 });
    for (const viewport of viewports) {
      await b.setViewportSize(viewport.size);
      await shoot(b, viewport.name, 'messages-conversation');
    }
    await b.setViewportSize(viewports[1]!.size);

    // A leaves the chat; B writes; A's badge counts the unread message, and reading it clears it.
    await a.goto('/contestant-requests');
    await say(b, 'Are you there?');
    await a.reload();
    await expect(unreadBadge(a)).toContainText('1');
    await a.goto(chatPath);
    await expect(a.getByRole('log').getByText('Are you there?')).toBeVisible();
    await expect(unreadBadge(a)).toHaveCount(0, { timeout: 10_000 });

    // B reloads: the whole conversation, in order, once each; and it stays live.
    const before = await chatTexts(b);
    expect(before).toHaveLength(3);
    await b.reload();
    await expect(b.getByRole('log').getByTestId('chat-message')).toHaveCount(3);
    expect(await chatTexts(b)).toEqual(before);
    await say(a, 'Yes, I am here.');
    await expect(b.getByRole('log').getByText('Yes, I am here.')).toBeVisible({ timeout: 10_000 });
    await expect(b.getByRole('log').getByTestId('chat-message')).toHaveCount(4);
    await a.reload();
    await expect(a.getByRole('log').getByTestId('chat-message')).toHaveCount(4);
    expect(await chatTexts(a)).toEqual(await chatTexts(b));
  });
});
