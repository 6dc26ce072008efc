/**
 * Passkeys and security keys with Chromium's virtual authenticator (CDP
 * `WebAuthn.addVirtualAuthenticator`), at both widths, with axe and
 * screenshots: add a passkey on /account and sign in with it on /auth,
 * rename and remove it; add a security key as a second factor and complete
 * a password sign-in with it.
 *
 * Browsers refuse an IP address as a relying party id, and the server's
 * relying party for a server bound to 127.0.0.1 is `localhost`: these pages
 * are opened at http://localhost:PORT.
 */
import type { Page } from '@playwright/test';
import { expect, test as base, viewports } from '../support/fixtures';
import { createAccount, signInThroughForm, signOutFromMenu } from '../support/auth';
import { shoot } from '../support/screenshots';

const test = base.extend({
  baseURL: async ({}, use) => {
    const url = process.env.PRETTYSCORE_BASE_URL;
    if (!url) throw new Error('PRETTYSCORE_BASE_URL is not set: global setup did not start a server');
    await use(url.replace('//127.0.0.1:', '//localhost:'));
  },
});

// Signing in with a passkey the account no longer has: the server's 400 shows in the console.
test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 400/] });

/**
 * An authenticator that holds discoverable credentials and always verifies
 * the user, in this page only: built into the device (`internal`, as Face ID
 * or a fingerprint) or a USB security key (auth-js asks for a cross-platform
 * one for a second factor).
 */
async function addVirtualAuthenticator(page: Page, transport: 'internal' | 'usb' = 'internal') {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

for (const viewport of viewports) {
  test.describe(`passkeys at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('a user adds a passkey, signs in with it, renames and removes it', async ({ page, request }) => {
      const authenticator = await addVirtualAuthenticator(page);
      const { email, password } = await createAccount(request, 'e2e-passkey');
      await page.goto('/auth?returnTo=%2Faccount');
      await signInThroughForm(page, email, password);
      await expect(page).toHaveURL(/\/account$/);

      await expect(page.getByText('No passkey yet.')).toBeVisible();
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      const passkeys = page.getByRole('list', { name: 'Your passkeys' });
      await expect(passkeys.getByText('Passkey', { exact: true })).toBeVisible();
      await expect(passkeys.getByText(/Not used yet/)).toBeVisible();
      expect(await authenticator.credentials()).toHaveLength(1);
      await shoot(page, viewport.name, 'account-passkeys');

      // Signed out, the passkey is the way back in: no address, no password.
      await signOutFromMenu(page);
      await expect(page.getByText('Signed out successfully')).toBeVisible();
      await page.goto('/auth?returnTo=%2Faccount');
      await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      await shoot(page, viewport.name, 'auth-with-passkey');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByTestId('account-email')).toHaveText(email);
      await expect(passkeys.getByText(/Last used/)).toBeVisible();

      await passkeys.getByRole('button', { name: 'Rename Passkey' }).click();
      await page.getByLabel('Passkey name').fill('My phone');
      await passkeys.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(passkeys.getByText('My phone', { exact: true })).toBeVisible();

      await passkeys.getByRole('button', { name: 'Remove My phone' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Remove My phone?' });
      await expect(confirm).toBeVisible();
      await shoot(page, viewport.name, 'account-passkey-remove');
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByText('No passkey yet.')).toBeVisible();

      // The device still holds the key, but the account no longer knows it.
      await signOutFromMenu(page);
      await expect(page.getByText('Signed out successfully')).toBeVisible();
      await page.goto('/auth');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(page.getByText(/That passkey could not be used/)).toBeVisible();
      await expect(page).toHaveURL(/\/auth/);
    });

    test('a security key is a second factor for a password sign-in', async ({ page, request }) => {
      await addVirtualAuthenticator(page, 'usb');
      const { email, password } = await createAccount(request, 'e2e-key');
      await page.goto('/auth?returnTo=%2Faccount');
      await signInThroughForm(page, email, password);
      await expect(page).toHaveURL(/\/account$/);

      await page.getByRole('button', { name: 'Add a Security Key' }).click();
      const factors = page.getByRole('list', { name: 'Your second factors' });
      await expect(factors.getByText('Security key', { exact: true })).toBeVisible();
      await shoot(page, viewport.name, 'account-security-key');

      await signOutFromMenu(page);
      await expect(page.getByText('Signed out successfully')).toBeVisible();
      await page.goto('/auth?returnTo=%2Faccount');
      await signInThroughForm(page, email, password);
      const useKey = page.getByRole('button', { name: 'Use Your Security Key' });
      await expect(useKey).toBeVisible();
      await shoot(page, viewport.name, 'auth-security-key-step');
      await useKey.click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByTestId('account-email')).toHaveText(email);
    });
  });
}
