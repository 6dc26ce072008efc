import { expect, test } from '../support/fixtures';

const SEVEN_DAYS = 60 * 60 * 24 * 7;

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('ctrl+b collapses and expands the sidebar and keeps the state in a 7-day cookie', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    const sidebar = page.locator('[data-slot="sidebar"]');
    const menu = page.getByRole('navigation', { name: 'Site menu' });
    await expect(menu).toBeVisible();
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    const wide = (await menu.boundingBox())!.width;

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(async () => (await menu.boundingBox())!.width).toBeLessThan(wide / 3);

    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(cookie?.path).toBe('/');
    const lifetime = cookie!.expires - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(SEVEN_DAYS - 120);
    expect(lifetime).toBeLessThanOrEqual(SEVEN_DAYS + 5);

    // The state survives a reload.
    await page.reload();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('true');
  });

  test('the sidebar trigger in the header toggles it too', async ({ page }) => {
    await page.goto('/how-it-works');
    const sidebar = page.locator('[data-slot="sidebar"]');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  });

  test('signed out, the header shows Sign In and the Account group offers only Sign In', async ({ page }) => {
    await page.goto('/');
    const signIn = page.getByRole('banner').getByRole('link', { name: 'Sign In' });
    await expect(signIn).toBeVisible();
    await expect(signIn).toHaveAttribute('href', '/auth');
    await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveCount(0);

    const account = page.getByRole('group', { name: 'Account' });
    await expect(account.getByRole('link')).toHaveText(['Sign In']);
    for (const group of ['Main', 'Premium', 'Info']) {
      await expect(page.getByRole('group', { name: group })).toBeVisible();
    }

    await signIn.click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('the side menu navigates between pages', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Site menu' }).getByRole('link', { name: 'How It Works' }).click();
    await expect(page).toHaveURL(/\/how-it-works$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('works');
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the sidebar is an off-canvas sheet that the header button opens', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Site menu' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const sheet = page.getByRole('dialog', { name: 'Site menu' });
    await expect(sheet).toBeVisible();
    const box = (await sheet.boundingBox())!;
    expect(box.x).toBe(0);
    expect(Math.round(box.width)).toBe(18 * 16);

    await sheet.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(sheet).toBeHidden();
  });

  test('ctrl+b opens and closes the sheet', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Control+b');
    await expect(page.getByRole('dialog', { name: 'Site menu' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Site menu' })).toBeHidden();
  });
});
