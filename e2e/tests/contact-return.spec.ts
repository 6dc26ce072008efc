/**
 * A signed-out visitor who presses Contact on a leaderboard entry signs in
 * (issue 24, item 2), or signs up (issue 44), and comes back to that entry
 * with its Contact dialog open, at 375 and 1280 px with axe. Signing up is
 * walked twice: on the suite's server, which confirms new accounts at once
 * (`auth.autoconfirm`, the default), and on a second server started here
 * with confirmation on, through the mail's link in the development outbox.
 */
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { MEMBER_DATA, PASSWORD, lastMail, linkIn, submitCredentials, uniqueEmail } from '../support/auth';
import { findEntry, listedEntry, signUpNamed } from '../support/conversation';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import type { TestAccount } from '../support/score';
import { startServer, stopServer, type RunningServer } from '../support/server';

for (const viewport of viewports) {
  test(`signing in from Contact comes back to the same entry with its dialog open at ${viewport.name}`, async ({ page, request }) => {
    test.slow();
    await page.setViewportSize(viewport.size);
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const contestantName = `Nia ${suffix}`;
    const { photoId } = await listedEntry(request, contestantName);
    const visitor = await signUpNamed(request, `Rex ${suffix}`);

    const card = await findEntry(page, contestantName);
    await contactAsVisitor(page, card, contestantName, photoId);
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await submitCredentials(page, visitor.email, PASSWORD, 'Sign In');

    const dialog = page.getByRole('dialog', { name: `Contact ${contestantName}` });
    await expect(dialog).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'contact-after-sign-in.png'), animations: 'disabled' });

    // Once: closed, it stays closed after a reload.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/leaderboard$/);
    await page.reload();
    await expect(page.getByTestId('leaderboard-entry').first()).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });
}

/** Clicks the entry's Contact as a visitor: sign in, with the way back to the entry. */
async function contactAsVisitor(page: Page, card: Locator, contestantName: string, photoId: string) {
  await card.getByRole('button', { name: new RegExp(`^Contact · \\$[\\d,]+, ${contestantName}$`) }).click();
  await expect(page).toHaveURL(/\/auth\?returnTo=/);
  expect(new URL(page.url()).searchParams.get('returnTo')).toBe(`/leaderboard?contactEntry=${photoId}`);
}

/** Fills the Sign Up tab with a display name and submits it. */
async function signUpThroughForm(page: Page, email: string, displayName: string) {
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByRole('tabpanel').getByLabel('Display name (optional)').fill(displayName);
  await submitCredentials(page, email, PASSWORD, 'Create Account');
}

/** The dialog is open on the leaderboard, passes axe, and is photographed. */
async function expectDialogBack(page: Page, contestantName: string, viewportName: string, screenshot: string) {
  const dialog = page.getByRole('dialog', { name: `Contact ${contestantName}` });
  await expect(dialog).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/leaderboard');
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewportName, screenshot), animations: 'disabled' });
}

for (const viewport of viewports) {
  test(`signing up from Contact comes back to the same entry with its dialog open at ${viewport.name}`, async ({ page, request }) => {
    test.slow();
    await page.setViewportSize(viewport.size);
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const contestantName = `Ivy ${suffix}`;
    const { photoId } = await listedEntry(request, contestantName);

    const card = await findEntry(page, contestantName);
    await contactAsVisitor(page, card, contestantName, photoId);
    await signUpThroughForm(page, uniqueEmail('contact-sign-up'), `Leo ${suffix}`);
    await expectDialogBack(page, contestantName, viewport.name, 'contact-after-sign-up.png');
  });
}

/**
 * An account on a server that confirms addresses: signed up through the auth
 * API, confirmed through the mail's link, then signed in for a session.
 */
async function confirmedAccount(request: APIRequestContext, displayName: string): Promise<TestAccount> {
  const email = uniqueEmail('confirmed');
  const signedUp = await request.post('/auth/v1/signup', { data: { email, password: PASSWORD, data: { ...MEMBER_DATA, display_name: displayName } } });
  expect(signedUp.ok(), await signedUp.text()).toBe(true);
  expect(((await signedUp.json()) as { access_token?: string }).access_token, 'no session before confirming').toBeUndefined();
  const confirmed = await request.get(linkIn(await lastMail(request, email)), { maxRedirects: 0 });
  expect(confirmed.status(), await confirmed.text()).toBe(303);
  const signedIn = await request.post('/auth/v1/token?grant_type=password', { data: { email, password: PASSWORD } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const session = (await signedIn.json()) as Record<string, unknown>;
  return { email, password: PASSWORD, accessToken: session.access_token as string, session };
}

test.describe('with email confirmation on', () => {
  let server: RunningServer;
  let api: APIRequestContext;

  test.beforeAll(async ({ playwright }) => {
    server = await startServer({ PRETTYSCORE_AUTH__AUTOCONFIRM: 'false' }, 'server-confirm.log');
    api = await playwright.request.newContext({ baseURL: server.url });
  });

  test.afterAll(async () => {
    await api?.dispose();
    if (server) await stopServer(server);
  });

  for (const viewport of viewports) {
    test(`signing up from Contact, then the mail's link, opens the entry's dialog at ${viewport.name}`, async ({ page }) => {
      test.slow();
      await page.setViewportSize(viewport.size);
      const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
      const contestantName = `Uma ${suffix}`;
      const { photoId } = await listedEntry(api, contestantName, { account: confirmedAccount, dataDir: server.dataDir });

      const card = await findEntry(page, contestantName, server.url);
      await contactAsVisitor(page, card, contestantName, photoId);
      const email = uniqueEmail('contact-confirm');
      await signUpThroughForm(page, email, `Kai ${suffix}`);
      // No session yet: the page says to check the mail and stays.
      await expect(page.getByText('Check your email to confirm your account, then sign in.')).toBeVisible();
      await expect(page).toHaveURL(/\/auth\?returnTo=/);

      // The link confirms the address and leads back to the entry, signed in.
      const link = linkIn(await lastMail(api, email));
      expect(new URL(link).searchParams.get('redirect_to')).toBe(`${server.url}/leaderboard?contactEntry=${photoId}`);
      await page.goto(link);
      await expectDialogBack(page, contestantName, viewport.name, 'contact-after-confirming.png');
    });
  }
});
