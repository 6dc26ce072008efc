import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { MEMBER_DATA } from './auth';
import { TESTDATA_DIR } from './paths';

export const ASTRONAUT = path.join(TESTDATA_DIR, 'face', 'astronaut.png');
export const COFFEE = path.join(TESTDATA_DIR, 'noface', 'coffee.png');
export const CAT = path.join(TESTDATA_DIR, 'pet', 'cat-chelsea.png');

/**
 * Holds requests to `urlPattern` until the test calls `release()` (a slow network, without a timer):
 * a timer's window can close before a busy machine has checked the waiting state.
 */
export async function holdRequests(page: Page, urlPattern: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(urlPattern, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/** Picks the astronaut on /upload, asks for the score and waits for /results; returns the score shown. */
export async function scoreAstronaut(page: Page): Promise<string> {
  await page.goto('/upload');
  await page.getByTestId('gallery-input').setInputFiles(ASTRONAUT);
  await expect(page.getByTestId('upload-preview')).toBeVisible();
  await page.getByRole('button', { name: 'Get My Score!' }).click();
  await expect(page).toHaveURL(/\/results$/, { timeout: 20_000 });
  const score = page.getByTestId('score-value');
  await expect(score).toHaveText(/^\d{1,2}\.\d$/);
  // At 9.5 and more the leaderboard dialog opens by itself: close it.
  const dialog = page.getByRole('dialog');
  if (await dialog.isVisible()) await page.keyboard.press('Escape');
  return (await score.textContent())!.trim();
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'a PNG').toBe(
    true,
  );
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Clicks a button that downloads a file; returns its suggested name and bytes. */
export async function download(page: Page, buttonName: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: buttonName }).click()]);
  const target = await file.path();
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(target) };
}

/** Lets the page read and write the clipboard, and reads it back. */
export async function allowClipboard(context: BrowserContext, baseURL: string) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
}

export function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Answers the social sites' share pages locally, so popups open without the internet. */
export async function stubSocialSites(context: BrowserContext) {
  await context.route(/^https:\/\/(twitter\.com|x\.com|www\.facebook\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>share</title><p>share</p>' }),
  );
}

/** Keeps sms: and mailto: links from leaving the page, after the app has handled the click. */
export async function holdExternalLinks(page: Page) {
  await page.addInitScript(() => {
    window.addEventListener('click', (event) => {
      const link = (event.target as Element | null)?.closest?.('a[href^="sms:"], a[href^="mailto:"]');
      if (link) event.preventDefault();
    });
  });
}

export type TestAccount = { email: string; password: string; accessToken: string; session: Record<string, unknown> };

/** Signs a fresh user up through the auth API (autoconfirm is on by default) and returns the session. */
export async function signUp(request: APIRequestContext): Promise<TestAccount> {
  const email = `score-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery';
  const response = await request.post('/auth/v1/signup', { data: { email, password, data: MEMBER_DATA } });
  expect(response.ok(), await response.text()).toBe(true);
  const session = (await response.json()) as Record<string, unknown>;
  expect(session.access_token, 'sign-up returns a session').toBeTruthy();
  return { email, password, accessToken: session.access_token as string, session };
}

/** auth-js's default storage key (web/src/lib/auth-client.ts sets none). */
export const AUTH_STORAGE_KEY = 'supabase.auth.token';

/** Starts the app signed in: the session goes where auth-js keeps it. */
export async function useSession(page: Page, account: TestAccount) {
  const session = { ...account.session };
  if (!session.expires_at && typeof session.expires_in === 'number') {
    session.expires_at = Math.floor(Date.now() / 1000) + session.expires_in;
  }
  await page.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    [AUTH_STORAGE_KEY, JSON.stringify(session)] as const,
  );
}

/** The access token of the session the page holds (auth-js keeps it in local storage). */
export async function accessTokenOf(page: Page): Promise<string> {
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), AUTH_STORAGE_KEY);
  const token = stored ? (JSON.parse(stored) as { access_token?: string }).access_token : undefined;
  if (!token) throw new Error('the page holds no session');
  return token;
}
