import path from 'node:path';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { expectToast } from '../support/edits';
import { ARTIFACTS_DIR } from '../support/paths';
import { paymentsOf, subscriptionOf, upgradeToSandboxCheckout } from '../support/premium';
import { ASTRONAUT, signUp, useSession, type TestAccount } from '../support/score';
import type { Page } from '@playwright/test';

/**
 * Premium through the embedded sandbox provider: Upgrade, the test checkout,
 * and what Premium changes. The server grants Premium only from the
 * provider's events (the sandbox's Pay emits them), never from the browser
 * coming back to /premium?success=true.
 */

async function shot(page: Page, viewport: string, name: string) {
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, name), fullPage: true, animations: 'disabled' });
}

/** Upgrade, Pay in the sandbox, and back through /premium?success=true to the dashboard. */
async function buyPremium(page: Page) {
  await upgradeToSandboxCheckout(page);
  await page.getByRole('button', { name: 'Pay $9.99 / month' }).click();
  await expect(page).toHaveURL(/\/premium\?success=true$/);
  await expect(page.getByTestId('premium-success')).toContainText('Payment successful! Welcome to Premium.');
  // A recheck after 2 s, then the dashboard 1 s later.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
}

test.describe('Premium', () => {
  // A declined test card is the server's 402 `card_declined`, and a second Pay
  // of a paid checkout or an Upgrade while subscribed a 409; Chromium logs
  // every non-2xx response it loads. (One pattern: test.use reads a
  // two-element array as a value and its options.)
  test.use({
    allowedConsoleErrors: [
      /status of (402 \(Payment Required\).*\/api\/v1\/billing\/sandbox\/[^/]+\/decline|409 \(Conflict\).*(\/api\/v1\/billing\/sandbox\/[^/]+\/pay|\/functions\/v1\/create-checkout))/,
    ],
  });

  test('sign in, Upgrade, pay in the sandbox: Premium Member on the dashboard, and edits are unlimited', async ({ page, request }) => {
    // A long walk (checkout, the 3 s return, six edits) on a shared 2-core machine.
    test.slow();
    const account = await signUp(request);
    await useSession(page, account);
    await page.goto('/premium');
    await expect(page.getByTestId('premium-price')).toHaveText('$9.99');
    expect((await subscriptionOf(request, account)).subscribed).toBe(false);

    await upgradeToSandboxCheckout(page);
    await expect(page.getByTestId('sandbox-notice')).toContainText('no money moves');
    await expect(page.getByTestId('sandbox-description')).toContainText('Premium Editing');
    await page.getByRole('button', { name: 'Pay $9.99 / month' }).click();
    await expect(page).toHaveURL(/\/premium\?success=true$/);
    await expect(page.getByTestId('premium-success')).toContainText('Payment successful! Welcome to Premium.');
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
    await expect(page.getByTestId('premium-member-badge')).toHaveText('Premium Member');

    const status = await subscriptionOf(request, account);
    expect(status).toMatchObject({ subscribed: true, plan: 'premium_editing', cancel_at_period_end: false });
    const paid = (await paymentsOf(request, account)).filter((payment) => payment.status === 'succeeded');
    expect(paid.map((payment) => payment.amount_cents)).toEqual([999]);

    // A member sees the plan and its renewal date on /premium instead of Upgrade.
    await page.goto('/premium');
    await expect(page.getByTestId('premium-member')).toContainText("You're a Premium Member");
    await expect(page.getByTestId('premium-renewal')).toContainText('Renews on');
    await expect(page.getByRole('button', { name: 'Upgrade to Premium' })).toHaveCount(0);

    // The editor opens without a trial, and edits are unlimited: more than the 5 free ones.
    await page.goto('/editor');
    await expect(page.getByRole('heading', { level: 1, name: 'AI Photo Editor' })).toBeVisible();
    await expect(page.getByTestId('gate-trial')).toHaveCount(0);
    await expect(page.getByTestId('edits-remaining')).toHaveText('Unlimited edits');
    await page.getByTestId('editor-input').setInputFiles(ASTRONAUT);
    for (let i = 1; i <= 6; i += 1) {
      await page.getByRole('button', { name: 'Retouch' }).click();
      await expect(page.getByTestId('history-step')).toHaveText(`Retouch · step ${i + 1} of ${i + 1}`, { timeout: 30_000 });
    }
    await expectToast(page, 'Photo edited! You have unlimited edits.');
    await expect(page.getByTestId('out-of-edits')).toHaveCount(0);
  });

  test('two tabs: Upgrade in both opens one checkout, paid once; the second Pay and a later Upgrade say so', async ({ page, request }) => {
    test.slow();
    const account = await signUp(request);
    await useSession(page, account);
    const second = await page.context().newPage();
    await upgradeToSandboxCheckout(page);
    await upgradeToSandboxCheckout(second);
    // One open checkout per user and thing: the second tab is offered the first tab's.
    expect(new URL(second.url()).pathname).toBe(new URL(page.url()).pathname);

    await page.getByRole('button', { name: 'Pay $9.99 / month' }).click();
    await expect(page).toHaveURL(/\/premium\?success=true$/);
    await second.getByRole('button', { name: 'Pay $9.99 / month' }).click();
    await expect(second.getByRole('alert')).toHaveText('This checkout has been paid already.');
    await expect(second.getByTestId('sandbox-closed')).toContainText('This checkout is already paid.');
    await expect(second.getByRole('button', { name: 'Pay $9.99 / month' })).toHaveCount(0);

    // A new Upgrade from a tab that still shows the offer is refused by the server.
    await second.route('**/functions/v1/check-subscription', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ subscribed: false, plan: null, status: null, expires_at: null, cancel_at_period_end: false }),
      }),
    );
    await second.goto('/premium');
    await second.getByRole('button', { name: 'Upgrade to Premium' }).click();
    await expectToast(second, 'You are already a Premium member.');
    await expect(second).toHaveURL(/\/premium$/);
    await second.unroute('**/functions/v1/check-subscription');

    const paid = (await paymentsOf(request, account)).filter((payment) => payment.status === 'succeeded');
    expect(paid.map((payment) => payment.amount_cents)).toEqual([999]);
    expect(await subscriptionOf(request, account)).toMatchObject({ subscribed: true, plan: 'premium_editing' });
  });

  test('a declined card says so clearly and grants nothing', async ({ page, request }) => {
    const account = await signUp(request);
    await useSession(page, account);
    await upgradeToSandboxCheckout(page);
    const checkoutUrl = page.url();

    await page.getByRole('button', { name: 'Decline card' }).click();
    await expect(page.getByTestId('sandbox-declined')).toContainText('Your card was declined');
    await expect(page.getByTestId('sandbox-declined')).toContainText('nothing was granted');
    expect(page.url()).toBe(checkoutUrl);

    expect((await subscriptionOf(request, account)).subscribed).toBe(false);
    expect((await paymentsOf(request, account)).filter((payment) => payment.status === 'succeeded')).toEqual([]);

    // Cancel goes back to /premium, still not a member.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/premium\?canceled=true$/);
    await expect(page.getByTestId('premium-canceled')).toContainText('Checkout canceled');
    await expect(page.getByRole('button', { name: 'Upgrade to Premium' })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByTestId('premium-offer')).toBeVisible();
    await expect(page.getByTestId('premium-member-badge')).toHaveCount(0);
    expect((await subscriptionOf(request, account)).subscribed).toBe(false);
  });

  test('Cancel in My Account keeps Premium to the end of the period, and Resume renews it again', async ({ page, request }) => {
    test.slow();
    const account: TestAccount = await signUp(request);
    await useSession(page, account);
    await buyPremium(page);

    await page.goto('/account');
    await expect(page.getByTestId('subscription-plan')).toHaveText('Premium Editing');
    const card = page.getByTestId('subscription-card');
    await expect(card).toContainText('Renews on');
    const renewal = (await page.getByTestId('subscription-date').textContent())!;
    const payment = page.getByTestId('payment-row');
    await expect(payment).toHaveCount(1);
    await expect(payment).toContainText('$9.99');
    await expect(payment).toContainText('Paid');

    await card.getByRole('button', { name: 'Cancel at Period End' }).click();
    await expectToast(page, `Premium will end on ${renewal}. You keep it until then.`);
    await expect(card).toContainText('Ends on');
    await expect(page.getByTestId('subscription-date')).toHaveText(renewal);
    expect(await subscriptionOf(request, account)).toMatchObject({ subscribed: true, cancel_at_period_end: true });

    // Still Premium until then.
    await page.goto('/dashboard');
    await expect(page.getByTestId('premium-member-badge')).toBeVisible();
    await page.goto('/premium');
    await expect(page.getByTestId('premium-renewal')).toContainText(`Ends on ${renewal}`);

    await page.goto('/account');
    await page.getByRole('button', { name: 'Resume Subscription' }).click();
    await expectToast(page, `Premium resumed. It renews on ${renewal}.`);
    await expect(card).toContainText('Renews on');
    expect(await subscriptionOf(request, account)).toMatchObject({ subscribed: true, cancel_at_period_end: false });
  });

  for (const viewport of viewports) {
    test(`/premium, the sandbox checkout and My Account look right at ${viewport.name}`, async ({ page, request }) => {
      // Five full-page screenshots, each after an axe check.
      test.slow();
      await page.setViewportSize(viewport.size);
      await useSession(page, await signUp(request));
      await page.goto('/premium');
      await expect(page.getByRole('table')).toBeVisible();
      await shot(page, viewport.name, 'premium-signed-in.png');

      await upgradeToSandboxCheckout(page);
      await shot(page, viewport.name, 'checkout-sandbox.png');
      await page.getByRole('button', { name: 'Decline card' }).click();
      await expect(page.getByTestId('sandbox-declined')).toBeVisible();
      await shot(page, viewport.name, 'checkout-sandbox-declined.png');

      await page.getByRole('button', { name: /^Pay / }).click();
      await expect(page).toHaveURL(/\/premium\?success=true$/);
      await shot(page, viewport.name, 'premium-success.png');
      await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
      await expect(page.getByTestId('premium-member-badge')).toBeVisible();
      await shot(page, viewport.name, 'dashboard-premium.png');

      // The declined attempt is listed as failed, the payment as paid.
      await page.goto('/account');
      await expect(page.getByTestId('payment-row')).toHaveCount(2);
      await expect(page.getByTestId('payment-row').filter({ hasText: 'Paid' })).toContainText('$9.99');
      await expect(page.getByTestId('payment-row').filter({ hasText: 'Failed' })).toHaveCount(1);
      await shot(page, viewport.name, 'account-premium.png');

      await page.goto('/editor');
      await expect(page.getByRole('heading', { level: 1, name: 'AI Photo Editor' })).toBeVisible();
    });
  }

  for (const viewport of viewports) {
    test(`back on /premium?success=true without paying, the wait ends after 30 s and says so at ${viewport.name}`, async ({ page, request }) => {
      await page.setViewportSize(viewport.size);
      const account = await signUp(request);
      await useSession(page, account);
      // The page's own timers, run ahead: its 15 rechecks every 2 s still
      // ask the server each time.
      await page.clock.install();
      await page.goto('/premium?success=true');
      await expect(page.getByTestId('premium-confirming')).toContainText('We are confirming your payment…');
      await page.clock.runFor(20_000);
      await expect(page.getByTestId('premium-confirming')).toBeVisible();
      await page.clock.runFor(11_000);
      const told = page.getByTestId('premium-no-payment');
      await expect(told).toContainText('We have not received a payment from you.');
      await expect(told).toContainText('If you left the checkout before paying, nothing was charged.');
      await expect(page.getByTestId('premium-confirming')).toHaveCount(0);
      await shot(page, viewport.name, 'premium-no-payment.png');
      await expect(told.getByRole('link', { name: 'My Account' })).toHaveAttribute('href', '/account');

      // Check again waits once more, and nothing was granted meanwhile.
      await told.getByRole('button', { name: 'Check again' }).click();
      await expect(page.getByTestId('premium-confirming')).toBeVisible();
      expect((await subscriptionOf(request, account)).subscribed).toBe(false);
    });
  }

  test('the editor offers its free trial once, then Premium', async ({ page, request }) => {
    await useSession(page, await signUp(request));
    await page.goto('/editor');
    const gate = page.getByTestId('gate-trial');
    await expect(gate).toContainText('You have one free trial');
    await gate.getByRole('button', { name: 'Use Free Trial' }).click();
    await expectToast(page, 'Trial activated! You can use the AI editor until you save one edited photo.');
    await expect(page.getByRole('heading', { level: 1, name: 'AI Photo Editor' })).toBeVisible();
    // Until an edit is saved onto a photo the trial still opens the editor on another visit; another trial is never offered.
    await page.goto('/premium');
    await page.goto('/editor');
    await expect(page.getByRole('heading', { level: 1, name: 'AI Photo Editor' })).toBeVisible();
    await expect(page.getByTestId('gate-trial')).toHaveCount(0);
  });

  test('signed out, /editor asks to sign in and Upgrade asks to sign in to upgrade', async ({ page }) => {
    await page.goto('/editor');
    await expect(page.getByTestId('gate-sign-in').getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth?returnTo=%2Feditor');
    await page.goto('/premium');
    await page.getByRole('button', { name: 'Upgrade to Premium' }).click();
    await expectToast(page, 'Please sign in to upgrade');
    await expect(page).toHaveURL(/\/auth\?returnTo=%2Fpremium$/);
  });
});
