import path from 'node:path';
import { gzipSync } from 'node:zlib';
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

/**
 * Issue 27: a phone on 4G pays for every KB of script before the upload zone
 * works. `npm run size` (web/) counts what index.html names; this counts what
 * Chromium actually asks for before the zone is on screen, lazily loaded
 * chunks included, and prints both lists. Sizes are the bodies gzipped at
 * zlib's default level, as the server sends them; 1 KB = 1024 B.
 */
test('a first visit fetches at most 150 KB of gzipped script before the upload zone works', async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __uploadZoneAt?: number };
    new MutationObserver(() => {
      if (w.__uploadZoneAt === undefined && document.querySelector('[data-testid="upload-input"]')) {
        w.__uploadZoneAt = performance.now();
      }
    }).observe(document, { subtree: true, childList: true });
  });
  const bodies = new Map<string, string>();
  const gzipped = new Map<string, number>();
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.body().catch(() => null);
    if (!body) return;
    bodies.set(response.url(), body.toString('utf8'));
    gzipped.set(response.url(), gzipSync(body).length);
  });

  await page.goto('/');
  await expect(page.getByTestId('upload-input')).toBeAttached();
  // The deferred pieces (auth client, toasts, the phone menu's sheet) load when the page is idle.
  await expect.poll(() => [...bodies.values()].some((body) => body.includes('gotrue-js')), { timeout: 15_000 }).toBe(true);
  await page.waitForLoadState('networkidle');

  const { zoneAt, scripts } = await page.evaluate(() => ({
    zoneAt: (window as unknown as { __uploadZoneAt: number }).__uploadZoneAt,
    scripts: performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.js'))
      .map((entry) => ({ url: entry.name, start: entry.startTime })),
  }));
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const before = scripts.filter((script) => script.start < zoneAt);
  const after = scripts.filter((script) => script.start >= zoneAt);
  const total = (list: typeof scripts) => list.reduce((sum, script) => sum + (gzipped.get(script.url) ?? 0), 0);
  const show = (list: typeof scripts) =>
    list.map((script) => `  ${kb(gzipped.get(script.url) ?? 0).padStart(6)} KB  ${script.url.replace(baseURL!, '')}`).join('\n');
  console.log(
    `[first load] before the upload zone (${Math.round(zoneAt)} ms): ${kb(total(before))} KB gz in ${before.length} files\n${show(before)}\n` +
      `[first load] after it (idle): ${kb(total(after))} KB gz in ${after.length} files\n${show(after)}`,
  );

  expect(total(before), 'gzipped script fetched before the upload zone works').toBeLessThanOrEqual(150 * 1024);
  const early = before.map((script) => bodies.get(script.url) ?? '');
  expect(early.some((body) => body.includes('gotrue-js')), 'auth-js waits for idle on a first visit').toBe(false);
  expect(early.some((body) => body.includes('data-sonner-toaster')), 'sonner waits for the first toast or idle').toBe(false);
});
