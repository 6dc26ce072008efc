import { expect, test } from '../support/fixtures';

test('How It Works has the steps, the aspects, privacy points, the disclaimer and a link to /upload', async ({
  page,
}) => {
  await page.goto('/how-it-works');
  for (const step of ['Upload a photo', 'AI analysis', 'Get your score']) {
    await expect(page.getByRole('heading', { name: step })).toBeVisible();
  }
  for (const aspect of ['Facial symmetry', 'Golden ratio', 'Feature harmony', 'Overall balance']) {
    await expect(page.getByRole('heading', { name: aspect })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Your privacy' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText(/fun/i);

  await page.getByRole('link', { name: "Try It Now - It's Free!" }).click();
  await expect(page).toHaveURL(/\/upload$/);
});

test('the privacy policy shows the contact address the server is configured with', async ({ page, request }) => {
  const config = await (await request.get('/api/v1/app-config')).json();
  expect(typeof config.contact_email).toBe('string');

  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText(/Last updated:/)).toBeVisible();
  await expect(page.getByText(/anonymous usage statistics/)).toBeVisible();
  const link = page.getByRole('link', { name: config.contact_email });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `mailto:${config.contact_email}`);
});
