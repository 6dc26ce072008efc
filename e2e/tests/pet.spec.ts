import path from 'node:path';
import { expect, axeViolations, test, viewports } from '../support/fixtures';
import { ARTIFACTS_DIR } from '../support/paths';
import { allowClipboard, CAT, download, pngSize, readClipboard, holdRequests } from '../support/score';

const titles: Record<number, string> = {
  10: 'Absolutely Adorable!',
  9: 'Absolutely Adorable!',
  8: 'Super Cute!',
  7: 'Very Sweet!',
};

test('the pet flow: the cat from upload through analysis to its score, card and share', async ({
  page,
  context,
  baseURL,
}) => {
  await allowClipboard(context, baseURL!);
  const analysis = await holdRequests(page, '**/api/v1/analyses/pet');
  await page.goto('/pet-upload');
  await expect(page.getByRole('heading', { level: 1, name: 'Pet Cuteness Score' })).toBeVisible();
  await expect(page.getByText('Free for all users!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload from Gallery' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Take a Photo' })).toBeVisible();
  await expect(page.getByTestId('pet-camera-input')).toHaveAttribute('capture', 'environment');

  await page.getByTestId('pet-gallery-input').setInputFiles(CAT);
  await expect(page.getByRole('img', { name: "Preview of your pet's photo" })).toBeVisible();
  await page.getByRole('button', { name: "Get My Pet's Score!" }).click();
  await expect(page.getByRole('button', { name: 'Analyzing...' })).toBeDisabled();
  await expect(page.getByText("Analyzing Your Pet's Photo...")).toBeVisible();
  await expect(page.getByTestId('pet-analysing').locator('li')).toHaveText(['Adorableness', 'Fur quality', 'Overall cuteness']);
  analysis.release();

  await expect(page).toHaveURL(/\/pet-results$/, { timeout: 20_000 });
  const scoreText = (await page.getByTestId('pet-score').textContent())!;
  const score = Number(/^(\d+)/.exec(scoreText)![1]);
  expect(score).toBeGreaterThanOrEqual(7);
  expect(score).toBeLessThanOrEqual(10);
  await expect(page.getByTestId('pet-score')).toContainText('out of 10');
  await expect(page.getByRole('heading', { level: 1, name: titles[score] })).toBeVisible();
  await expect(page.getByText(`Your pet scored ${score}/10 on our AI cuteness analysis.`)).toBeVisible();

  const card = await download(page, 'Download');
  expect(card.name).toBe(`prettyscore-pet-${score}.png`);
  expect(pngSize(card.bytes)).toEqual({ width: 600, height: 1000 });
  await expect(page.getByText('Result card downloaded!')).toBeVisible();

  await page.getByRole('button', { name: 'Share Results' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Results' });
  await dialog.getByRole('button', { name: 'Instagram' }).click();
  await expect(page.getByText('Message copied! Open Instagram and paste to share.')).toBeVisible();
  expect(await readClipboard(page)).toContain(`My pet scored ${score}/10`);
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Try Another Photo' }).click();
  await expect(page).toHaveURL(/\/pet-upload$/);
});

test('Change Photo clears the pet photo', async ({ page }) => {
  await page.goto('/pet-upload');
  await page.getByTestId('pet-gallery-input').setInputFiles(CAT);
  await expect(page.getByTestId('pet-preview')).toBeVisible();
  await page.getByRole('button', { name: 'Change Photo' }).click();
  await expect(page.getByTestId('pet-preview')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Upload from Gallery' })).toBeVisible();
});

test('/pet-results without a score goes back to /pet-upload', async ({ page }) => {
  await page.goto('/pet-results');
  await expect(page).toHaveURL(/\/pet-upload$/);
});

for (const viewport of viewports) {
  test.describe(`pet screens at ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('pet upload with a preview and pet results pass axe', async ({ page }) => {
      const shots = path.join(ARTIFACTS_DIR, 'screenshots', viewport.name);
      await page.goto('/pet-upload');
      await page.getByTestId('pet-gallery-input').setInputFiles(CAT);
      await expect(page.getByTestId('pet-preview')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(shots, 'pet-upload-preview.png'), fullPage: true, animations: 'disabled' });

      await page.getByRole('button', { name: "Get My Pet's Score!" }).click();
      await expect(page).toHaveURL(/\/pet-results$/, { timeout: 20_000 });
      await expect(page.getByTestId('pet-score')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(shots, 'pet-results-score.png'), fullPage: true, animations: 'disabled' });
    });
  });
}
