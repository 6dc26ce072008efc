import path from 'node:path';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { expectToast } from '../support/edits';
import { ARTIFACTS_DIR } from '../support/paths';
import { openEditorWithTrial } from '../support/premium';
import { ASTRONAUT, signUp, useSession } from '../support/score';

test.describe('the AI photo editor', () => {
  test('move the sliders, apply a quick edit, save, and find the photo in My Photos', async ({ page, request }) => {
    // The whole walk (the trial, sliders, an edit, save, My Photos) outlasts 30 s on a loaded machine.
    test.slow();
    // The editor is gated by ai_editor: a new account enters with its one free trial.
    await useSession(page, await signUp(request));
    await openEditorWithTrial(page);

    await page.getByRole('button', { name: 'Enhance' }).click();
    await expectToast(page, 'Please upload an image first');

    await page.getByTestId('editor-input').setInputFiles(ASTRONAUT);
    const image = page.getByTestId('editor-image');
    await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);

    await page.getByRole('tab', { name: 'Adjust' }).click();
    const brightness = page.getByLabel('Brightness');
    await brightness.focus();
    for (let i = 0; i < 20; i += 1) await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('brightness-value')).toHaveText('120%');
    const blur = page.getByLabel('Blur');
    await blur.focus();
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('blurPx-value')).toHaveText('0.5 px');
    // The preview blurs in screen pixels: 0.5 photo pixels scaled to the size the photo is shown.
    await expect(image).toHaveCSS('filter', /brightness\(1\.2\).*blur\([\d.]+px\)/);
    const shown = await image.evaluate((img: HTMLImageElement) => img.clientWidth / img.naturalWidth);
    const previewBlur = await image.evaluate((img) => Number(/blur\(([\d.]+)px\)/.exec(getComputedStyle(img).filter)![1]));
    expect(previewBlur).toBeCloseTo(0.5 * shown, 1);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'AI Tools' }).click();
    await page.getByRole('button', { name: 'Enhance' }).click();
    // The sliders are applied by the server first (free), then the enhancement (counted).
    await expectToast(page, 'Photo enhanced! 4 free edits remaining.');
    await expect(page.getByTestId('history-step')).toHaveText('Enhance · step 3 of 3');
    await expect(page.getByTestId('after-image')).toHaveAttribute('src', /^\/media\//);

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('history-step')).toHaveText('Adjustments · step 2 of 3');
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect(page.getByTestId('history-step')).toHaveText('Enhance · step 3 of 3');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^prettyscore-edited\.(jpg|png)$/);
    await expectToast(page, 'Photo downloaded!');

    await page.getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: 'Share Your Edit' });
    await expect(share.getByRole('button', { name: 'Instagram' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Photo saved to your dashboard!');
    await expect(page.getByTestId('editor-score')).toHaveText(/Score \d{1,2}\.\d\/10/);

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'My Photos (1)' })).toBeVisible();
    await expect(page.getByTestId('photo-card')).toHaveCount(1);
  });

  test('a new upload starts a fresh history', async ({ page, request }) => {
    await useSession(page, await signUp(request));
    await openEditorWithTrial(page);
    await page.getByTestId('editor-input').setInputFiles(ASTRONAUT);
    // The photo is read in the browser first: a tool pressed before it shows has nothing to edit.
    await expect(page.getByTestId('editor-image')).toHaveAttribute('src', /^data:image\/png;base64,/);
    await page.getByRole('button', { name: 'Retouch' }).click();
    await expectToast(page, 'Photo edited! 4 free edits remaining.');
    await expect(page.getByTestId('history-step')).toHaveText('Retouch · step 2 of 2');
    await page.getByTestId('editor-input').setInputFiles(ASTRONAUT.replace('astronaut', 'cameraman-gray'));
    await expect(page.getByTestId('history-step')).toHaveText('Original · step 1 of 1');
    await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
  });

  for (const viewport of viewports) {
    test(`the editor looks right at ${viewport.name}`, async ({ page, request }) => {
      await page.setViewportSize(viewport.size);
      await useSession(page, await signUp(request));
      await openEditorWithTrial(page);
      await page.getByTestId('editor-input').setInputFiles(ASTRONAUT);
      await expect(page.getByTestId('editor-image')).toHaveAttribute('src', /^data:image\/png;base64,/);
      await page.getByRole('button', { name: 'Upscale 4K' }).click();
      await expectToast(page, 'Photo upscaled! 4 free edits remaining.');
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'editor-edited.png'), fullPage: true, animations: 'disabled' });

      // The sliders moved: previewed live on the edit.
      await page.getByRole('tab', { name: 'Adjust' }).click();
      for (const [name, presses] of [['Brightness', 15], ['Saturation', 30], ['Blur', 5]] as const) {
        await page.getByLabel(name).focus();
        for (let i = 0; i < presses; i += 1) await page.keyboard.press('ArrowRight');
      }
      await expect(page.getByTestId('brightness-value')).toHaveText('115%');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'editor-sliders.png'), fullPage: true, animations: 'disabled' });
    });
  }
});
