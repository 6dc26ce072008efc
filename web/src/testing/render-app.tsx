import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { queryConfig } from '@/lib/query-client';
import { createFakeAuthClient, testSession, testUser, type FakeAuthOptions } from './fake-auth-client';

type RenderAppOptions = {
  /** 'signed-in' starts with a session for testUser; the default is signed out. */
  user?: 'signed-in' | 'signed-out';
  signOutError?: boolean;
  /** More behaviour of the fake auth client: accounts, a second factor. */
  auth?: Omit<FakeAuthOptions, 'session' | 'signOutError'>;
  /** Router state of the first entry. */
  state?: unknown;
  /** The signed-in user's display name (user_metadata.display_name); null for none. Default 'Ada'. */
  displayName?: string | null;
};

function entryWithState(url: string, state: unknown) {
  const [pathname = '/', search] = url.split('?');
  return { pathname, search: search ? `?${search}` : '', state };
}

/** Renders the whole app (layout, providers, routes) at `url`. */
export function renderApp(
  url = '/',
  { user = 'signed-out', signOutError = false, auth: authOptions, state, displayName = 'Ada' }: RenderAppOptions = {},
) {
  const metadata = displayName === null ? {} : { display_name: displayName };
  const auth = createFakeAuthClient({
    ...authOptions,
    session: user === 'signed-in' ? testSession({ ...testUser, user_metadata: metadata }) : null,
    signOutError,
  });
  const queryClient = new QueryClient({
    defaultOptions: { ...queryConfig, queries: { ...queryConfig.queries, retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [state === undefined ? url : entryWithState(url, state)] });
  const result = render(
    <AppProvider queryClient={queryClient} authClient={auth.client}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, auth, queryClient, user: userEvent.setup({ applyAccept: false }) };
}
