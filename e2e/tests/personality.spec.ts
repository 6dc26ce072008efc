/**
 * The personality test: a user without Premium starts the free trial, takes
 * the 20-question quiz (an answer is needed to go on), sees the basic
 * result, buys the detailed analysis in the sandbox checkout and sees it on
 * coming back. Screenshots at 375 and 1280 px with axe checks.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { signUp, useSession } from '../support/score';

async function shoot(page: Page, viewport: string, name: string) {
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`), fullPage: true, animations: 'disabled' });
}

test.describe('the personality test', () => {
  test('trial, the quiz, the basic result, then the detailed analysis bought in the sandbox', async ({ page, request }) => {
    const account = await signUp(request);
    await useSession(page, account);
    await page.goto('/personality-test');
    await page.getByTestId('gate-trial').getByRole('button', { name: 'Use Free Trial' }).click();

    const question = page.getByTestId('quiz-question');
    await expect(question).toContainText('Question 1 of 20');
    await expect(question).toContainText('Recharging');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Please select an answer')).toBeVisible();
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'personality-question');
    }

    for (let i = 1; i <= 20; i += 1) {
      await expect(question).toContainText(`Question ${i} of 20`);
      // The first option on even questions, the second on odd ones.
      await question.getByRole('radio').nth(i % 2).check();
      await page.getByRole('button', { name: i === 20 ? 'See My Results' : 'Next' }).click();
    }
    const result = page.getByTestId('personality-result');
    await expect(result).toBeVisible();
    const type = await page.getByTestId('personality-type').textContent();
    expect(type).toMatch(/^The [A-Z][a-z]+$/);
    await expect(page.getByTestId('detailed-offer')).toContainText('$4.99');
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'personality-basic-result');
    }

    await page.getByRole('button', { name: 'Get Detailed Analysis ($4.99)' }).click();
    await expect(page.getByTestId('sandbox-description')).toContainText('personality');
    await page.getByRole('button', { name: 'Pay $4.99' }).click();
    await expect(page).toHaveURL(/\/personality-test$/);
    await expect(page.getByText('Detailed analysis', { exact: true })).toBeVisible();
    await expect(page.getByTestId('personality-type')).toHaveText(type!);
    const analysis = page.getByTestId('personality-analysis');
    await expect(analysis.getByRole('heading', { name: 'How you work with others' })).toBeVisible();
    await expect(analysis.getByRole('heading', { name: 'Your strengths' })).toBeVisible();
    await expect(page.getByTestId('detailed-offer')).toHaveCount(0);
    await expect(page.getByText('Payment successful! Your detailed analysis is ready.')).toBeVisible();
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'personality-detailed-result');
    }
    // A reload shows the bought analysis, never the offer again.
    await page.reload();
    await expect(page.getByTestId('personality-analysis').getByRole('heading', { name: 'Your strengths' })).toBeVisible();
    await expect(page.getByTestId('detailed-offer')).toHaveCount(0);

    // The purchase belongs to the saved result: one result, now detailed and paid.
    const saved = await request.get('/api/v1/personality/results', { headers: { Authorization: `Bearer ${account.accessToken}` } });
    const results = (await saved.json()) as { quizType: string; paid: boolean }[];
    expect(results.map((r) => [r.quizType, r.paid])).toEqual([['detailed', true]]);
  });
});
