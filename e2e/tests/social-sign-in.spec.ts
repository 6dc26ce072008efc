/**
 * "Continue with Test ID": the test OpenID Connect provider global-setup.ts
 * starts (e2e/support/oidc-provider.mjs, a real oidc-provider) behind the
 * web app's buttons on /auth and the Sign-in methods card on /account, at
 * both widths, with axe and screenshots.
 */
import type { Page } from '@playwright/test';
import { expect, test, viewports } from '../support/fixtures';
import { createAccount, signInThroughForm, uniqueEmail } from '../support/auth';
import { shoot } from '../support/screenshots';

/** The provider's sign-in page: who signs in, and whether it vouches for the address. */
async function signInAtTheProvider(page: Page, email: string, { verified = true } = {}) {
  await expect(page).toHaveTitle('Test ID — sign in');
  await page.getByLabel('Email', { exact: true }).fill(email);
  if (!verified) await page.getByLabel('Email verified').uncheck();
  await page.getByRole('button', { name: 'Continue' }).click();
}

// A refused sign-in comes back with a 4xx from /auth/v1 only in the console
// of the failed-link case; nothing else is expected.
test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 4\d\d/] });

for (const viewport of viewports) {
  test.describe(`social sign-in at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('a new person is asked their date of birth and the terms before Test ID makes their account', async ({ page }) => {
      // Two trips to the provider, each with its sign-in form.
      test.slow();
      const email = uniqueEmail('e2e-oidc');
      await page.goto('/auth');
      const button = page.getByRole('button', { name: 'Continue with Test ID' });
      await expect(button).toBeVisible();
      await shoot(page, viewport.name, 'auth-with-providers');

      // From the Sign In tab: no account is made without a date of birth;
      // the page comes back on the Sign Up tab and says why.
      await button.click();
      await signInAtTheProvider(page, email);
      await expect(page).toHaveURL(/\/auth(\?.*)?$/);
      await expect(page.getByRole('alert')).toContainText('please tell us your date of birth and accept our terms first');
      await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');

      // The Sign Up tab asks before it leaves; a minor is refused here.
      await page.getByRole('button', { name: 'Continue with Test ID' }).click();
      const step = page.getByTestId('social-sign-up-step');
      await step.getByLabel('Date of birth').fill(`${new Date().getUTCFullYear() - 16}-06-01`);
      await step.getByRole('checkbox').check();
      await step.getByRole('button', { name: 'Continue with Test ID' }).click();
      await expect(page.getByText(/you need to be 18 or older/)).toBeVisible();
      await expect(page).toHaveURL(/\/auth(\?.*)?$/);
      await step.getByLabel('Date of birth').fill('1990-05-17');
      await shoot(page, viewport.name, 'auth-social-sign-up-step');
      await step.getByRole('button', { name: 'Continue with Test ID' }).click();
      await signInAtTheProvider(page, email);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { level: 1, name: 'My Photos' })).toBeVisible();

      // The date and the terms came with the account: the community is open.
      await page.goto('/account/community');
      await expect(page.getByText("You're all set")).toBeVisible();

      // The account page knows how this person signs in.
      await page.goto('/account');
      const methods = page.getByRole('list', { name: 'Your sign-in methods' });
      await expect(methods.getByText(email)).toBeVisible();
      await expect(methods.getByText('Test ID', { exact: true })).toBeVisible();
      // Its only way in cannot be unlinked.
      await expect(methods.getByRole('button', { name: 'Unlink Test ID' })).toBeDisabled();
      await shoot(page, viewport.name, 'account-sign-in-methods');

      // Signing in again from the Sign In tab needs nothing more.
      await page.evaluate(() => window.localStorage.clear());
      await page.goto('/auth');
      await page.getByRole('button', { name: 'Continue with Test ID' }).click();
      await signInAtTheProvider(page, email);
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test('a password account links Test ID, then unlinks it', async ({ page, request }) => {
      const { email, password } = await createAccount(request, 'e2e-link');
      await page.goto('/auth?returnTo=%2Faccount');
      await signInThroughForm(page, email, password);
      await expect(page).toHaveURL(/\/account$/);
      const methods = page.getByRole('list', { name: 'Your sign-in methods' });
      await page.getByRole('button', { name: 'Link Test ID' }).click();
      await signInAtTheProvider(page, `other-${email}`);
      await expect(page).toHaveURL(/\/account$/);
      await expect(methods.getByText(`other-${email}`)).toBeVisible();
      await shoot(page, viewport.name, 'account-linked');

      await methods.getByRole('button', { name: 'Unlink Test ID' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Unlink Test ID?' });
      await expect(confirm).toBeVisible();
      await shoot(page, viewport.name, 'account-unlink-confirm');
      await confirm.getByRole('button', { name: 'Unlink' }).click();
      await expect(methods.getByText(`other-${email}`)).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Link Test ID' })).toBeVisible();
      // The password is now the only way in.
      await expect(methods.getByRole('button', { name: 'Unlink Email and password' })).toBeDisabled();
    });

    test('an unverified address that has an account is told to sign in first', async ({ page, request }) => {
      const { email } = await createAccount(request, 'e2e-takeover');
      await page.goto('/auth');
      await page.getByRole('button', { name: 'Continue with Test ID' }).click();
      await signInAtTheProvider(page, email, { verified: false });
      await expect(page).toHaveURL(/\/auth(\?.*)?$/);
      await expect(page.getByText(/Test ID has not verified the address/)).toBeVisible();
      expect(page.url()).not.toContain('error_description');
      await shoot(page, viewport.name, 'auth-provider-error');
    });
  });
}
