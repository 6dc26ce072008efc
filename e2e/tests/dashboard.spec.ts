import path from 'node:path';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { expectToast, filteredCopy, getPhoto, savePhotoFile } from '../support/edits';
import { ARTIFACTS_DIR } from '../support/paths';
import { useFreeTrial } from '../support/premium';
import { ASTRONAUT, signUp, useSession } from '../support/score';

test.describe('My Photos', () => {
  test('signed out, /dashboard goes to sign in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth\?returnTo=%2Fdashboard$/);
  });

  test('a new account sees the empty state', async ({ page, request }) => {
    const account = await signUp(request);
    await useSession(page, account);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos (0)' })).toBeVisible();
    await expect(page.getByText("You haven't uploaded any photos yet")).toBeVisible();
    await page.getByRole('link', { name: 'Upload Your First Photo' }).click();
    await expect(page).toHaveURL(/\/upload$/);
  });

  for (const viewport of viewports) {
    test(`disabled hair and outfit presets say why, and the built-in edits are one tap away, at ${viewport.name}`, async ({ page, request }) => {
      await page.setViewportSize(viewport.size);
      const account = await signUp(request);
      const photo = await savePhotoFile(request, account, ASTRONAUT);
      await useSession(page, account);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: /^Details of your/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Photo Details' });
      await dialog.getByRole('button', { name: 'Edit Photo' }).click();
      for (const [tab, preset] of [
        ['Hair', 'Curly Hair'],
        ['Outfit', 'Denim Jacket'],
      ] as const) {
        await dialog.getByRole('tab', { name: tab }).click();
        const button = dialog.getByRole('button', { name: preset, exact: true });
        await expect(button).toBeDisabled();
        await expect(button).toHaveAccessibleDescription('Needs generative AI');
        await expect(dialog.getByTestId('built-in-alternatives').getByRole('button')).toHaveText([
          'Retouch Skin',
          'Enhance',
          'Studio White',
          'Blur Background',
          'Warm Style',
          'Cinematic Style',
        ]);
      }
      await dialog.getByTestId('built-in-alternatives').scrollIntoViewIfNeeded();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'dashboard-inline-outfit-alternatives.png'),
        animations: 'disabled',
      });
      // One tap: the warm style is applied to the saved photo by the server.
      await dialog.getByTestId('built-in-alternatives').getByRole('button', { name: 'Warm Style' }).click();
      await expectToast(page, 'Photo edited successfully!');
      await expect(dialog.getByTestId('after-image')).toHaveAttribute('src', /^\/media\//);
      await expect.poll(async () => (await getPhoto(request, account, photo.id)).edited_image_url).toBeTruthy();
    });
  }

  test('sort, open a photo, edit, undo, redo and download', async ({ page, request }) => {
    // Edits, undo, redo, two downloads and, since premium, the editor's trial: a long walk.
    test.slow();
    const account = await signUp(request);
    const first = await savePhotoFile(request, account, ASTRONAUT);
    const second = await savePhotoFile(request, account, await filteredCopy(page, ASTRONAUT, 'blur(2px)'));
    // The blurred copy scores lower, so the two sort orders differ.
    expect(first.score).toBeGreaterThan(second.score);
    await useSession(page, account);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos (2)' })).toBeVisible();
    await expect(page.getByTestId('user-email')).toHaveText(account.email);
    await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();

    const badges = page.getByTestId('photo-score');
    const fmt = (score: number) => `${score.toFixed(1)}/10`;
    // Latest first: the second upload leads.
    await expect(badges).toHaveText([fmt(second.score), fmt(first.score)]);
    await page.getByLabel('Sort by').selectOption({ label: 'Highest Rating' });
    const byRating = [first, second].sort((a, b) => b.score - a.score || b.created_at.localeCompare(a.created_at));
    await expect(badges).toHaveText(byRating.map((photo) => fmt(photo.score)));

    // The details dialog of the astronaut.
    await page.getByRole('button', { name: new RegExp(`^Details of your ${fmt(first.score).replace('/', '\\/')} photo`) }).click();
    const dialog = page.getByRole('dialog', { name: 'Photo Details' });
    await expect(dialog).toBeVisible();
    for (const name of ['Edit Photo', 'Download', 'Share', 'Delete']) await expect(dialog.getByRole('button', { name, exact: true })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Edit Photo' }).click();
    for (const tab of ['Background', 'Hair', 'Outfit']) await expect(dialog.getByRole('tab', { name: tab })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', '1280x800', 'dashboard-editor.png'), animations: 'disabled' });

    await dialog.getByRole('button', { name: 'Blur Background' }).click();
    await expectToast(page, 'Photo edited successfully!');
    const after = dialog.getByTestId('after-image');
    await expect(after).toHaveAttribute('src', /^\/media\//);
    const edited = await after.getAttribute('src');
    await expect.poll(async () => (await getPhoto(request, account, first.id)).edited_image_url).not.toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', '1280x800', 'dashboard-edited.png'), animations: 'disabled' });

    await dialog.getByRole('button', { name: 'Undo' }).click();
    await expectToast(page, 'Undo successful!');
    await expect.poll(async () => (await getPhoto(request, account, first.id)).edited_image_url).toBeNull();
    await dialog.getByRole('button', { name: 'Undo' }).click();
    await expectToast(page, 'No edits to undo');

    await dialog.getByRole('button', { name: 'Redo' }).click();
    await expect(after).toHaveAttribute('src', /^\/media\//);
    await expect(after).not.toHaveAttribute('src', edited!);
    await expect.poll(async () => (await getPhoto(request, account, first.id)).edited_image_url).not.toBeNull();

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^prettyscore-[0-9a-f]{8}-edited\.(jpg|png)$/);
    await expectToast(page, 'Photo downloaded!');
    const [hd] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download HD Version' }).click()]);
    expect(hd.suggestedFilename()).toMatch(/^prettyscore-[0-9a-f]{8}-edited-hd\.png$/);

    // Closing the dialog, the card shows the edit; clicking it opens the editor with it.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: new RegExp(`^Edit your ${fmt(first.score).replace('/', '\\/')} photo`) }).click();
    await expect(page).toHaveURL(/\/editor$/);
    // The editor is gated by ai_editor: the photo waits while the free trial is taken.
    await useFreeTrial(page);
    await expect(page.getByTestId('editor-image')).toHaveAttribute('src', /^\/media\//);
    await expect(page.getByTestId('editor-score')).toContainText(fmt(first.score));
  });

  test('a photo can be deleted, and its images leave storage', async ({ page, request }) => {
    const account = await signUp(request);
    const photo = await savePhotoFile(request, account, ASTRONAUT);
    await useSession(page, account);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: /^Details of your/ }).click();
    await page.getByRole('dialog', { name: 'Photo Details' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this photo?' });
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete Photo' }).click();
    await expectToast(page, 'Photo deleted');
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos (0)' })).toBeVisible();
    expect((await request.get(photo.original_image_url)).status()).toBeGreaterThanOrEqual(400);
  });

  for (const viewport of viewports) {
    test(`My Photos looks right at ${viewport.name}`, async ({ page, request }) => {
      const account = await signUp(request);
      await savePhotoFile(request, account, ASTRONAUT);
      await savePhotoFile(request, account, await filteredCopy(page, ASTRONAUT, 'blur(2px)'));
      await useSession(page, account);
      await page.setViewportSize(viewport.size);
      await page.goto('/dashboard');
      await expect(page.getByTestId('photo-card')).toHaveCount(2);
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'dashboard-photos.png'), fullPage: true, animations: 'disabled' });
      await page.getByRole('button', { name: /^Details of your/ }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Photo Details' });
      await expect(dialog).toBeVisible();
      const shot = (name: string) =>
        page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, name), animations: 'disabled' });
      await shot('dashboard-details.png');

      // The inline editor, before and after an edit.
      await dialog.getByRole('button', { name: 'Edit Photo' }).click();
      await expect(dialog.getByRole('tab', { name: 'Background' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await shot('dashboard-inline-editor.png');
      // Without a generative provider, the hair presets are shown disabled, with a note.
      await dialog.getByRole('tab', { name: 'Hair' }).click();
      await expect(dialog.getByRole('button', { name: 'Glossy Dark Hair' })).toBeDisabled();
      await expect(dialog.getByText('Hair and outfit changes need the generative AI editor')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await shot('dashboard-inline-hair.png');
      await dialog.getByRole('tab', { name: 'Background' }).click();
      await dialog.getByRole('button', { name: 'Studio White' }).click();
      await expectToast(page, 'Photo edited successfully!');
      await expect(dialog.getByTestId('after-image')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await shot('dashboard-inline-edited.png');
      // Scrolled to the end of the dialog: the actions after an edit.
      await dialog.getByRole('button', { name: 'Download HD Version' }).scrollIntoViewIfNeeded();
      await shot('dashboard-inline-edited-actions.png');
    });
  }
});
