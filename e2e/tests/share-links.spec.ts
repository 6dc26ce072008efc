import path from 'node:path';
import { lastMail, linkIn } from '../support/auth';
import { expectToast, getPhoto, savePhotoFile } from '../support/edits';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { ASTRONAUT, signUp, useSession } from '../support/score';

/** The path of an absolute share URL (the page or its card), for `request`. */
function pathOf(url: string): string {
  return new URL(url).pathname;
}

test.describe('share links the owner controls (issue 45)', () => {
  for (const viewport of viewports) {
    test(`a link made to last 7 days, then turned off from My Photos, at ${viewport.name}`, async ({ page, request }) => {
      await page.setViewportSize(viewport.size);
      const account = await signUp(request);
      const photo = await savePhotoFile(request, account, ASTRONAUT);
      await useSession(page, account);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: /^Details of your/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Photo Details' });
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();

      // The expiry choice: never by default, 7 days chosen.
      const lasts = dialog.getByRole('group', { name: 'The public link works' });
      await expect(lasts.getByRole('radio', { name: 'Until I turn it off' })).toBeChecked();
      await lasts.getByText('7 days').click();
      await expect(lasts.getByRole('radio', { name: '7 days' })).toBeChecked();
      await dialog.getByRole('button', { name: 'Create Share Link' }).click();
      await expect(dialog.getByTestId('share-panel')).toBeVisible();
      await expect(dialog.getByTestId('share-link-lifetime')).toHaveText(/^The link works until /);

      const shared = (await getPhoto(request, account, photo.id)) as unknown as {
        share: { share_url: string; card_url: string; expires_at: string } | null;
      };
      expect(shared.share).not.toBeNull();
      const days = (new Date(shared.share!.expires_at).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThan(7.1);
      const pagePath = pathOf(shared.share!.share_url);
      const cardPath = pathOf(shared.share!.card_url);
      const before = await request.get(pagePath);
      expect(before.status()).toBe(200);
      expect(before.headers()['cache-control']).toBe('public, no-cache');
      expect((await request.get(cardPath)).status()).toBe(200);

      await dialog.getByTestId('share-link-lifetime').scrollIntoViewIfNeeded();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'dashboard-share-link.png'),
        animations: 'disabled',
      });

      await dialog.getByRole('button', { name: 'Turn Off Link' }).click();
      await expectToast(page, 'Share link turned off. Its page no longer opens.');
      await expect(dialog.getByRole('button', { name: 'Create Share Link' })).toBeVisible();
      expect((await request.get(pagePath)).status()).toBe(404);
      expect((await request.get(cardPath)).status()).toBe(404);
      expect((await getPhoto(request, account, photo.id)) as unknown as { share: unknown }).toMatchObject({ share: null });
      await page.screenshot({
        path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'dashboard-share-expiry-choice.png'),
        animations: 'disabled',
      });
    });
  }

  test('"this wasn\'t me" from a security mail signs out everywhere and mails a reset link', async ({ page, request }) => {
    const account = await signUp(request);
    const changed = await request.put('/auth/v1/user', {
      headers: { Authorization: `Bearer ${account.accessToken}` },
      data: { password: 'changed by someone else' },
    });
    expect(changed.ok(), await changed.text()).toBe(true);
    const notice = await lastMail(request, account.email);
    expect(notice.kind).toBe('security_password_changed');
    const link = new URL(linkIn(notice));
    expect(link.pathname).toBe('/account/secure');

    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Secure Your Account' })).toBeVisible();
    for (const viewport of viewports) {
      await page.setViewportSize(viewport.size);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'account-secure-from-mail.png'),
        animations: 'disabled',
      });
    }
    await page.getByRole('button', { name: 'Sign Out Everywhere and Reset Password' }).click();
    await expect(page.getByTestId('secure-account-done')).toContainText('We sent a link to set a new password');
    // The session is gone on the server, and the reset mail is on its way.
    const me = await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${account.accessToken}` } });
    expect(me.ok()).toBe(false);
    expect((await lastMail(request, account.email)).kind).toBe('recovery');
  });
});
