/**
 * Every route of both spec route tables, read from the web app's own route
 * list (`web/src/config/paths.ts`), so a new page is visited without a second
 * list to keep: each `:param` gets a sample value below, and the screenshot is
 * saved under the key's kebab-case name.
 */
import { paths } from '../../web/src/config/paths';

export type AppRoute = { name: string; path: string };

/** A sample for each path parameter; a route with one missing fails here. */
const SAMPLE_PARAMS: Record<string, string> = {
  id: 'cs_sample',
  account: 'acct_sample',
  requestId: '7b0e6f3a-2c1d-4e5f-9a8b-0c1d2e3f4a5b',
  code: 'SAMPLE1',
  decisionId: '7b0e6f3a-2c1d-4e5f-9a8b-0c1d2e3f4a5c',
};

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function withSamples(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, (_, param: string) => {
    const sample = SAMPLE_PARAMS[param];
    if (!sample) throw new Error(`e2e/support/routes.ts: no sample value for :${param} in ${path}`);
    return sample;
  });
}

export const appRoutes: AppRoute[] = Object.entries(paths).map(([key, page]) => ({
  name: kebab(key),
  path: withSamples(page.path),
}));

/** A path no route matches: the app shows its not-found page. */
export const unknownRoute: AppRoute = { name: 'not-found', path: '/this-page-does-not-exist' };
