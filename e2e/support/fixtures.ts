import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';

export type Viewport = { name: string; size: { width: number; height: number } };

/** The two sizes every page must look right at: a phone and a laptop. */
export const viewports: Viewport[] = [
  { name: '375x812', size: { width: 375, height: 812 } },
  { name: '1280x800', size: { width: 1280, height: 800 } },
];

type Fixtures = {
  /** Console messages of type error that a test expects (matched by pattern, against the text and "text (url)"). */
  allowedConsoleErrors: RegExp[];
  /** Fails the test on any console error or uncaught page error. */
  consoleGuard: void;
  /** 'networkidle' that leaves the app's event streams out (see below). */
  streamAwareIdle: void;
};

/** The app's long-lived server-sent event streams (the user's own events, a conversation). */
const STREAM = /\/api\/v1\/(events|contact-requests\/[^/]+\/messages)\/stream$/;
const IDLE_MS = 500;

export const test = base.extend<Fixtures>({
  // Global setup starts the server and puts its address in the environment,
  // which each worker inherits.
  baseURL: async ({}, use) => {
    const url = process.env.PRETTYSCORE_BASE_URL;
    if (!url) throw new Error('PRETTYSCORE_BASE_URL is not set: global setup did not start a server');
    await use(url);
  },

  allowedConsoleErrors: [[], { option: true }],

  consoleGuard: [
    async ({ page, allowedConsoleErrors }, use) => {
      const problems = watchConsole(page, allowedConsoleErrors);
      await use();
      expect(problems.stop(), 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],

  // Every page a test opens, through the fixture's context or a browser
  // context of its own, waits for 'networkidle' without the app's streams.
  streamAwareIdle: [
    async ({ page, context }, use) => {
      ignoreStreamsWhenIdle(page);
      context.on('page', ignoreStreamsWhenIdle);
      await use();
    },
    { auto: true },
  ],

  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        context.on('page', ignoreStreamsWhenIdle);
        return context;
      };
      await use(browser);
      browser.newContext = newContext;
    },
    { scope: 'worker' },
  ],
});

export { expect };

/**
 * Collects a page's console errors (but those matching `allowed`, against the
 * text and against "text (url)" of where it came from) and uncaught errors,
 * until `stop()`, which returns them.
 */
export function watchConsole(page: Page, allowed: RegExp[]) {
  const problems: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const where = message.location();
    const withUrl = `${text} (${where.url})`;
    if (allowed.some((pattern) => pattern.test(text) || pattern.test(withUrl))) return;
    problems.push(`console.error: ${text}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
  };
  const onPageError = (error: Error) => problems.push(`page error: ${error.message}`);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return {
    stop() {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      return problems;
    },
  };
}

const idleAware = new WeakSet<Page>();

/**
 * A signed-in page keeps the user's event stream open (and a chat its
 * conversation's), and a request that never finishes means Playwright's
 * 'networkidle' never comes. On `page`, 'networkidle' then means what the
 * walks want: the page has loaded and no other request has been in flight
 * for 500 ms.
 */
function ignoreStreamsWhenIdle(page: Page) {
  if (idleAware.has(page)) return;
  idleAware.add(page);
  const pending = new Set<unknown>();
  const isStream = (url: string) => STREAM.test(new URL(url).pathname);
  page.on('request', (request) => {
    if (!isStream(request.url())) pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  const original = page.waitForLoadState.bind(page);
  page.waitForLoadState = async (state, options) => {
    if (state !== 'networkidle') return original(state, options);
    await original('load', options);
    await expect
      .poll(
        async () => {
          if (pending.size > 0) return false;
          await page.waitForTimeout(IDLE_MS);
          return pending.size === 0;
        },
        { timeout: options?.timeout ?? 30_000, intervals: [50] },
      )
      .toBe(true);
  };
}

/**
 * axe with the WCAG 2 A and AA rules, run inside the page (legacy mode): by
 * default AxeBuilder opens a blank page to put frames' results together,
 * which doubled each check (0.87 s against 0.46 s a page, measured over 24
 * pages). The app has no cross-origin frames, the one thing that mode skips.
 */
function axe(page: Page) {
  return new AxeBuilder({ page })
    .options({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
      // Beyond the WCAG 2 A and AA tags (issue 44): an experimental rule
      // and a best practice, enabled by name, each failing at any impact.
      rules: Object.fromEntries(ALWAYS_RULES.map((rule) => [rule, { enabled: true }])),
    })
    .setLegacyMode();
}

/**
 * Rules whose every finding fails, whatever its impact (issue 44): a
 * control whose accessible name does not contain its visible words (WCAG
 * 2.5.3: a voice user says what they see) and a skipped heading level.
 */
export const ALWAYS_RULES = ['label-content-name-mismatch', 'heading-order'];

/** A finding that fails a test: serious or critical, or one of ALWAYS_RULES. */
function fails(violation: { id: string; impact?: string | null }): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS_RULES.includes(violation.id);
}

/**
 * Runs axe with the WCAG 2 A and AA rules and ALWAYS_RULES; returns the
 * violations that fail: serious and critical ones, and any of ALWAYS_RULES.
 * Transitions and finite animations are let finish first: a toast fading in is
 * half transparent for 400 ms, and axe would measure its colours mid-fade.
 */
export async function axeViolations(page: Page) {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined));
    await Promise.race([Promise.all(finite), new Promise((resolve) => setTimeout(resolve, 2_000))]);
  });
  const results = await axe(page).analyze();
  const failing = results.violations.filter(fails);
  // A toast that arrives or times out while axe reads the page is measured
  // mid-transition (sonner fades it in and out), half transparent: a toast
  // node counts only if it still fails once its transition is over, and a
  // node that is gone by then is not a finding about the page.
  const targets = failing.flatMap((violation) => violation.nodes.map((node) => node.target.join(' ')));
  const place = (selectors: string[]) =>
    page.evaluate(
      (selectors) =>
        selectors.map((selector) => {
          try {
            const element = document.querySelector(selector);
            return element ? (element.closest('[data-sonner-toast]') ? 'toast' : 'page') : 'gone';
          } catch {
            return 'page';
          }
        }),
      selectors,
    );
  const places = await place(targets);
  let failingToasts = new Set<string>();
  if (places.includes('toast')) {
    await page.waitForTimeout(600); // longer than sonner's 400 ms transitions
    const again = await axe(page).include('[data-sonner-toast]').analyze();
    failingToasts = new Set(
      again.violations
        .filter(fails)
        .flatMap((violation) => violation.nodes.map((node) => node.target.join(' '))),
    );
  }
  const leaving = places.map((where, i) => where === 'gone' || (where === 'toast' && !failingToasts.has(targets[i]!)));
  let index = 0;
  return failing
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.filter(() => !leaving[index++]).map((node) => `${node.target.join(' ')} :: ${node.failureSummary ?? ''}`),
    }))
    .filter((violation) => violation.nodes.length > 0);
}
