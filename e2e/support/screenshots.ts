/**
 * The screenshot every walk takes of a finished screen: once the page is
 * idle, with no serious axe violation, full page, animations stopped, into
 * artifacts/screenshots/<viewport>/<name>.png for people to look at.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, axeViolations } from './fixtures';
import { ARTIFACTS_DIR } from './paths';

export async function shoot(page: Page, viewport: string, name: string) {
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({
    path: path.join(ARTIFACTS_DIR, 'screenshots', viewport, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}
