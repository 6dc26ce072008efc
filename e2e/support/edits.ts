import fs from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { TestAccount } from './score';

export type SavedPhoto = { id: string; score: number; edited_image_url: string | null; original_image_url: string; created_at: string };

/** Saves a PNG (a file, or its bytes) to the account's photos through the API (the server scores it). */
export async function savePhotoFile(request: APIRequestContext, account: TestAccount, file: string | Buffer): Promise<SavedPhoto> {
  const buffer = typeof file === 'string' ? fs.readFileSync(file) : file;
  const response = await request.post('/api/v1/photos', {
    headers: { Authorization: `Bearer ${account.accessToken}` },
    multipart: { image: { name: 'photo.png', mimeType: 'image/png', buffer } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as SavedPhoto;
}

/**
 * A copy of a PNG with a CSS filter applied, drawn by the browser: a second
 * face photo that scores differently (the astronaut blurred by 2 px scores
 * 8.2 to the original's 8.7; the test data's other face, the cameraman in
 * profile, is refused as face_too_small by design).
 */
export async function filteredCopy(page: Page, file: string, filter: string): Promise<Buffer> {
  const source = `data:image/png;base64,${fs.readFileSync(file).toString('base64')}`;
  const png = await page.evaluate(
    async ([src, cssFilter]) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.filter = cssFilter;
      context.drawImage(image, 0, 0);
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    [source, filter] as const,
  );
  return Buffer.from(png, 'base64');
}

export async function getPhoto(request: APIRequestContext, account: TestAccount, id: string): Promise<SavedPhoto> {
  const response = await request.get(`/api/v1/photos/${id}`, { headers: { Authorization: `Bearer ${account.accessToken}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as SavedPhoto;
}

/** Waits for a toast with this text (sonner keeps several on screen). */
export async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: text }).first()).toBeVisible({ timeout: 30_000 });
}

