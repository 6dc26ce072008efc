import fs from 'node:fs';
import path from 'node:path';
import {
  builtInAlternatives,
  dashboardTabs,
  editorBackgrounds,
  editorQuickEdits,
  editorStyles,
  resultPresets,
} from '../../web/src/features/edits/utils/presets';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { expectToast } from '../support/edits';
import { ARTIFACTS_DIR } from '../support/paths';
import { ASTRONAUT, scoreAstronaut } from '../support/score';

const PRESETS = ['Improve Score to 10', 'Enhance', 'Upscale', 'Retouch Skin', 'Blur Background', 'Black & White'];

test.describe('AI edits on the results screen', () => {
  test('Upscale and a custom prompt show the before/after and count the free edits down', async ({ page }) => {
    const score = await scoreAstronaut(page);
    const card = page.getByTestId('ai-edit-card');
    await expect(card.getByRole('heading', { name: 'Quick AI Enhancements' })).toBeVisible();
    await expect(card.getByTestId('edits-remaining')).toHaveText('5 free edits left');
    await expect(page.getByTestId('before-after')).toHaveCount(0);

    await card.getByRole('button', { name: 'Upscale', exact: true }).click();
    await expectToast(page, 'Photo upscaled! 4 free edits remaining.');
    const slider = page.getByTestId('before-after');
    await expect(slider).toBeVisible();
    await expect(page.getByTestId('before-image')).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(page.getByTestId('after-image')).toHaveAttribute('src', /^\/media\//);
    // The edited image really is twice the size.
    const widths = await page.getByTestId('after-image').evaluate((img: HTMLImageElement) => img.naturalWidth);
    const before = await page.getByTestId('before-image').evaluate((img: HTMLImageElement) => img.naturalWidth);
    expect(widths).toBe(Math.min(before * 2, 3840));
    await expect(card.getByTestId('edits-remaining')).toHaveText('4 free edits left');

    // The handle works from the keyboard.
    const handle = page.getByRole('slider', { name: 'Before and after comparison' });
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(handle).toHaveValue('48');

    const firstEdit = await page.getByTestId('after-image').getAttribute('src');
    await card.getByLabel('Describe your edit').fill('make it brighter');
    await card.getByLabel('Describe your edit').press('Enter');
    await expectToast(page, 'Photo edited! 3 free edits remaining.');
    await expect(page.getByTestId('after-image')).not.toHaveAttribute('src', firstEdit!);
    expect(await page.evaluate(() => localStorage.getItem('prettyScoreEditsRemaining'))).toBe('3');

    // Analyze scores the edited image.
    await card.getByRole('button', { name: 'Analyze' }).click();
    await expectToast(page, /^Your edited photo scores \d{1,2}\.\d\/10!$/);
    await expect(page.getByTestId('score-value')).toHaveText(/^\d{1,2}\.\d$/);
    expect(score).toMatch(/^\d{1,2}\.\d$/);

    expect(await axeViolations(page)).toEqual([]);
  });

  test('an enhancement asks to Analyze; a blank custom edit asks for an instruction', async ({ page }) => {
    await scoreAstronaut(page);
    const card = page.getByTestId('ai-edit-card');
    await card.getByRole('button', { name: 'Apply Edit' }).click();
    await expectToast(page, 'Please enter an editing instruction');
    await card.getByRole('button', { name: 'Improve Score to 10' }).click();
    await expectToast(page, 'Photo enhanced! 4 free edits remaining.');
    await expect(card.getByTestId('analyze-hint')).toContainText('Click Analyze to see your new score!');
  });

  test('after 5 edits every edit button is disabled, and the server holds to it', async ({ page }) => {
    await scoreAstronaut(page);
    const card = page.getByTestId('ai-edit-card');
    for (let left = 4; left >= 0; left -= 1) {
      await card.getByRole('button', { name: 'Enhance', exact: true }).click();
      await expectToast(page, `Photo enhanced! ${left} free ${left === 1 ? 'edit' : 'edits'} remaining.`);
    }
    const notice = page.getByTestId('out-of-edits');
    await expect(notice).toContainText("You've used all your free edits!");
    await expect(notice.getByRole('link', { name: 'Go Premium' })).toHaveAttribute('href', '/premium');
    for (const name of [...PRESETS, 'Apply Edit']) {
      await expect(card.getByRole('button', { name, exact: true })).toBeDisabled();
    }

    // Claiming more edits in local storage changes nothing: the server counts them.
    const latestEdit = await page.getByTestId('after-image').getAttribute('src');
    await page.evaluate(() => localStorage.setItem('prettyScoreEditsRemaining', '5'));
    await page.reload();
    await expect(page.getByTestId('out-of-edits')).toBeVisible();
    await expect(page.getByTestId('ai-edit-card').getByRole('button', { name: 'Upscale', exact: true })).toBeDisabled();
    expect(await page.evaluate(() => localStorage.getItem('prettyScoreEditsRemaining'))).toBe('0');
    const refused = await page.request.post('/functions/v1/edit-photo', {
      data: { imageUrl: latestEdit, prompt: 'Enhance' },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toBe("You've used all your free edits. Upgrade to Premium for unlimited edits!");
  });

  test('every preset prompt of the three screens is one the edit engine understands', async ({ playwright, baseURL }) => {
    const builtin = new Set<string>();
    const generative = new Set<string>();
    for (const preset of [
      ...resultPresets,
      ...dashboardTabs.flatMap((tab) => tab.presets),
      ...builtInAlternatives,
      ...editorQuickEdits,
    ]) {
      (preset.generative ? generative : builtin).add(preset.prompt);
    }
    for (const option of [...editorStyles, ...editorBackgrounds]) builtin.add(option.prompt);
    const imageUrl = `data:image/png;base64,${fs.readFileSync(ASTRONAUT).toString('base64')}`;
    for (const prompt of [...builtin, ...generative]) {
      // A fresh browser (device cookie) per prompt: each has its own 5 free edits.
      const browser = await playwright.request.newContext({ baseURL });
      const reply = await browser.post('/functions/v1/edit-photo', { data: { imageUrl, prompt } });
      const body = await reply.json();
      if (builtin.has(prompt)) {
        expect(reply.status(), `${prompt}: ${JSON.stringify(body)}`).toBe(200);
        expect(body.operations.length, prompt).toBeGreaterThan(0);
      } else {
        // Without a generative provider (the suite runs without one), the UI shows these disabled.
        expect(reply.status(), `${prompt}: ${JSON.stringify(body)}`).toBe(422);
        expect(body.code, prompt).toBe('unsupported_prompt');
      }
      await browser.dispose();
    }
  });

  for (const viewport of viewports) {
    test(`the edit card and the before/after look right at ${viewport.name}`, async ({ page }) => {
      await page.setViewportSize(viewport.size);
      await scoreAstronaut(page);
      await page.getByTestId('ai-edit-card').getByRole('button', { name: 'Blur Background' }).click();
      await expectToast(page, 'Photo edited! 4 free edits remaining.');
      await expect(page.getByTestId('after-image')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(ARTIFACTS_DIR, 'screenshots', viewport.name, 'results-edited.png'),
        fullPage: true,
        animations: 'disabled',
      });
    });
  }
});
