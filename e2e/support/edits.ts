import fs from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { TestAccount } from './score';

export type SavedPhoto = { id: string; score: number; edited_image_url: string | null; original_image_url: string; created_at: string };

/** Saves an image file to the account's photos through the API (the server scores it). */
export async function savePhotoFile(request: APIRequestContext, account: TestAccount, file: string): Promise<SavedPhoto> {
  const response = await request.post('/api/v1/photos', {
    headers: { Authorization: `Bearer ${account.accessToken}` },
    multipart: { image: { name: 'photo.png', mimeType: 'image/png', buffer: fs.readFileSync(file) } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as SavedPhoto;
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

