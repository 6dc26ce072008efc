/**
 * Helpers for the sign-in tests: fresh addresses, the development outbox,
 * TOTP codes (RFC 6238) and the auth screen's forms.
 */
import { createHmac } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'correct horse battery';

/** The terms version the server ships with (`community.terms_version`, GET /api/v1/terms). */
export const TERMS_VERSION = '1.0';

/**
 * The sign-up `data` of a community member (issue 41): an adult date of
 * birth and the terms in force, as the web app's sign-up form sends them.
 */
export const MEMBER_DATA = { date_of_birth: '1990-05-17', terms_version: TERMS_VERSION } as const;

let counter = 0;
/** An address no other test uses. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${process.pid}-${counter}@example.com`;
}

/** Creates an account through the API (autoconfirm is on, so it can sign in at once). */
export async function createAccount(request: APIRequestContext, prefix: string, password = PASSWORD) {
  const email = uniqueEmail(prefix);
  const response = await request.post('/auth/v1/signup', { data: { email, password, data: MEMBER_DATA } });
  expect(response.ok(), await response.text()).toBe(true);
  return { email, password };
}

/**
 * Signs in through the API, enrols an authenticator app and verifies it, so
 * the account has a verified second factor. Returns the app's secret.
 */
export async function enrolAuthenticator(request: APIRequestContext, email: string, password = PASSWORD): Promise<string> {
  const signIn = await request.post('/auth/v1/token?grant_type=password', { data: { email, password } });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const enrolled = await request.post('/auth/v1/factors', { headers, data: { factor_type: 'totp', friendly_name: 'phone' } });
  expect(enrolled.ok(), await enrolled.text()).toBe(true);
  const factor = (await enrolled.json()) as { id: string; totp: { secret: string } };
  const challenge = await request.post(`/auth/v1/factors/${factor.id}/challenge`, { headers, data: {} });
  expect(challenge.ok(), await challenge.text()).toBe(true);
  const { id: challengeId } = (await challenge.json()) as { id: string };
  const verified = await request.post(`/auth/v1/factors/${factor.id}/verify`, {
    headers,
    data: { challenge_id: challengeId, code: totp(factor.totp.secret) },
  });
  expect(verified.ok(), await verified.text()).toBe(true);
  return factor.totp.secret;
}

type OutboxMessage = { to: string; subject: string; body_text: string; kind: string };

/** The newest mail to `email` in the development outbox (global setup turns it on). */
export async function lastMail(request: APIRequestContext, email: string): Promise<OutboxMessage> {
  let messages: OutboxMessage[] = [];
  await expect
    .poll(async () => {
      const response = await request.get(`/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
      expect(response.status(), 'the dev outbox is served').toBe(200);
      ({ messages } = (await response.json()) as { messages: OutboxMessage[] });
      return messages.length;
    })
    .toBeGreaterThan(0);
  return messages[0]!;
}

/** The first link of a mail. */
export function linkIn(mail: OutboxMessage): string {
  const link = mail.body_text.split(/\s+/).find((word) => word.startsWith('http'));
  if (!link) throw new Error(`no link in ${mail.body_text}`);
  return link;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${text}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP: HMAC-SHA1, 30 s steps, 6 digits. */
export function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

/** Fills the visible tab's email and password and submits it. */
/**
 * Fills the visible tab's form and presses `button`. Creating an account
 * also gives an adult's date of birth and accepts the terms, as every
 * sign-up must (issue 41); `dateOfBirth` overrides the date.
 */
export async function submitCredentials(
  page: Page,
  email: string,
  password: string,
  button: 'Sign In' | 'Create Account',
  dateOfBirth: string = MEMBER_DATA.date_of_birth,
) {
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Email').fill(email);
  await panel.getByLabel('Password').fill(password);
  if (button === 'Create Account') {
    await panel.getByLabel('Date of birth').fill(dateOfBirth);
    await panel.getByRole('checkbox', { name: /I accept the Terms of Service/ }).check();
  }
  await panel.getByRole('button', { name: button, exact: true }).click();
}

export async function signInThroughForm(page: Page, email: string, password: string) {
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await submitCredentials(page, email, password, 'Sign In');
}

/** Signs out from the header's user menu. */
export async function signOutFromMenu(page: Page) {
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
}
