import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { TESTDATA_DIR } from '../support/paths';

const astronaut = path.join(TESTDATA_DIR, 'face', 'astronaut.png');

test('the home page has its sections and promotions', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Trusted by 100,000+ users')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Win $50K' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Example scores' })).toBeVisible();
  await expect(page.getByText(/not real people/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How it works', exact: true })).toBeVisible();
});

test('the drop zone rejects a text file with "Please upload an image file"', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('upload-input').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not a photo'),
  });
  await expect(page.getByText('Please upload an image file')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => sessionStorage.getItem('prettyscore:uploadedImage'))).toBeNull();
});

test('the drop zone accepts a photo, keeps it for this tab and opens the upload page', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('upload-input').setInputFiles(astronaut);
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const stored = await page.evaluate(() => sessionStorage.getItem('prettyscore:uploadedImage'));
  expect(stored).toMatch(/^data:image\/png;base64,/);
});

test('a photo dropped on the drop zone is accepted', async ({ page }) => {
  await page.goto('/');
  const dataTransfer = await page.evaluateHandle(async () => {
    const transfer = new DataTransfer();
    const bytes = Uint8Array.from(atob('iVBORw0KGgo='), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
    return transfer;
  });
  await page.getByTestId('upload-drop-zone').dispatchEvent('drop', { dataTransfer });
  await expect(page).toHaveURL(/\/upload$/);
});
