/**
 * Helpers for the premium flows: the AI editor's free trial, and buying
 * Premium through the embedded sandbox checkout (the server's default
 * payment provider: no account anywhere, no money moves).
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { expectToast } from './edits';
import type { TestAccount } from './score';

/** The start of every trial's toast; the rest says what that feature's trial gives. */
export const TRIAL_ACTIVATED = 'Trial activated! You can ';

/** On a gated page offering the free trial: uses it, then the page itself shows. */
export async function useFreeTrial(page: Page) {
  await page.getByTestId('gate-trial').getByRole('button', { name: 'Use Free Trial' }).click();
  await expectToast(page, TRIAL_ACTIVATED);
}

/** Opens /editor signed in (a fresh account) and enters it with the free trial. */
export async function openEditorWithTrial(page: Page) {
  await page.goto('/editor');
  await useFreeTrial(page);
  await expect(page.getByRole('heading', { level: 1, name: 'AI Photo Editor' })).toBeVisible();
}

export type SubscriptionStatus = {
  subscribed: boolean;
  plan: string | null;
  status: string | null;
  expires_at: string | null;
  cancel_at_period_end: boolean;
};

/** The server's answer for this account, asked directly (what the page shows must agree with it). */
export async function subscriptionOf(request: APIRequestContext, account: TestAccount): Promise<SubscriptionStatus> {
  const response = await request.post('/functions/v1/check-subscription', {
    headers: { Authorization: `Bearer ${account.accessToken}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as SubscriptionStatus;
}

export type PaymentItem = { id: string; purpose: string; amount_cents: number; status: string; created_at: string };

export async function paymentsOf(request: APIRequestContext, account: TestAccount): Promise<PaymentItem[]> {
  const response = await request.get('/api/v1/billing/payments', { headers: { Authorization: `Bearer ${account.accessToken}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as PaymentItem[];
}

/** From /premium: Upgrade, and the sandbox checkout page it leads to. */
export async function upgradeToSandboxCheckout(page: Page) {
  await page.goto('/premium');
  await page.getByRole('button', { name: 'Upgrade to Premium' }).click();
  await expect(page).toHaveURL(/\/checkout\/sandbox\/[^/]+$/);
  await expect(page.getByTestId('sandbox-amount')).toHaveText('$9.99 / month');
}
