/**
 * The opportunity application: a visitor is sent to sign in and comes back
 * to the form; a bad phone number gets the spec's message, a good submit is
 * received (with the confirmation mail and its 48-hour promise), and a second
 * application is refused as a duplicate. An admin then sees it on
 * /admin/opportunities and marks it contacted. Screenshots at 375 and 1280
 * px with axe checks.
 */
import type { Page } from '@playwright/test';
import { grantAdmin } from '../support/admin';
import { lastMail, PASSWORD, submitCredentials } from '../support/auth';
import { expect, test, viewports } from '../support/fixtures';
import { signUp, useSession } from '../support/score';
import { shoot } from '../support/screenshots';

async function fill(page: Page, name: string) {
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Instagram (optional)').fill('@eileen.c');
  await page.getByLabel('Location').fill('Houston, USA');
  await page.getByLabel('Bio (optional)').fill('Pilot, and happy in front of a camera.');
  await page.getByRole('checkbox', { name: 'Commercial Modeling' }).check();
  await page.getByRole('checkbox', { name: 'Brand Partnerships' }).check();
  await page.getByRole('checkbox', { name: /I agree to the terms/ }).check();
}

test.describe('opportunity applications', () => {
  test('sign in from the prompt, a bad phone number, a good submit, then a duplicate', async ({ browser, request }) => {
    const applicant = await signUp(request);
    const name = `Eileen ${Date.now().toString(36)}`;
    const page = await (await browser.newContext()).newPage();

    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await page.goto('/claim-opportunities');
      await expect(page.getByTestId('opportunities-sign-in')).toBeVisible();
      await shoot(page, viewport.name, 'claim-opportunities-signed-out');
    }
    await page.getByTestId('opportunities-sign-in').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/auth\?returnTo=%2Fclaim-opportunities/);
    await submitCredentials(page, applicant.email, PASSWORD, 'Sign In');
    await expect(page).toHaveURL(/\/claim-opportunities$/);
    // The account's address, shown and not typed: the confirmation goes there.
    await expect(page.getByLabel('Email')).toHaveValue(applicant.email);
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');

    await fill(page, name);
    await page.getByLabel('Phone (optional)').fill('0044 20 7946');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page.getByText('Phone must be in E.164 format (e.g., +14155552671)')).toBeVisible();
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'claim-opportunities-bad-phone');
    }

    await page.getByLabel('Phone (optional)').fill('+14155552671');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page.getByText('Application submitted! Our team will contact you within 48 hours.')).toBeVisible();
    await expect(page.getByTestId('application-received')).toContainText(name);
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      await shoot(page, viewport.name, 'claim-opportunities-received');
    }
    const mail = await lastMail(request, applicant.email);
    expect(mail.subject).toContain('application');
    expect(mail.body_text).toContain('within 48 hours');

    // A second tab that still shows the form (opened before the first submit
    // finished, say) gets the duplicate answer and then the application on file.
    const second = await page.context().newPage();
    await second.route('**/api/v1/opportunities/applications/mine', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 'not_found', message: 'You have not applied yet' }) }),
    );
    await second.goto('/claim-opportunities');
    await fill(second, name);
    await second.unroute('**/api/v1/opportunities/applications/mine');
    await second.getByRole('button', { name: 'Submit Application' }).click();
    await expect(second.getByText("You've already submitted an application")).toBeVisible();
    await expect(second.getByTestId('application-received')).toBeVisible();

    // The admin sees it, newest first, and marks it contacted.
    const admin = await signUp(request);
    await grantAdmin(admin.email);
    const adminPage = await (await browser.newContext()).newPage();
    await useSession(adminPage, admin);
    for (const viewport of viewports) {
      await adminPage.setViewportSize(viewport.size);
      await adminPage.goto('/admin/opportunities');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Opportunity Applications' })).toBeVisible();
      await expect(adminPage.getByRole('listitem', { name })).toBeVisible();
      await shoot(adminPage, viewport.name, 'admin-opportunities');
    }
    await adminPage.getByRole('listitem', { name }).getByRole('button', { name: 'Mark Contacted' }).click();
    await expect(adminPage.getByRole('listitem', { name })).toContainText('Contacted');
    await page.reload();
    await expect(page.getByText(/Our team has been in touch/)).toBeVisible();
  });
});
