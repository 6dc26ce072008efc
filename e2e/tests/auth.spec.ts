import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import {
  createAccount,
  enrolAuthenticator,
  lastMail,
  linkIn,
  PASSWORD,
  signInThroughForm,
  signOutFromMenu,
  submitCredentials,
  totp,
  uniqueEmail,
} from '../support/auth';
import type { Page } from '@playwright/test';

// Chromium reports every 4xx answer on the console; these tests expect some
// (a wrong password is a 400 from /auth/v1/token). One pattern per list:
// Playwright reads a two-element array option as [value, options].
const EXPECTED_4XX = [/Failed to load resource: the server responded with a status of 4\d\d/];

async function screenshot(page: Page, viewport: string, name: string) {
  await page.screenshot({
    path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Starts the authenticator setup on My Account; returns the secret it shows. */
async function startAuthenticatorSetup(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Set Up Authenticator App' }).click();
  const enrollment = page.getByTestId('mfa-enrollment');
  const qr = enrollment.getByRole('img', { name: /QR code/ });
  await expect(qr).toBeVisible();
  // The server's SVG (a data URL) really renders as a picture.
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await enrollment.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
  return secret;
}

// Signing out revokes the session on the server a moment before auth-js
// forgets it in the page: a data request of the page caught in that moment
// (the dashboard's photos, subscription, verification) is answered 401. The
// user sees nothing of it; only those answers are let pass in this file.
test.use({ allowedConsoleErrors: [/status of 401 \(Unauthorized\) \(http:\/\/[^)]*\/(api|functions)\/v1\//] });

test.describe('signing up, out and in', () => {
  test('sign up lands on /dashboard, sign out goes home, sign in again says "Welcome back!"', async ({ page }) => {
    const email = uniqueEmail('e2e-signup');
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await submitCredentials(page, email, PASSWORD, 'Create Account');
    await expect(page.getByText('Account created successfully! Redirecting...')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos' })).toBeVisible();
    // The session survives a reload (auth-js keeps it in local storage).
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('button', { name: 'Open user menu' })).toContainText(email);

    await signOutFromMenu(page);
    await expect(page.getByText('Signed out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();

    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    // The last address is prefilled.
    await expect(page.getByRole('tabpanel').getByLabel('Email')).toHaveValue(email);
    await page.getByRole('tabpanel').getByLabel('Password').fill(PASSWORD);
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test.describe('with a wrong password', () => {
    test.use({ allowedConsoleErrors: EXPECTED_4XX });

    test("shows the server's message and stays on /auth", async ({ page, request }) => {
      const { email } = await createAccount(request, 'e2e-wrong');
      await page.goto('/auth');
      await signInThroughForm(page, email, 'not the password');
      await expect(page.getByText('Invalid login credentials')).toBeVisible();
      await expect(page).toHaveURL(/\/auth$/);
    });
  });

  test('the form checks the fields before asking the server', async ({ page }) => {
    await page.goto('/auth');
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByRole('tabpanel').getByLabel('Email').fill('ada@example.com');
    await page.getByRole('tabpanel').getByLabel('Password').fill('12345');
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  });

  test('/dashboard sends a signed-out visitor to /auth and back after signing in', async ({ page, request }) => {
    const { email } = await createAccount(request, 'e2e-return');
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth\?returnTo=%2Fdashboard$/);
    await signInThroughForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);

    // And a ?returnTo= from elsewhere (the results page's "Sign In to Save") is followed too.
    await signOutFromMenu(page);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/account');
    await expect(page).toHaveURL(/\/auth\?returnTo=%2Faccount$/);
    await signInThroughForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId('account-email')).toHaveText(email);
  });
});

test.describe('two-factor authentication', () => {
  test('enrol an authenticator on My Account, then sign in with password and code', async ({ page }) => {
    const email = uniqueEmail('e2e-mfa');
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await submitCredentials(page, email, PASSWORD, 'Create Account');
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await page.getByRole('menuitem', { name: 'My Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText('Off: no authenticator app or security key is set up.')).toBeVisible();

    const secret = await startAuthenticatorSetup(page);
    await page.getByLabel('Code from the app').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify and Turn On' }).click();
    await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
    const apps = page.getByRole('list', { name: 'Your second factors' });
    await expect(apps.getByRole('listitem')).toHaveCount(1);
    await expect(apps.getByText('Verified')).toBeVisible();

    await signOutFromMenu(page);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/auth');
    await signInThroughForm(page, email, PASSWORD);
    const code = page.getByLabel('Authentication code');
    await expect(code).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await code.fill(totp(secret));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Signed in with the code (aal2), the app can be removed again.
    await page.goto('/account');
    await page.getByRole('button', { name: /^Remove / }).click();
    await expect(page.getByText('Second factor removed.')).toBeVisible();
    await expect(page.getByText('Off: no authenticator app or security key is set up.')).toBeVisible();
  });
});

test.describe('a second factor protects the pages, not only /auth', () => {
  // The password-only session's first calls are refused (403 insufficient_aal).
  test.use({ allowedConsoleErrors: EXPECTED_4XX });

  test('an enrolled user signs in, is asked for the code on the way to My Photos, and sees them after it', async ({
    page,
    request,
  }) => {
    const { email } = await createAccount(request, 'e2e-aal');
    const secret = await enrolAuthenticator(request, email);

    await page.goto('/auth');
    await signInThroughForm(page, email, PASSWORD);
    await expect(page.getByLabel('Authentication code')).toBeVisible();
    // Skipping the code step: the page itself asks for the code and shows no data.
    await page.goto('/dashboard');
    const code = page.getByLabel('Authentication code');
    await expect(code).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos' })).toBeHidden();
    await code.fill(totp(secret));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos' })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('forgotten password', () => {
  test('reset through the mailed link, end signed in, and sign in with the new password', async ({ page, request }) => {
    const { email } = await createAccount(request, 'e2e-reset');
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/auth\/reset$/);
    // The router keeps /auth (with its own Email field) on screen until the
    // reset page's code has loaded: fill the reset page's field, not that one.
    await expect(page.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('main').getByText(/Check your email for a reset link/)).toBeVisible();

    const mail = await lastMail(request, email);
    expect(mail.kind).toBe('recovery');
    await page.goto(linkIn(mail));
    await expect(page).toHaveURL(/\/auth\/reset/);
    const field = page.getByLabel('New password');
    await expect(field).toBeVisible();
    await field.fill('a brand new password');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Password updated!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);

    await signOutFromMenu(page);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/auth');
    await signInThroughForm(page, email, 'a brand new password');
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an unknown address gets the same answer', async ({ page }) => {
    await page.goto('/auth/reset');
    await page.getByLabel('Email').fill(uniqueEmail('e2e-nobody'));
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('main').getByText(/Check your email for a reset link/)).toBeVisible();
  });
});

test.describe('my data', () => {
  test.use({ allowedConsoleErrors: EXPECTED_4XX });

  test('download it as prettyscore-data.json, then delete the account', async ({ page, request }) => {
    const { email } = await createAccount(request, 'e2e-data');
    await page.goto('/auth');
    await signInThroughForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/account');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download My Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('prettyscore-data.json');
    const data = JSON.parse(await fs.readFile((await download.path())!, 'utf8')) as unknown;
    expect(JSON.stringify(data)).toContain(email);

    await page.getByRole('button', { name: 'Delete My Account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog.getByRole('button', { name: 'Delete Forever' })).toBeDisabled();
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete Forever' }).click();
    await expect(page.getByText('Your account and all of its data have been deleted.')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();

    await page.goto('/auth');
    await signInThroughForm(page, email, PASSWORD);
    await expect(page.getByText('Invalid login credentials')).toBeVisible();
  });
});

for (const viewport of viewports) {
  test.describe(`the screens at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size, allowedConsoleErrors: EXPECTED_4XX });

    test('/auth, both tabs and an error, with no serious axe violations', async ({ page, request }) => {
      const { email } = await createAccount(request, 'e2e-shot');
      await page.goto('/auth');
      await expect(page.locator('h1')).toHaveCount(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, viewport.name, 'auth-sign-in');

      await signInThroughForm(page, email, 'wrong password');
      await expect(page.getByText('Invalid login credentials')).toBeVisible();
      await screenshot(page, viewport.name, 'auth-sign-in-error');

      await page.getByRole('tab', { name: 'Sign Up' }).click();
      await page.getByRole('tabpanel').getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Email is required')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, viewport.name, 'auth-sign-up-errors');
    });

    test('/auth/reset and /account with the QR code, with no serious axe violations', async ({ page, request }) => {
      await page.goto('/auth/reset');
      await expect(page.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, viewport.name, 'auth-reset');

      const { email } = await createAccount(request, 'e2e-shot-account');
      await page.goto('/auth?returnTo=%2Faccount');
      await signInThroughForm(page, email, PASSWORD);
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
      await startAuthenticatorSetup(page);
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, viewport.name, 'account-qr');

      await page.getByRole('button', { name: 'Delete My Account' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, viewport.name, 'account-delete-dialog');
    });
  });
}
